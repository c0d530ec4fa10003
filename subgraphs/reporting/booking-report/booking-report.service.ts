import { badInput, notFound } from "../../../core/errors.js";
import { canSeeReport, reportingVisibility } from "../../../core/reporting-visibility.js";
import { checkUuid } from "../../../core/uuid.js";
import type { ReportingContext } from "../loaders.js";
import { bookingReportRepository, type BookingReportRow } from "./booking-report.repository.js";
import type { BookingReport, BookingReportFilter, BookingReportPage, BookingReportSlice } from "./booking-report.type.js";
import { REPORT_CSV_HEADER, reportCsvLine } from "./report-csv.js";
import { checkPage, checkSort, decodeCursor, encodeCursor, MAX_SLICE, reportQuery } from "./report-query.js";

/** Every booking here is made by the partner's own system through the booking-flow API. */
const FLOW_TYPE = "quick-connect";

export function toBookingReport(row: BookingReportRow): BookingReport {
  return {
    id: row.bookingId,
    bookingCode: row.bookingCode,
    bookingExternalId: row.bookingExternalId,
    externalClientId: row.externalClientId,
    bookingEngineName: row.bookingEngineName,
    testMode: row.testMode,
    status: row.status,
    bookedAt: row.bookedAt,
    confirmedAt: row.confirmedAt,
    voucherCreatedAt: row.voucherCreatedAt,
    cancelledAt: row.cancelledAt,
    cancellationReason: row.cancellationReason,
    activityStartDate: row.activityStartAt,
    activityEndDate: row.activityEndAt,
    priceGross: row.priceGross,
    priceCurrency: row.currency,
    price: { gross: row.priceGross, net: row.priceNet, currency: row.currency },
    paxBooked: row.paxBooked,
    flowType: FLOW_TYPE,
    partnerChannelName: row.partnerChannelName,
    partnerId: row.organisationId === null ? null : String(row.organisationId),
    partner: row.organisationId === null ? null : { legacyResourceId: row.organisationId },
    productId: row.productId,
    product: { id: row.productId },
  };
}

export const bookingReportService = {
  async page(ctx: ReportingContext, filter: BookingReportFilter | null, offset: number, limit: number, sort: string): Promise<BookingReportPage> {
    const visibility = reportingVisibility(ctx.caller);
    checkPage(offset, limit);
    const order = checkSort(sort);
    const { rows, total } = await bookingReportRepository.page(ctx.database.db, visibility, reportQuery(filter), order, offset, limit);
    return { count: total, offset, limit, sort: [order], items: rows.map(toBookingReport) };
  },

  async slice(ctx: ReportingContext, filter: BookingReportFilter | null, after: string | null, first: number, sort: string): Promise<BookingReportSlice> {
    const visibility = reportingVisibility(ctx.caller);
    const order = checkSort(sort);
    const query = reportQuery(filter);
    if (!Number.isInteger(first) || first < 1 || first > MAX_SLICE) {
      throw badInput(`first must be between 1 and ${MAX_SLICE}`, [{ field: "first", rule: "range", message: `first must be between 1 and ${MAX_SLICE}` }]);
    }
    const position = after ? decodeCursor(after) : null;
    const rows = await bookingReportRepository.slice(ctx.database.db, visibility, query, order, position, first);
    const last = rows.at(-1);
    const items = rows.map(toBookingReport);
    return {
      items,
      get csv() {
        return items.map(reportCsvLine).join("");
      },
      csvHeader: REPORT_CSV_HEADER,
      nextCursor: rows.length === first && last ? encodeCursor(last.bookedAt, last.bookingId) : null,
    };
  },

  /** Another organisation's booking reads as unknown: ids cannot be probed. */
  async byId(ctx: ReportingContext, id: string): Promise<BookingReport> {
    const visibility = reportingVisibility(ctx.caller);
    checkUuid(id, "id");
    const row = await ctx.loaders.bookingReport.load(id.toLowerCase());
    if (!row || !canSeeReport(visibility, row)) throw notFound(`Booking ${id} not found`);
    return toBookingReport(row);
  },
};
