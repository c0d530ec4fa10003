import { notFound } from "../../../core/errors.js";
import { checkUuid } from "../../../core/uuid.js";
import type { AvailabilitySetup } from "../availability/availability.view.js";
import { bookingRefusal } from "../booking.errors.js";
import { localized } from "../engines/inventory/booking-setup.schema.js";
import type { BookingContext } from "../booking.loaders.js";
import { customerAnswer } from "../questions/question.rules.js";
import { verifyVoucherLink } from "../voucher/voucher.link.js";
import { availabilityOfBooking } from "./booking.view.js";
import type { BookingRow } from "./booking.repository.js";
import type { VoucherDocument } from "./booking.type.js";

/** The voucher behind a signed link: the signature is the authorisation. */
export async function bookingVoucher(ctx: BookingContext, bookingId: string, expires: string, signature: string): Promise<VoucherDocument> {
  checkUuid(bookingId, "bookingId");
  const { stores } = ctx.loaders;
  const check = verifyVoucherLink(await stores.voucherSecret(ctx.database.db), bookingId, expires, signature, ctx.clock.now());
  if (check === "expired") throw bookingRefusal("VOUCHER_LINK_EXPIRED", "This voucher link has expired: read the booking again for a fresh one");
  if (check === "invalid") throw bookingRefusal("VOUCHER_LINK_INVALID", "This voucher link is not valid");
  const [row] = await stores.bookings.byIds(ctx.database.db, [bookingId]);
  if (!row || row.bookingCode === null || (row.status !== "CONFIRMED" && row.status !== "REDEEMED")) throw notFound("No voucher for this booking");
  const product = await ctx.loaders.catalogue.product.load(row.productId);
  const availability = availabilityOfBooking(row);
  // Loaded on the first voucher: pdf-lib and fontkit are 0.4 s of every start's CPU otherwise.
  const { renderVoucherPdf } = await import("../voucher/voucher.pdf.js");
  const pdf = await renderVoucherPdf({
    bookingId: row.id,
    bookingCode: row.bookingCode,
    productTitle: (product && localized(product.title, row.language)) ?? `Product ${row.productId}`,
    supplierName: product?.supplierName ?? undefined,
    startsAt: row.startsAtLocal,
    participants: (availability.priced?.units ?? []).filter((u) => u.unitQuantity > 0).map((u) => ({ label: u.label, quantity: u.unitQuantity })),
    options: availability.availabilityOptions.map((o) => ({ label: o.label, value: o.selectedOptionValue ?? "" })),
    resellerRef: row.resellerRef,
    leadTraveller: leadTravellerName(row) || undefined,
    supplierCode: row.supplierVoucherCode ?? undefined,
    total: { retail: row.totalRetail, currency: row.currency },
    issuedAt: row.voucherCreatedAt ?? row.confirmedAt ?? row.updateDate,
    environment: row.environment,
  });
  return { fileName: `voucher-${row.bookingCode}.pdf`, pdfBase64: Buffer.from(pdf).toString("base64") };
}

/**
 * The setup declares which answers are the name: question texts are free-form and localized, so
 * matching them on "name" missed a French flow's "Prénom"/"Nom" and would print a "Company name".
 */
function leadTravellerName(row: BookingRow): string {
  const setup = row.setup as AvailabilitySetup;
  return (setup.leadTravellerName ?? [])
    .map((key) => customerAnswer(row.id, row.answers, key)?.trim())
    .filter((part) => part !== undefined && part !== "")
    .join(" ");
}
