CREATE TABLE "product_tracking_ids" (
	"tracking_id" bigint PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"organisation_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "tracking_ids_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "product_tracking_ids" ADD CONSTRAINT "product_tracking_ids_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_tracking_ids" ADD CONSTRAINT "product_tracking_ids_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_tracking_ids_product" ON "product_tracking_ids" USING btree ("product_id");