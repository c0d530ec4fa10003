CREATE TABLE "account_limits" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"cost_level" double precision NOT NULL,
	"cost_updated_at" timestamp with time zone NOT NULL,
	"window_index" bigint NOT NULL,
	"window_requests" integer NOT NULL
);
