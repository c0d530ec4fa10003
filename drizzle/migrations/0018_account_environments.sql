-- An account belongs to one environment: sandbox and production may share a database, and neither
-- signs in the other's accounts. A username is unique within its environment.
DROP INDEX "accounts_username_lower";--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "environment" "environment_name";--> statement-breakpoint
-- Accounts made before this migration. Every start makes its environment's signing key, so the keys
-- say who has used the database: one only production started on keeps its accounts in production;
-- any other (a sandbox's, one both share, one never started) puts them in the sandbox, where an
-- account placed wrongly gives no production access. The operator CLI's move-account corrects one.
UPDATE "accounts" SET "environment" = CASE
  WHEN EXISTS (SELECT 1 FROM "signing_keys" WHERE "environment" = 'production')
   AND NOT EXISTS (SELECT 1 FROM "signing_keys" WHERE "environment" = 'sandbox')
  THEN 'production'::"environment_name"
  ELSE 'sandbox'::"environment_name"
END;--> statement-breakpoint
ALTER TABLE "accounts" ALTER COLUMN "environment" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_environment_username_lower" ON "accounts" USING btree ("environment",lower("username"));
