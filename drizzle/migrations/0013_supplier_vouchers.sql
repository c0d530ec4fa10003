ALTER TABLE "bookings" ADD COLUMN "supplier_voucher_url" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "supplier_voucher_code" text;