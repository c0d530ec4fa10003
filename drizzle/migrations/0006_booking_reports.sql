CREATE TABLE "booking_reports" (
	"booking_id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" integer,
	"account_id" uuid NOT NULL,
	"test_mode" boolean NOT NULL,
	"status" "booking_status" NOT NULL,
	"booking_code" text,
	"booking_external_id" text,
	"external_client_id" text,
	"booking_engine_name" text NOT NULL,
	"booked_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"voucher_created_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancellation_reason" text,
	"activity_start_at" timestamp with time zone NOT NULL,
	"activity_end_at" timestamp with time zone,
	"price_gross" double precision NOT NULL,
	"price_net" double precision NOT NULL,
	"currency" char(3) NOT NULL,
	"pax_booked" integer NOT NULL,
	"product_id" integer NOT NULL,
	"partner_channel_name" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "commission_rate" double precision;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "booking_reports" ADD CONSTRAINT "booking_reports_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_reports_booked" ON "booking_reports" USING btree ("booked_at","booking_id");--> statement-breakpoint
CREATE INDEX "booking_reports_org_booked" ON "booking_reports" USING btree ("organisation_id","booked_at","booking_id");--> statement-breakpoint
CREATE INDEX "booking_reports_status" ON "booking_reports" USING btree ("status","booked_at","booking_id");--> statement-breakpoint
CREATE INDEX "booking_reports_org_status" ON "booking_reports" USING btree ("organisation_id","status","booked_at","booking_id");--> statement-breakpoint
CREATE INDEX "booking_reports_confirmed" ON "booking_reports" USING btree ("confirmed_at") WHERE "booking_reports"."confirmed_at" is not null;--> statement-breakpoint
CREATE INDEX "booking_reports_org_confirmed" ON "booking_reports" USING btree ("organisation_id","confirmed_at") WHERE "booking_reports"."confirmed_at" is not null;--> statement-breakpoint
CREATE INDEX "booking_reports_cancelled" ON "booking_reports" USING btree ("cancelled_at") WHERE "booking_reports"."cancelled_at" is not null;--> statement-breakpoint
CREATE INDEX "booking_reports_org_cancelled" ON "booking_reports" USING btree ("organisation_id","cancelled_at") WHERE "booking_reports"."cancelled_at" is not null;--> statement-breakpoint
CREATE INDEX "booking_reports_test_mode" ON "booking_reports" USING btree ("test_mode","booked_at","booking_id");--> statement-breakpoint
CREATE INDEX "booking_reports_org_test_mode" ON "booking_reports" USING btree ("organisation_id","test_mode","booked_at","booking_id");--> statement-breakpoint
CREATE INDEX "booking_reports_engine" ON "booking_reports" USING btree ("booking_engine_name","booked_at","booking_id");--> statement-breakpoint
CREATE INDEX "booking_reports_org_engine" ON "booking_reports" USING btree ("organisation_id","booking_engine_name","booked_at","booking_id");--> statement-breakpoint
CREATE INDEX "booking_reports_code" ON "booking_reports" USING btree ("booking_code");--> statement-breakpoint
CREATE INDEX "booking_reports_external_id" ON "booking_reports" USING btree ("booking_external_id");--> statement-breakpoint
CREATE INDEX "booking_reports_client" ON "booking_reports" USING btree ("external_client_id");--> statement-breakpoint
-- The reporting projection follows every change of a reported booking in the changing transaction.
CREATE FUNCTION project_booking_report() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Carts (ON_HOLD) and lapsed holds (EXPIRED) were never sent to a supplier: they are not reported.
  IF NEW.status IN ('ON_HOLD', 'EXPIRED') THEN
    RETURN NULL;
  END IF;
  INSERT INTO booking_reports AS r (
    booking_id, organisation_id, account_id, test_mode, status, booking_code, booking_external_id,
    external_client_id, booking_engine_name, booked_at, confirmed_at, voucher_created_at, cancelled_at,
    cancellation_reason, activity_start_at, activity_end_at, price_gross, price_net, currency, pax_booked,
    product_id, partner_channel_name, updated_at
  ) VALUES (
    NEW.id, NEW.organisation_id, NEW.account_id, NEW.environment = 'sandbox', NEW.status, NEW.booking_code,
    NEW.booking_external_id, NEW.external_client_id, NEW.engine_name, date_trunc('milliseconds', NEW.creation_date), NEW.confirmed_at,
    NEW.voucher_created_at, NEW.cancelled_at, NEW.cancellation_reason, NEW.starts_at, NEW.ends_at,
    NEW.total_retail, round((NEW.total_retail * (1 - coalesce(NEW.commission_rate, 0)))::numeric, 2)::double precision,
    NEW.currency, NEW.participants, NEW.product_id, (SELECT username FROM accounts WHERE id = NEW.account_id),
    NEW.update_date
  )
  ON CONFLICT (booking_id) DO UPDATE SET
    status = EXCLUDED.status,
    booking_code = EXCLUDED.booking_code,
    booking_external_id = EXCLUDED.booking_external_id,
    external_client_id = EXCLUDED.external_client_id,
    confirmed_at = EXCLUDED.confirmed_at,
    voucher_created_at = EXCLUDED.voucher_created_at,
    cancelled_at = EXCLUDED.cancelled_at,
    cancellation_reason = EXCLUDED.cancellation_reason,
    activity_start_at = EXCLUDED.activity_start_at,
    activity_end_at = EXCLUDED.activity_end_at,
    price_gross = EXCLUDED.price_gross,
    price_net = EXCLUDED.price_net,
    pax_booked = EXCLUDED.pax_booked,
    updated_at = EXCLUDED.updated_at;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Answer updates (the most frequent writes) do not touch any reported column, so they skip the trigger.
CREATE TRIGGER bookings_report_projection
  AFTER INSERT OR UPDATE OF status, payment_status, booking_code, booking_external_id, external_client_id,
    confirmed_at, voucher_created_at, cancelled_at, cancellation_reason, starts_at, ends_at, total_retail,
    commission_rate, participants
  ON bookings FOR EACH ROW EXECUTE FUNCTION project_booking_report();
--> statement-breakpoint
-- Bookings made before this migration: an update of status fires the projection for each.
UPDATE bookings SET status = status WHERE status NOT IN ('ON_HOLD', 'EXPIRED');
