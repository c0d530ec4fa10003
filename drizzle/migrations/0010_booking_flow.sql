CREATE TABLE "booking_flow_announcements" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"bookable" boolean NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"retry_at" timestamp with time zone NOT NULL,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "booking_flow" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "booking_flow_announcements_due" ON "booking_flow_announcements" USING btree ("retry_at");--> statement-breakpoint
-- Setups made before this migration are told to the catalogue by the worker, like any later change.
INSERT INTO "booking_flow_announcements" ("product_id", "bookable", "changed_at", "retry_at") SELECT "product_id", true, now(), now() FROM "booking_setups";
