CREATE TYPE "public"."booking_status" AS ENUM('ON_HOLD', 'PENDING', 'PENDING_CONFIRM', 'EXPIRED', 'CONFIRMED', 'REJECTED', 'CANCELLED', 'REDEEMED');--> statement-breakpoint
CREATE TYPE "public"."payment_status" AS ENUM('PAID', 'ON_HOLD', 'REFUND', 'REFUNDED', 'FAILED');--> statement-breakpoint
CREATE TABLE "availabilities" (
	"id" uuid PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"organisation_id" integer,
	"account_id" uuid NOT NULL,
	"engine_name" text NOT NULL,
	"availability_date" date NOT NULL,
	"language" text NOT NULL,
	"currency" char(3),
	"setup" jsonb NOT NULL,
	"selections" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"quantities" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"quoted_total" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"booking_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_id" uuid,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_setups" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"setup" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"availability_id" uuid NOT NULL,
	"product_id" integer NOT NULL,
	"organisation_id" integer,
	"account_id" uuid NOT NULL,
	"environment" "environment_name" NOT NULL,
	"reseller_ref" text NOT NULL,
	"external_client_id" text,
	"status" "booking_status" NOT NULL,
	"payment_status" "payment_status" NOT NULL,
	"language" text NOT NULL,
	"currency" char(3) NOT NULL,
	"availability_date" date NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"starts_at_local" text NOT NULL,
	"engine_name" text NOT NULL,
	"setup" jsonb NOT NULL,
	"selections" jsonb NOT NULL,
	"quantities" jsonb NOT NULL,
	"participants" integer NOT NULL,
	"total_retail" double precision NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"answers_updated_at" timestamp with time zone,
	"answers_redacted_at" timestamp with time zone,
	"hold_expires_at" timestamp with time zone NOT NULL,
	"booking_code" text,
	"booking_external_id" text,
	"product_external_id" text NOT NULL,
	"confirm_requested_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"voucher_created_at" timestamp with time zone,
	"rejected_at" timestamp with time zone,
	"rejection_reason" text,
	"cancelled_at" timestamp with time zone,
	"cancellation_reason" text,
	"refund_percentage" double precision,
	"expired_at" timestamp with time zone,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL,
	"update_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "slot_inventory" (
	"product_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"capacity" integer NOT NULL,
	"taken" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "slot_inventory_product_id_starts_at_pk" PRIMARY KEY("product_id","starts_at"),
	CONSTRAINT "slot_inventory_not_overbooked" CHECK ("slot_inventory"."taken" >= 0 and "slot_inventory"."taken" <= "slot_inventory"."capacity")
);
--> statement-breakpoint
ALTER TABLE "availabilities" ADD CONSTRAINT "availabilities_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "availabilities" ADD CONSTRAINT "availabilities_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_jobs" ADD CONSTRAINT "booking_jobs_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_setups" ADD CONSTRAINT "booking_setups_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_availability_id_availabilities_id_fk" FOREIGN KEY ("availability_id") REFERENCES "public"."availabilities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slot_inventory" ADD CONSTRAINT "slot_inventory_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "availabilities_expires" ON "availabilities" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "booking_jobs_due" ON "booking_jobs" USING btree ("run_at") WHERE "booking_jobs"."done_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_jobs_one_per_kind" ON "booking_jobs" USING btree ("booking_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_idempotency" ON "bookings" USING btree ("availability_id","reseller_ref");--> statement-breakpoint
CREATE INDEX "bookings_organisation_created" ON "bookings" USING btree ("organisation_id","creation_date");--> statement-breakpoint
CREATE INDEX "bookings_hold" ON "bookings" USING btree ("hold_expires_at") WHERE "bookings"."status" = 'ON_HOLD';--> statement-breakpoint
CREATE INDEX "bookings_answers_retained" ON "bookings" USING btree ("answers_updated_at") WHERE "bookings"."answers_redacted_at" is null;