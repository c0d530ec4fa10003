import { isCalendarDate } from "../../../core/calendar-date.js";
import { badInput, type FieldProblem } from "../../../core/errors.js";
import { isUuid } from "../../../core/uuid.js";
import type { BookingReportFilter } from "./booking-report.type.js";

/** Statuses the report list can be filtered by (spec 2, List bookings). */
export const REPORTED_STATUSES = ["PENDING_CONFIRM", "CONFIRMED", "REJECTED", "CANCELLED", "REDEEMED"] as const;
export const SORTS = ["bookedAt", "-bookedAt"] as const;
export type ReportSort = (typeof SORTS)[number];
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 500;
/** Rows per export slice: large enough to amortise a round trip, small enough to stream. */
export const MAX_SLICE = 5000;

/** A UTC time range, start included, end excluded. */
export interface Range {
  from?: Date;
  until?: Date;
}

/** The filters once checked: empty strings dropped, dates turned into UTC ranges. */
export interface ReportQuery {
  status?: string;
  cancelled: Range;
  confirmed: Range;
  booked: Range;
  testMode?: boolean;
  bookingCode?: string;
  bookingExternalId?: string;
  externalClientId?: string;
  bookingEngineName?: string;
}

const DAY_MS = 24 * 3600 * 1000;
const present = (value: string | null | undefined): string | undefined => (value === null || value === undefined || value === "" ? undefined : value);

/** The filters' rules: each refusal names the filter and the rule it broke; all problems at once. */
export function reportQuery(filter: BookingReportFilter | null | undefined): ReportQuery {
  const problems: FieldProblem[] = [];
  const f = filter ?? {};
  const status = present(f.status);
  if (status !== undefined && !(REPORTED_STATUSES as readonly string[]).includes(status)) {
    problems.push({ field: "status", rule: "enum", message: `status must be one of ${REPORTED_STATUSES.join(", ")}` });
  }
  const range = (name: "cancelled" | "confirmed" | "booked"): Range => {
    const startField = `${name}StartDate`;
    const endField = `${name}EndDate`;
    const start = day(present(f[startField as keyof BookingReportFilter] as string | null), startField, problems);
    const end = day(present(f[endField as keyof BookingReportFilter] as string | null), endField, problems);
    if (start && end && start > end) {
      problems.push({ field: endField, rule: "notBeforeStart", message: `${endField} must not be before ${startField}` });
    }
    // Until the end day's midnight; after 9999-12-31 there is none the database can be sent
    // ("+010000-01-01" is no timestamp it parses), and nothing lies beyond it, so no bound.
    const until = end ? new Date(end.getTime() + DAY_MS) : undefined;
    return { from: start, until: until && until.getUTCFullYear() <= 9999 ? until : undefined };
  };
  const query: ReportQuery = {
    status,
    cancelled: range("cancelled"),
    confirmed: range("confirmed"),
    booked: range("booked"),
    testMode: f.testMode ?? undefined,
    bookingCode: text(f.bookingCode, "bookingCode", problems),
    bookingExternalId: text(f.bookingExternalId, "bookingExternalId", problems),
    externalClientId: text(f.externalClientId, "externalClientId", problems),
    bookingEngineName: text(f.bookingEngineName, "bookingEngineName", problems),
  };
  if (problems.length) throw badInput(`Wrong filter expression: ${problems.map((p) => p.field).join(", ")}`, problems);
  return query;
}

export function checkPage(offset: number, limit: number): void {
  const problems: FieldProblem[] = [];
  if (!Number.isInteger(offset) || offset < 0) problems.push({ field: "offset", rule: "minimum", message: "offset must be 0 or more" });
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) problems.push({ field: "limit", rule: "range", message: `limit must be between 1 and ${MAX_LIMIT}` });
  if (problems.length) throw badInput("Wrong page", problems);
}

export function checkSort(sort: string): ReportSort {
  if (!(SORTS as readonly string[]).includes(sort)) {
    throw badInput(`sort must be one of ${SORTS.join(", ")}`, [{ field: "sort", rule: "enum", message: `sort must be one of ${SORTS.join(", ")}` }]);
  }
  return sort as ReportSort;
}

function day(value: string | undefined, field: string, problems: FieldProblem[]): Date | undefined {
  if (value === undefined) return undefined;
  if (!isCalendarDate(value)) {
    problems.push({ field, rule: "date", message: `${field} must be a date yyyy-MM-dd` });
    return undefined;
  }
  return new Date(`${value}T00:00:00Z`);
}

function text(value: string | null | undefined, field: string, problems: FieldProblem[]): string | undefined {
  const given = present(value);
  if (given !== undefined && given.length > 255) problems.push({ field, rule: "maxLength", message: `${field} has at most 255 characters` });
  return given;
}

/** An export position: the last row's creation time and id, opaque to clients. */
export function encodeCursor(bookedAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([bookedAt.toISOString(), id])).toString("base64url");
}

export function decodeCursor(cursor: string): { bookedAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, string];
    const bookedAt = new Date(at);
    if (typeof id === "string" && isUuid(id) && !Number.isNaN(bookedAt.getTime())) return { bookedAt, id };
  } catch {
    // fall through to the refusal
  }
  throw badInput("after is not a cursor this service handed out", [{ field: "after", rule: "cursor", message: "pass nextCursor of the previous slice" }]);
}
