CREATE INDEX "booking_reports_count_status" ON "booking_reports" USING btree ("status");--> statement-breakpoint
CREATE INDEX "booking_reports_count_test_mode" ON "booking_reports" USING btree ("test_mode");--> statement-breakpoint
CREATE INDEX "booking_reports_count_engine" ON "booking_reports" USING btree ("booking_engine_name");