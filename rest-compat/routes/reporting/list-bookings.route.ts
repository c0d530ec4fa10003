import { errorResponse } from "../../error-body.js";
import type { FastifyRequest } from "fastify";
import { answer, str, type JsonSchema } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { REPORT_CSV_COLUMNS } from "../../../subgraphs/reporting/booking-report/report-csv.js";
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

function filterOf(request: FastifyRequest) {
  const q = request.query as ReportQuery;
  const text = (name: string) => (q[name] === undefined || q[name] === "" ? null : String(q[name]));
  return {
    status: text("status"),
    cancelledStartDate: text("cancelledStartDate"),
    cancelledEndDate: text("cancelledEndDate"),
    confirmedStartDate: text("confirmedStartDate"),
    confirmedEndDate: text("confirmedEndDate"),
    bookedStartDate: text("bookedStartDate"),
    bookedEndDate: text("bookedEndDate"),
    testMode: q.testMode === "true" ? true : q.testMode === "false" ? false : null,
    bookingCode: text("bookingCode"),
    bookingExternalId: text("bookingExternalId"),
    externalClientId: text("externalClientId"),
    bookingEngineName: text("bookingEngineName"),
  };
}

interface ReportPage {
  count: number;
  offset: number;
  limit: number;
  sort: string[];
  items: ReportData[];
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
  operation: /* GraphQL */ `
    query RestBookingReports($filter: BookingReportFilter, $offset: Int!, $limit: Int!, $sort: String!) {
      bookingReports(filter: $filter, offset: $offset, limit: $limit, sort: $sort) { count offset limit sort items { ...RestReport } }
    }
    ${REPORT_FIELDS}
  `,
  parameters: { filter: "", offset: "page[offset]", limit: "page[limit]" },
  variables: (request) => {
    const q = request.query as ReportQuery;
    return { filter: filterOf(request), offset: q["page[offset]"], limit: q["page[limit]"], sort: q.sort };
  },
  respond: ({ bookingReports: page }, request) => ({
    meta: {
      count: page.count,
      page: { count: page.items.length, offset: page.offset, limit: page.limit },
      sort: page.sort,
      links: pageLinks(request, page.count, page.offset, page.limit),
    },
    data: page.items.map(reportBody),
  }),
  csv: {
    filename: () => `bookings-${new Date().toISOString().slice(0, 10)}.csv`,
    async *lines(request, run) {
      const variables = { filter: filterOf(request), sort: (request.query as ReportQuery).sort, first: EXPORT_SLICE };
      const query = /* GraphQL */ `
        query RestBookingReportExport($filter: BookingReportFilter, $after: String, $first: Int!, $sort: String!) {
          bookingReportExport(filter: $filter, after: $after, first: $first, sort: $sort) { csvHeader csv nextCursor }
        }
      `;
      type Slice = { bookingReportExport: { csvHeader: string; csv: string; nextCursor: string | null } };
      // The first slice is read before anything is written, so a refusal still gets its status.
      let slice = (await run<Slice>(query, { ...variables, after: null })).bookingReportExport;
      yield slice.csvHeader;
      for (;;) {
        if (slice.csv) yield slice.csv;
        if (!slice.nextCursor) return;
        slice = (await run<Slice>(query, { ...variables, after: slice.nextCursor })).bookingReportExport;
      }
    },
  },
};
