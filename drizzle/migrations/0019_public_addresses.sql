CREATE TABLE "public_addresses" (
	"environment" "environment_name" PRIMARY KEY NOT NULL,
	"public_url" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
