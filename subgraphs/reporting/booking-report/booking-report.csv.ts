import { csvLine } from "../../../core/csv.js";
import type { BookingReport } from "./booking-report.type.js";

/** The list item's fields in the contract's order (spec 2, reporting record): the CSV columns. */
export const REPORT_CSV_COLUMNS = [
  "id",
  "bookingCode",
  "bookingExternalId",
  "externalClientId",
  "bookingEngineName",
  "testMode",
  "status",
  "bookedAt",
  "confirmedAt",
  "voucherCreatedAt",
  "cancelledAt",
  "activityStartDate",
  "priceGross",
  "priceCurrency",
  "flowType",
  "partnerChannelName",
  "productId",
] as const;

/** yyyy-MM-dd'T'HH:mm:ss'Z', the contract's UTC format for report times. */
const utc = (date: Date | null) => (date === null ? null : `${date.toISOString().slice(0, 19)}Z`);

/**
 * One report as a CSV line. Written here rather than by each client so that every export, REST
 * or GraphQL, has the same columns and the same spreadsheet-safe cells, and so that a slice of
 * thousands of rows crosses the graph as one string instead of tens of thousands of fields.
 */
export function reportCsvLine(report: BookingReport): string {
  return csvLine([
    report.legacyResourceId,
    report.bookingCode,
    report.supplierBookingId,
    report.externalClientId,
    report.bookingEngineName,
    report.isTest,
    report.status,
    utc(report.bookedAt),
    utc(report.confirmedAt),
    utc(report.voucherCreatedAt),
    utc(report.cancelledAt),
    utc(report.activityStartsAt),
    // The contract's number: the amount as JSON writes it (49.9 for "49.90").
    Number(report.grossPrice.amount),
    report.grossPrice.currencyCode,
    report.flowType,
    report.partnerChannelName,
    report.product.legacyResourceId,
  ]);
}

export const REPORT_CSV_HEADER = csvLine([...REPORT_CSV_COLUMNS]);
