CREATE TABLE "octo_connections" (
	"engine_id" integer PRIMARY KEY NOT NULL,
	"engine_name" text NOT NULL,
	"base_url" text NOT NULL,
	"sealed_api_key" text NOT NULL,
	"capabilities" text[] NOT NULL,
	"octo_supplier_id" text NOT NULL,
	"octo_supplier_name" text NOT NULL,
	"country_code" char(2) NOT NULL,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"import_started_at" timestamp with time zone,
	"last_imported_at" timestamp with time zone,
	CONSTRAINT "octo_connections_engine_name_unique" UNIQUE("engine_name")
);
--> statement-breakpoint
ALTER TABLE "octo_connections" ADD CONSTRAINT "octo_connections_engine_id_booking_engines_id_fk" FOREIGN KEY ("engine_id") REFERENCES "public"."booking_engines"("id") ON DELETE cascade ON UPDATE no action;