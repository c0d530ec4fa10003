import { toGlobalId } from "../../../core/global-id.js";
import { canSeeReport, reportingVisibility } from "../../../core/reporting-visibility.js";
import { isUuid } from "../../../core/uuid.js";
import { moneyOf } from "../../common/money.type.js";
import { connectionFrom, cursorCodec, CountPrecision, keyOrOffset, offsetOfRequest, OrderDirection, pageRequest, type Connection, type PagingArguments } from "../../common/relay/relay.connection.js";
import type { ReportingContext } from "../reporting.loaders.js";
import { bookingReportRepository, type BookingReportRow } from "./booking-report.repository.js";
import { BookingFlowType, type BookingReport, type BookingReportFilter, type BookingReportOrder, type ReportedBookingStatus } from "./booking-report.type.js";
import { REPORT_CSV_HEADER, reportCsvLine } from "./booking-report.csv.js";
import { MAX_REPORT_PAGE, reportQuery } from "./booking-report.query.js";

export function toBookingReport(row: BookingReportRow): BookingReport {
  return {
    id: toGlobalId("BookingReport", row.bookingId),
    legacyResourceId: row.bookingId,
    bookingCode: row.bookingCode,
    supplierBookingId: row.bookingExternalId,
    externalClientId: row.externalClientId,
    bookingEngineName: row.bookingEngineName,
    isTest: row.testMode,
    status: row.status as ReportedBookingStatus,
    bookedAt: row.bookedAt,
    confirmedAt: row.confirmedAt,
    voucherCreatedAt: row.voucherCreatedAt,
    cancelledAt: row.cancelledAt,
    cancellationReason: row.cancellationReason,
    activityStartsAt: row.activityStartAt,
    activityEndsAt: row.activityEndAt,
    grossPrice: moneyOf(row.priceGross, row.currency),
    netPrice: moneyOf(row.priceNet, row.currency),
    participantCount: row.paxBooked,
    // Every booking here is made by the partner's own system through the booking-flow API.
    flowType: BookingFlowType.QUICK_CONNECT,
    partnerChannelName: row.partnerChannelName,
    partner: row.organisationId === null ? null : { legacyResourceId: row.organisationId },
    product: { legacyResourceId: row.productId },
  };
}

/** A page of reports as a connection, with the page as CSV lines for exports. */
export type BookingReportPage = Connection<BookingReport> & { csv: string; csvHeader: string };

/** A cursor's position: beyond a report (`[bookedAt, id]`, what edges give), or past an offset (offsetCursor). */
const reportPosition = keyOrOffset((position) => {
  if (!Array.isArray(position) || position.length !== 2) return null;
  const [at, id] = position as unknown[];
  const bookedAt = typeof at === "string" ? new Date(at) : new Date(Number.NaN);
  return typeof id === "string" && isUuid(id) && !Number.isNaN(bookedAt.getTime()) ? { bookedAt, id } : null;
});

const DEFAULT_ORDER = { direction: OrderDirection.ASC };

export const bookingReportService = {
  /** The caller's reports matching the filter, a page at a time: after a keyset cursor, or past an offset (REST's pages). */
  async page(ctx: ReportingContext, filter: BookingReportFilter | null, args: PagingArguments, orderBy: Pick<BookingReportOrder, "direction"> | null): Promise<BookingReportPage> {
    const visibility = reportingVisibility(ctx.caller);
    const request = pageRequest(args, MAX_REPORT_PAGE, reportPosition);
    const query = reportQuery(filter);
    const descending = (orderBy ?? DEFAULT_ORDER).direction === OrderDirection.DESC;
    const offset = offsetOfRequest(request);
    let rows: BookingReportRow[];
    let counted: number | undefined;
    if (offset !== null) {
      const read = await bookingReportRepository.page(ctx.database.db, visibility, query, descending, offset, request.size + 1);
      rows = read.rows;
      counted = read.total;
    } else {
      // A backward page is read the other way, nearest first, and turned around.
      const beyond = request.position as { bookedAt: Date; id: string } | null;
      rows = request.size === 0 ? [] : await bookingReportRepository.slice(ctx.database.db, visibility, query, descending !== (request.direction === "backward"), beyond, request.size + 1);
    }
    for (const row of rows) ctx.loaders.bookingReport.prime(row.bookingId, row);
    const connection = connectionFrom(
      request,
      rows,
      toBookingReport,
      (row) => cursorCodec.encode([row.bookedAt.toISOString(), row.bookingId]),
      async () => ({ count: counted ?? (await bookingReportRepository.count(ctx.database.db, visibility, query)), precision: CountPrecision.EXACT }),
    );
    return {
      ...connection,
      // Written only when selected: an export's page crosses the graph as one string.
      get csv() {
        return connection.nodes.map(reportCsvLine).join("");
      },
      csvHeader: REPORT_CSV_HEADER,
    };
  },

  /** The report when the caller may see it, else null: another organisation's reads as unknown, so ids cannot be probed. */
  async visible(ctx: ReportingContext, id: string | null): Promise<BookingReport | null> {
    const visibility = reportingVisibility(ctx.caller);
    const row = id !== null && isUuid(id) ? await ctx.loaders.bookingReport.load(id.toLowerCase()) : undefined;
    return row && canSeeReport(visibility, row) ? toBookingReport(row) : null;
  },
};
