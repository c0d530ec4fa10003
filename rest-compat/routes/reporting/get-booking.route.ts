import { errorResponse } from "../../error-body.js";
import { str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { AVAILABILITY_OPTION_FIELDS } from "../booking-flow/booking-body.js";
import { REPORT_FIELDS, reportDetailBody, reportDetailSchema, type ReportDetailData } from "./report-body.js";

/** GET /reporting/v1/bookings/{id} (spec 2, Get booking details). */
export const getBookingReportRoute: RestRoute<{ bookingReport: ReportDetailData }> = {
  method: "GET",
  url: "/reporting/v1/bookings/:id",
  schema: {
    operationId: "getBookingReport",
    summary: "Get booking details (reporting)",
    description: "The detail record: price gross and net, participants, activity start and end, product, selected options and cancellation information. 400 for an id that is not a UUID; 404 for an unknown booking or another organisation's.",
    tags: ["Reporting"],
    params: { type: "object", properties: { id: str("Booking id (UUID)") }, required: ["id"] },
    response: { 200: reportDetailSchema, 404: errorResponse("Booking not found") },
  },
  operation: /* GraphQL */ `
    query RestBookingReport($id: String!) {
      bookingReport(id: $id) {
        ...RestReport
        partnerId paxBooked activityEndDate isCancellable cancellationReason
        price { gross net currency }
        product { id externalId title { text } }
        availabilityOptions { ${AVAILABILITY_OPTION_FIELDS} }
        cancellationPolicy { label duration refundRate }
      }
    }
    ${REPORT_FIELDS}
  `,
  variables: (request) => ({ id: (request.params as { id: string }).id }),
  respond: ({ bookingReport }) => reportDetailBody(bookingReport),
};
