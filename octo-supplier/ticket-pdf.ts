import { PDFDocument, StandardFonts } from "pdf-lib";
import type { SupplierBooking, SupplierState } from "./supplier-state.js";

/** The supplier's own ticket: a plain one-page PDF with its reference, what was booked and when. */
export async function ticketPdf(booking: SupplierBooking, state: SupplierState): Promise<Uint8Array> {
  const product = state.product(booking.productId);
  const option = state.option(product, booking.optionId);
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(`Ticket ${booking.supplierReference}`);
  const page = doc.addPage([420, 300]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const lines: [string, typeof font, number][] = [
    ["Paris Discovery: ticket", bold, 18],
    [booking.supplierReference, bold, 24],
    [`${product.title.en}, ${option.title.en}`, font, 11],
    [`Valid on ${booking.availabilityId.slice(0, 10)}`, font, 11],
    [`${booking.unitItems.length} ticket(s)`, font, 11],
  ];
  let y = 250;
  for (const [text, face, size] of lines) {
    page.drawText(text, { x: 30, y, size, font: face });
    y -= size + 14;
  }
  return doc.save();
}
