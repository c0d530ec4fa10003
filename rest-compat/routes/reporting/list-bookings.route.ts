import { isCalendarDate } from "../../../core/calendar-date.js";
import type { FieldProblem } from "../../../core/errors.js";
import { offsetCursor } from "../../../subgraphs/common/relay/relay.connection.js";
import { errorResponse, restRejected } from "../../error-body.js";
import type { FastifyRequest } from "fastify";
import { answer, str, type JsonSchema } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { REPORT_CSV_COLUMNS } from "../../../subgraphs/reporting/booking-report/booking-report.csv.js";
import { pageLinks, REPORT_FIELDS, reportBody, reportSchema, type ReportData } from "./report-body.js";

const STATUSES = ["PENDING_CONFIRM", "CONFIRMED", "REJECTED", "CANCELLED", "REDEEMED"];
const date = (description: string): JsonSchema => str(`${description}; yyyy-MM-dd, a UTC day, included`);

/** Spec 2, List bookings: every documented filter; an empty value means "no filter". Unknown parameters are refused. */
const reportQuerySchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    status: { type: "string", enum: ["", ...STATUSES], description: STATUSES.join(", ") },
    cancelledStartDate: date("Cancelled from"),
    cancelledEndDate: date("Cancelled until"),
    confirmedStartDate: date("Confirmed from"),
    confirmedEndDate: date("Confirmed until"),
    bookedStartDate: date("Booked from"),
    bookedEndDate: date("Booked until"),
    testMode: { type: "string", enum: ["true", "false", ""], description: "true, false or empty (both)" },
    bookingCode: str("Supplier-friendly code"),
    bookingExternalId: str("The supplier's booking id"),
    externalClientId: str("Client identifier"),
    bookingEngineName: str("Booking engine (supplier system)"),
    "page[offset]": { type: "integer", minimum: 0, maximum: 2_147_483_647, default: 0, description: "Default 0" },
    "page[limit]": { type: "integer", minimum: 1, maximum: 500, default: 100, description: "Default 100, at most 500" },
    sort: { type: "string", enum: ["bookedAt", "-bookedAt"], default: "bookedAt", description: "Extension: bookedAt (default, oldest first) or -bookedAt" },
  },
};

type ReportQuery = Record<string, string | number | undefined>;

/** The graph's filter fields a REST parameter fills, by the parameter's name: a refusal names the parameter. */
const FILTER_PARAMETERS: Record<string, string> = {
  "bookedOn.from": "bookedStartDate",
  "bookedOn.to": "bookedEndDate",
  "confirmedOn.from": "confirmedStartDate",
  "confirmedOn.to": "confirmedEndDate",
  "cancelledOn.from": "cancelledStartDate",
  "cancelledOn.to": "cancelledEndDate",
  supplierBookingId: "bookingExternalId",
};

/**
 * Spec 2's filter parameters as the graph's typed filter; an empty value means "no filter". The
 * dates are checked here, all at once, since the graph's Date scalar refuses a bad one before
 * any rule could name it.
 */
function filterOf(request: FastifyRequest) {
  const q = request.query as ReportQuery;
  const text = (name: string) => (q[name] === undefined || q[name] === "" ? null : String(q[name]));
  const problems: FieldProblem[] = [];
  const day = (name: string) => {
    const value = text(name);
    if (value !== null && !isCalendarDate(value)) problems.push({ field: name, rule: "date", message: `${name} must be a date yyyy-MM-dd` });
    return value;
  };
  const range = (from: string, to: string) => {
    const [start, end] = [day(from), day(to)];
    return start === null && end === null ? null : { from: start, to: end };
  };
  const filter = {
    status: text("status"),
    bookedOn: range("bookedStartDate", "bookedEndDate"),
    confirmedOn: range("confirmedStartDate", "confirmedEndDate"),
    cancelledOn: range("cancelledStartDate", "cancelledEndDate"),
    isTest: q.testMode === "true" ? true : q.testMode === "false" ? false : null,
    bookingCode: text("bookingCode"),
    supplierBookingId: text("bookingExternalId"),
    externalClientId: text("externalClientId"),
    bookingEngineName: text("bookingEngineName"),
  };
  if (problems.length) throw restRejected("VALIDATION_FAILED", `Wrong filter expression: ${problems.map((p) => p.field).join(", ")}`, problems);
  return filter;
}

interface ReportPage {
  nodes: ReportData[];
  totalCount: { count: number };
}

const listSchema: JsonSchema = answer(
  {
    meta: answer(
      {
        count: { type: "integer", description: "Every booking matching the filters" },
        page: answer({ count: { type: "integer" }, offset: { type: "integer" }, limit: { type: "integer" } }, ["count", "offset", "limit"]),
        sort: { type: "array", items: { type: "string" } },
        links: answer({ self: str("This page"), next: str("Empty on the last page"), last: str("The last page") }, ["self", "next", "last"]),
      },
      ["count", "page", "sort", "links"],
    ),
    data: { type: "array", items: reportSchema },
  },
  ["meta", "data"],
);

/** Rows per operation of a CSV export: each slice crosses the graph as one string. */
const EXPORT_SLICE = 5000;

/** GET /reporting/v1/bookings (spec 2, List bookings); `Accept: text/csv` streams every matching row. */
export const listBookingReportsRoute: RestRoute<{ bookingReports: ReportPage }> = {
  method: "GET",
  url: "/reporting/v1/bookings",
  schema: {
    operationId: "listBookingReports",
    summary: "List bookings (reporting)",
    description:
      "The caller's bookings from PENDING_CONFIRM on (a consumer: its organisation's; platform roles: all), ordered by creation. Date filters are UTC days, both ends included. " +
      "A wrong filter expression is a 400 whose details name the filter. With `Accept: text/csv` the same filters stream every matching row as CSV (RFC 4180, one header row; page[offset] and page[limit] are then ignored).",
    tags: ["Reporting"],
    querystring: reportQuerySchema,
    response: {
      200: {
        description: "A page of reports (JSON), or every matching report as CSV",
        content: {
          "application/json": { schema: listSchema },
          "text/csv": { schema: { type: "string", description: `Header row: ${REPORT_CSV_COLUMNS.join(",")}` } },
        },
      },
      406: errorResponse("Accept names neither application/json nor text/csv"),
    },
  },
  // A numbered page is the connection read after an offset cursor; the count is its totalCount.
  operation: /* GraphQL */ `
    query RestBookingReports($filter: BookingReportFilter, $orderBy: BookingReportOrder, $first: Int!, $after: String) {
      bookingReports(filter: $filter, orderBy: $orderBy, first: $first, after: $after) { nodes { ...RestReport } totalCount { count } }
    }
    ${REPORT_FIELDS}
  `,
  parameters: { ...FILTER_PARAMETERS, filter: "", first: "page[limit]", after: "page[offset]" },
  variables: (request) => {
    const q = request.query as ReportQuery;
    const offset = Number(q["page[offset]"]);
    return { filter: filterOf(request), orderBy: orderOf(request), first: q["page[limit]"], after: offset > 0 ? offsetCursor(offset) : null };
  },
  respond: ({ bookingReports: page }, request) => {
    const q = request.query as ReportQuery;
    const [offset, limit] = [Number(q["page[offset]"]), Number(q["page[limit]"])];
    return {
      meta: {
        count: page.totalCount.count,
        page: { count: page.nodes.length, offset, limit },
        sort: [q.sort],
        links: pageLinks(request, page.totalCount.count, offset, limit),
      },
      data: page.nodes.map(reportBody),
    };
  },
  csv: {
    filename: () => `bookings-${new Date().toISOString().slice(0, 10)}.csv`,
    async *lines(request, run) {
      const variables = { filter: filterOf(request), orderBy: orderOf(request), first: EXPORT_SLICE };
      const query = /* GraphQL */ `
        query RestBookingReportExport($filter: BookingReportFilter, $orderBy: BookingReportOrder, $after: String, $first: Int!) {
          bookingReports(filter: $filter, orderBy: $orderBy, after: $after, first: $first) { csvHeader csv pageInfo { hasNextPage endCursor } }
        }
      `;
      type Slice = { bookingReports: { csvHeader: string; csv: string; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };
      // The first slice is read before anything is written, so a refusal still gets its status.
      let slice = (await run<Slice>(query, { ...variables, after: null })).bookingReports;
      yield slice.csvHeader;
      for (;;) {
        if (slice.csv) yield slice.csv;
        if (!slice.pageInfo.hasNextPage) return;
        slice = (await run<Slice>(query, { ...variables, after: slice.pageInfo.endCursor })).bookingReports;
      }
    },
  },
};

/** The extension's `sort` (bookedAt, -bookedAt) as the graph's order. */
const orderOf = (request: FastifyRequest) => ({ field: "BOOKED_AT", direction: (request.query as ReportQuery).sort === "-bookedAt" ? "DESC" : "ASC" });
