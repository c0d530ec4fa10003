DROP INDEX "product_taxonomies_node";--> statement-breakpoint
CREATE INDEX "products_country_rating" ON "products" USING btree ("country_code","rating");--> statement-breakpoint
CREATE INDEX "product_taxonomies_node" ON "product_taxonomies" USING btree ("node_uuid","product_id");