import { badInput, type FieldProblem } from "../../../core/errors.js";
import type { BookingReportFilter } from "./booking-report.type.js";

/** How many reports one page holds at most: REST's page[limit] reads 500 at most, an export 5000 a page. */
export const MAX_REPORT_PAGE = 5000;

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

/**
 * The filter's rules that its types do not already hold: each refusal names the filter's field
 * and the rule it broke; all problems at once.
 */
export function reportQuery(filter: BookingReportFilter | null | undefined): ReportQuery {
  const problems: FieldProblem[] = [];
  const f = filter ?? {};
  const range = (name: "cancelledOn" | "confirmedOn" | "bookedOn"): Range => {
    const from = f[name]?.from ? new Date(`${f[name].from}T00:00:00Z`) : undefined;
    const to = f[name]?.to ? new Date(`${f[name].to}T00:00:00Z`) : undefined;
    if (from && to && from > to) problems.push({ field: `${name}.to`, rule: "notBeforeStart", message: `${name}.to must not be before ${name}.from` });
    // Until the end day's midnight; after 9999-12-31 there is none the database can be sent
    // ("+010000-01-01" is no timestamp it parses), and nothing lies beyond it, so no bound.
    const until = to ? new Date(to.getTime() + DAY_MS) : undefined;
    return { from, until: until && until.getUTCFullYear() <= 9999 ? until : undefined };
  };
  const query: ReportQuery = {
    status: f.status ?? undefined,
    cancelled: range("cancelledOn"),
    confirmed: range("confirmedOn"),
    booked: range("bookedOn"),
    testMode: f.isTest ?? undefined,
    bookingCode: text(f.bookingCode, "bookingCode", problems),
    bookingExternalId: text(f.supplierBookingId, "supplierBookingId", problems),
    externalClientId: text(f.externalClientId, "externalClientId", problems),
    bookingEngineName: text(f.bookingEngineName, "bookingEngineName", problems),
  };
  if (problems.length) throw badInput(`Wrong filter: ${problems.map((p) => p.field).join(", ")}`, problems);
  return query;
}

function text(value: string | null | undefined, field: string, problems: FieldProblem[]): string | undefined {
  const given = present(value);
  if (given !== undefined && given.length > 255) problems.push({ field, rule: "maxLength", message: `${field} has at most 255 characters` });
  return given;
}
