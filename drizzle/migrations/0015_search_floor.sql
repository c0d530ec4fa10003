-- Search at a million products (issue 13, docs/benchmarks.md): a page in the caller's country read
-- from one index instead of bitmaps of every match, heap rows and a sort.
-- btree_gin: GIN indexes that hold a plain column (country_code) beside a tsvector.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "title_sort_en" text GENERATED ALWAYS AS (lower(coalesce(title->>'en', jsonb_path_query_array(title, '$.*')::text))) STORED;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "taxonomy_uuids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
UPDATE "products" p SET "taxonomy_uuids" = t.uuids
  FROM (SELECT product_id, array_agg(node_uuid ORDER BY node_uuid) AS uuids FROM "product_taxonomies" GROUP BY product_id) t
 WHERE t.product_id = p.id;--> statement-breakpoint
-- product_taxonomies stays the truth; taxonomy_uuids follows it in the same statement, whoever
-- writes the links (the catalogue's services, a seed, a hand-run fix), so the two cannot disagree.
CREATE FUNCTION "products_taxonomy_uuids_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "products" p
     SET "taxonomy_uuids" = coalesce((SELECT array_agg(pt.node_uuid ORDER BY pt.node_uuid) FROM "product_taxonomies" pt WHERE pt.product_id = p.id), '{}'::uuid[])
   WHERE p.id IN (SELECT DISTINCT product_id FROM changed_links);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "product_taxonomies_inserted" AFTER INSERT ON "product_taxonomies" REFERENCING NEW TABLE AS changed_links FOR EACH STATEMENT EXECUTE FUNCTION "products_taxonomy_uuids_follow"();--> statement-breakpoint
CREATE TRIGGER "product_taxonomies_deleted" AFTER DELETE ON "product_taxonomies" REFERENCING OLD TABLE AS changed_links FOR EACH STATEMENT EXECUTE FUNCTION "products_taxonomy_uuids_follow"();--> statement-breakpoint
CREATE TRIGGER "product_taxonomies_updated_from" AFTER UPDATE ON "product_taxonomies" REFERENCING OLD TABLE AS changed_links FOR EACH STATEMENT EXECUTE FUNCTION "products_taxonomy_uuids_follow"();--> statement-breakpoint
CREATE TRIGGER "product_taxonomies_updated_to" AFTER UPDATE ON "product_taxonomies" REFERENCING NEW TABLE AS changed_links FOR EACH STATEMENT EXECUTE FUNCTION "products_taxonomy_uuids_follow"();--> statement-breakpoint
CREATE INDEX "products_search_country_title" ON "products" USING gin ("country_code","title_document") WHERE "products"."deleted_at" is null and not "products"."deprecated";--> statement-breakpoint
CREATE INDEX "products_search_taxonomies" ON "products" USING gin ("taxonomy_uuids") WHERE "products"."deleted_at" is null and not "products"."deprecated";--> statement-breakpoint
-- The caller's country's products in English title order, with what the filters of the benchmark
-- expressions read (rating, title words, taxonomy nodes): a page is an index-only walk that stops
-- at its hundredth match, whatever the matches' share of the country.
CREATE INDEX "products_search_walk_en" ON "products" USING btree ("country_code", "title_sort_en", "id") INCLUDE ("rating", "title_document", "taxonomy_uuids") WHERE "products"."deleted_at" is null and not "products"."deprecated";
