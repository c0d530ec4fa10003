-- Booking flow tells can reach the catalogue out of order; each change takes a version, and the
-- catalogue applies only a newer one. Announcements waiting now take theirs from the column's
-- default; products start at 0, so the first tell of each applies.
CREATE SEQUENCE "public"."booking_flow_versions" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "booking_flow_announcements" ADD COLUMN "version" integer DEFAULT nextval('booking_flow_versions') NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "booking_flow_version" integer DEFAULT 0 NOT NULL;
