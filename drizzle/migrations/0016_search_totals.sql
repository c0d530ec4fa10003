CREATE TABLE "catalogue_versions" (
	"slot" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "catalogue_versions" ("slot") SELECT generate_series(0, 15);--> statement-breakpoint
-- One more in one slot per transaction that changes what a search reads. Deferred, so that the
-- slot's row is locked only from the commit's start to its end; once a transaction, so that a
-- thousand-row import adds one, not a thousand.
CREATE FUNCTION "catalogue_versions_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('activities.catalogue_bumped', true) IS DISTINCT FROM 'on' THEN
    PERFORM set_config('activities.catalogue_bumped', 'on', true);
    UPDATE "catalogue_versions" SET "version" = "version" + 1 WHERE "slot" = (txid_current() % 16)::int;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "products_catalogue_version" AFTER INSERT OR UPDATE OR DELETE ON "products" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "catalogue_versions_bump"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "suppliers_catalogue_version" AFTER INSERT OR UPDATE OR DELETE ON "suppliers" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "catalogue_versions_bump"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "booking_engines_catalogue_version" AFTER INSERT OR UPDATE OR DELETE ON "booking_engines" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "catalogue_versions_bump"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "taxonomy_nodes_catalogue_version" AFTER INSERT OR UPDATE OR DELETE ON "taxonomy_nodes" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "catalogue_versions_bump"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "product_changes_catalogue_version" AFTER INSERT OR UPDATE OR DELETE ON "product_changes" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "catalogue_versions_bump"();--> statement-breakpoint
CREATE TRIGGER "products_truncated_catalogue_version" AFTER TRUNCATE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_versions_bump"();--> statement-breakpoint
CREATE TRIGGER "suppliers_truncated_catalogue_version" AFTER TRUNCATE ON "suppliers" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_versions_bump"();--> statement-breakpoint
CREATE TRIGGER "booking_engines_truncated_catalogue_version" AFTER TRUNCATE ON "booking_engines" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_versions_bump"();--> statement-breakpoint
CREATE TRIGGER "taxonomy_nodes_truncated_catalogue_version" AFTER TRUNCATE ON "taxonomy_nodes" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_versions_bump"();--> statement-breakpoint
CREATE TRIGGER "product_changes_truncated_catalogue_version" AFTER TRUNCATE ON "product_changes" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_versions_bump"();
