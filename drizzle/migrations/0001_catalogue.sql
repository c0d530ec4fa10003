CREATE TYPE "public"."product_change_type" AS ENUM('NEW', 'UPDATED', 'DELETED', 'DEPRECATED', 'UNDEPRECATED');--> statement-breakpoint
CREATE TABLE "product_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"change_type" "product_change_type" NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_taxonomies" (
	"product_id" integer NOT NULL,
	"node_uuid" uuid NOT NULL,
	CONSTRAINT "product_taxonomies_product_id_node_uuid_pk" PRIMARY KEY("product_id","node_uuid")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"supplier_id" integer NOT NULL,
	"scope_engine_id" integer NOT NULL,
	"external_id" text NOT NULL,
	"booking_engine_id" integer NOT NULL,
	"title" jsonb NOT NULL,
	"subtitle" jsonb,
	"short_description" jsonb,
	"description" jsonb,
	"experience_highlights" jsonb,
	"booking_url" jsonb,
	"cancellation_cut_off" jsonb,
	"modalities_included" jsonb,
	"modalities_excluded" jsonb,
	"modalities_additional_info" jsonb,
	"country_code" char(2),
	"zip_code" text,
	"city_name" text,
	"rating" double precision,
	"number_of_ratings" integer,
	"channel" text,
	"internal_name" text,
	"reference" text,
	"instant_confirmation" boolean,
	"instant_delivery" boolean,
	"availability_type" text,
	"redemption_method" text,
	"thumbnail_image" text,
	"min_price" double precision,
	"max_price" double precision,
	"price_currency" char(3),
	"pricing_unit" text,
	"price_level" integer,
	"average_price" double precision,
	"min_participants" integer,
	"max_participants" integer,
	"address" text,
	"place_id" text,
	"website" text,
	"latitude" double precision,
	"longitude" double precision,
	"geo_hash" text,
	"duration" text,
	"gallery_images" jsonb,
	"categories" jsonb,
	"availability_periods" jsonb,
	"itinerary" jsonb,
	"is_cancellable" boolean,
	"cancellation_cut_off_amount" integer,
	"cancellation_cut_off_unit" text,
	"handi_access" boolean,
	"est_comm_net" double precision,
	"est_comm_frprice_perc" double precision,
	"likely_to_be_sold_out" boolean,
	"skip_the_line" boolean,
	"metadata" jsonb,
	"deprecated" boolean DEFAULT false NOT NULL,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL,
	"update_date" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "suppliers" (
	"id" serial PRIMARY KEY NOT NULL,
	"booking_engine_id" integer NOT NULL,
	"external_id" text NOT NULL,
	"country_code" char(2) NOT NULL,
	"channel" text,
	"name" text,
	"endpoint" text,
	"logo" text,
	"website" text,
	"email" text,
	"telephone" text,
	"address" text,
	"latitude" double precision,
	"longitude" double precision,
	"geo_hash" text,
	"creation_date" timestamp with time zone DEFAULT now() NOT NULL,
	"update_date" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "taxonomy_nodes" (
	"uuid" uuid PRIMARY KEY NOT NULL,
	"family" text NOT NULL,
	"level" integer NOT NULL,
	"code" text NOT NULL,
	"parent_uuid" uuid,
	"slug" text NOT NULL,
	"name" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"is_current" boolean DEFAULT true NOT NULL,
	"start_date" date NOT NULL
);
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "scope" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_changes" ADD CONSTRAINT "product_changes_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_taxonomies" ADD CONSTRAINT "product_taxonomies_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_taxonomies" ADD CONSTRAINT "product_taxonomies_node_uuid_taxonomy_nodes_uuid_fk" FOREIGN KEY ("node_uuid") REFERENCES "public"."taxonomy_nodes"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_supplier_id_suppliers_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."suppliers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_scope_engine_id_booking_engines_id_fk" FOREIGN KEY ("scope_engine_id") REFERENCES "public"."booking_engines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_booking_engine_id_booking_engines_id_fk" FOREIGN KEY ("booking_engine_id") REFERENCES "public"."booking_engines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppliers" ADD CONSTRAINT "suppliers_booking_engine_id_booking_engines_id_fk" FOREIGN KEY ("booking_engine_id") REFERENCES "public"."booking_engines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_changes_changed_at" ON "product_changes" USING btree ("changed_at");--> statement-breakpoint
CREATE INDEX "product_changes_product" ON "product_changes" USING btree ("product_id","changed_at");--> statement-breakpoint
CREATE INDEX "product_taxonomies_node" ON "product_taxonomies" USING btree ("node_uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "products_scope_external_id_live" ON "products" USING btree ("scope_engine_id","external_id") WHERE "products"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "products_supplier_live" ON "products" USING btree ("supplier_id","id") WHERE "products"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "suppliers_engine_external_id_live" ON "suppliers" USING btree ("booking_engine_id","external_id") WHERE "suppliers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "suppliers_engine_live" ON "suppliers" USING btree ("booking_engine_id","id") WHERE "suppliers"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "taxonomy_nodes_slug_version" ON "taxonomy_nodes" USING btree ("slug","version");--> statement-breakpoint
CREATE INDEX "taxonomy_nodes_code" ON "taxonomy_nodes" USING btree ("level","code");