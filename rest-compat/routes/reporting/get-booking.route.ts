import { toGlobalId } from "../../../core/global-id.js";
import { errorResponse, restRejected } from "../../error-body.js";
import { uuidParameter } from "../../path-ids.js";
import { str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { AVAILABILITY_OPTION_FIELDS } from "../booking-flow/booking-body.js";
import { REPORT_FIELDS, reportDetailBody, reportDetailSchema, type ReportDetailData } from "./report-body.js";

/** GET /reporting/v1/bookings/{id} (spec 2, Get booking details). */
export const getBookingReportRoute: RestRoute<{ bookingReport: ReportDetailData | null }> = {
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
    query RestBookingReport($id: ID!) {
      bookingReport(id: $id) {
        ...RestReport
        partner { legacyResourceId } participantCount activityEndsAt isCancellable cancellationReason
        netPrice { amount currencyCode }
        product { id: legacyResourceId externalId title { text } }
        availabilityOptions { ${AVAILABILITY_OPTION_FIELDS} }
        cancellationPolicy { label duration refundRate }
      }
    }
    ${REPORT_FIELDS}
  `,
  variables: (request) => ({ id: toGlobalId("BookingReport", uuidParameter(request, "id")) }),
  respond: ({ bookingReport }) => {
    if (!bookingReport) throw restRejected("NOT_FOUND", "No booking the caller may report on has this id");
    return reportDetailBody(bookingReport);
  },
};
