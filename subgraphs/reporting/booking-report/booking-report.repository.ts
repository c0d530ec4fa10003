import { and, asc, count, desc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { ReportingVisibility } from "../../../core/reporting-visibility.js";
import type { Executor } from "../../../drizzle/database.js";
import { bookingReports } from "../../../drizzle/schema.js";
import type { Range, ReportQuery } from "./booking-report.query.js";

export type BookingReportRow = typeof bookingReports.$inferSelect;

const t = bookingReports;

function within(column: AnyPgColumn, range: Range): SQL[] {
  const conditions: SQL[] = [];
  if (range.from) conditions.push(gte(column, range.from));
  if (range.until) conditions.push(lt(column, range.until));
  return conditions;
}

/** Visibility first, so every query carries the caller's organisation whatever the filters. */
function where(visibility: ReportingVisibility, query: ReportQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    visibility.organisationId === null ? undefined : eq(t.organisationId, visibility.organisationId),
    visibility.testModeOnly ? eq(t.testMode, true) : undefined,
    query.status === undefined ? undefined : eq(t.status, query.status as BookingReportRow["status"]),
    ...within(t.cancelledAt, query.cancelled),
    ...within(t.confirmedAt, query.confirmed),
    ...within(t.bookedAt, query.booked),
    query.testMode === undefined ? undefined : eq(t.testMode, query.testMode),
    query.bookingCode === undefined ? undefined : eq(t.bookingCode, query.bookingCode),
    query.bookingExternalId === undefined ? undefined : eq(t.bookingExternalId, query.bookingExternalId),
    query.externalClientId === undefined ? undefined : eq(t.externalClientId, query.externalClientId),
    query.bookingEngineName === undefined ? undefined : eq(t.bookingEngineName, query.bookingEngineName),
  ];
  return and(...conditions.filter((c): c is SQL => c !== undefined));
}

const order = (descending: boolean) => (descending ? [desc(t.bookedAt), desc(t.bookingId)] : [asc(t.bookedAt), asc(t.bookingId)]);

/**
 * The same order through an expression no index serves: the planner then reads the matches by
 * the filter's own index and sorts them, instead of walking every booking in creation order.
 */
const sortedOrder = (descending: boolean) => {
  const bookedAt = sql`${t.bookedAt} + interval '0 seconds'`;
  return descending ? [desc(bookedAt), desc(t.bookingId)] : [asc(bookedAt), asc(t.bookingId)];
};

/** Matches that are cheaper to sort than to find by walking the creation order (about 20 ms at 40,000). */
const SORT_AT_MOST = 50_000;

const hasRange = (range: Range) => range.from !== undefined || range.until !== undefined;

export const bookingReportRepository = {
  /** Rows past the first `offset` of the order, with the count of every match (REST's numbered pages). */
  async page(db: Executor, visibility: ReportingVisibility, query: ReportQuery, descending: boolean, offset: number, limit: number) {
    const condition = where(visibility, query);
    const counted = () => db.select({ total: count() }).from(t).where(condition);
    // Cancelled and confirmed times correlate with creation in ways the planner cannot see: it may
    // walk the creation order through months of bookings to find a month's cancellations. Their
    // count (cheap, from the range index) decides the plan instead.
    if (hasRange(query.cancelled) || hasRange(query.confirmed)) {
      const [{ total }] = await counted();
      if (offset >= total) return { rows: [], total };
      const ordering = total <= SORT_AT_MOST ? sortedOrder(descending) : order(descending);
      const rows = await db.select().from(t).where(condition).orderBy(...ordering).limit(limit).offset(offset);
      return { rows, total };
    }
    const [rows, [{ total }]] = await Promise.all([db.select().from(t).where(condition).orderBy(...order(descending)).limit(limit).offset(offset), counted()]);
    return { rows, total };
  },

  /** Keyset reads (exports, cursors): each row once, however many there are, while bookings keep coming. */
  async slice(db: Executor, visibility: ReportingVisibility, query: ReportQuery, descending: boolean, beyond: { bookedAt: Date; id: string } | null, limit: number) {
    const position = beyond
      ? descending
        ? sql`(${t.bookedAt}, ${t.bookingId}) < (${beyond.bookedAt.toISOString()}::timestamptz, ${beyond.id}::uuid)`
        : sql`(${t.bookedAt}, ${t.bookingId}) > (${beyond.bookedAt.toISOString()}::timestamptz, ${beyond.id}::uuid)`
      : undefined;
    return db.select().from(t).where(and(where(visibility, query), position)).orderBy(...order(descending)).limit(limit);
  },

  async count(db: Executor, visibility: ReportingVisibility, query: ReportQuery): Promise<number> {
    const [{ total }] = await db.select({ total: count() }).from(t).where(where(visibility, query));
    return Number(total);
  },

  async byIds(db: Executor, ids: readonly string[]): Promise<BookingReportRow[]> {
    return ids.length ? db.select().from(t).where(inArray(t.bookingId, [...ids])) : [];
  },
};

