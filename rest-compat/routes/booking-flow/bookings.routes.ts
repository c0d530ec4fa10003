import { isCurrencyCode } from "../../../core/iso-codes.js";
import { errorResponse, restRejected } from "../../error-body.js";
import { arr, obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import {
  BOOKING_FIELDS,
  bookingIdParams,
  bookingSchema,
  cancellationInformationSchema,
  externalClientId,
  externalClientIdHeader,
  query,
  restBooking,
  withoutNulls,
  bookingIdOf,
  CANCELLATION_FIELDS,
  type GraphBooking,
} from "./booking-body.js";
import { contractCancellation, percentageOfRate, type CancellationData } from "../../../subgraphs/booking/contract.bodies.js";
import { refusedUnlessEmpty, USER_ERRORS, type UserErrorData } from "../../user-errors.js";
import { toGlobalId } from "../../../core/global-id.js";

type BookingData = GraphBooking;
type Payload<K extends string, T> = { [key in K]: T | null } & { userErrors: UserErrorData[] };

/** GET answers null for an id that names no booking: the contract's 404. */
const found = (booking: BookingData | null): BookingData => {
  if (!booking) throw restRejected("NOT_FOUND", "No booking has this id");
  return booking;
};

/**
 * The currency a booking checks against the flow's. A code that is none cannot be typed, nor be
 * the flow's: it is sent as XXX, ISO 4217's code for no currency, which no flow runs in, so the
 * step refuses it with CURRENCY_CHANGE after every check it makes first (a repeated request still
 * answers its booking). An empty parameter checks nothing, as before.
 */
const checkedCurrency = (code: string | null | undefined): string | null => (!code ? null : isCurrencyCode(code) ? code : "XXX");

/** POST /booking-flow/v1/bookings (spec 2, step 4). */
export const createBookingRoute: RestRoute<{ createBooking: Payload<"booking", BookingData> }> = {
  method: "POST",
  url: "/booking-flow/v1/bookings",
  schema: {
    operationId: "createBooking",
    summary: "Create a booking",
    description:
      "Books an availability: 201 with status ON_HOLD and paymentStatus ON_HOLD; the places are held for an hour (holdExpiresAt). The same resellerRef and availability return the same booking. " +
      "resellerRef may come in the body or as a query parameter (both: they must agree). Errors (errorCode): 400 9510 invalid, expired, incomplete or already used availability; 400 9520 another language (Accept-Language) than the flow's; " +
      "400 9531 already confirmed; 400 9548 another currency (currencyCode) than the flow's; 400 9573 prices changed (GET prices shows the new ones; submit again to accept); 400 6606 already cancelled or expired; 403 6501 forbidden; 500 9563 no longer available (for an OCTO engine's product: the supplier refused the hold). For an OCTO engine's product the places are held in the supplier's system under the booking's id, within the limits of a booking its option and departure set; 503 ENGINE_UNAVAILABLE when it cannot be reached: nothing was booked, send the request again; 503 ENGINE_REFUSED when it refuses the service's key: nothing was booked, and sending again helps once the engine is registered again.",
    tags: ["Booking flow"],
    headers: externalClientIdHeader,
    querystring: obj({ resellerRef: str("Alphanumeric, at most 255"), currencyCode: str("Optional check: the flow's currency") }),
    body: obj({ availabilityId: str("Availability id"), resellerRef: str("Alphanumeric, at most 255") }, { required: ["availabilityId"] }),
    response: { 201: bookingSchema("The booking, ON_HOLD"), 500: errorResponse("9563: no longer available (or an internal error)"), 503: errorResponse("ENGINE_UNAVAILABLE: the supplier system did not answer; ENGINE_REFUSED: it refused the service's key. Nothing was booked") },
  },
  operation: /* GraphQL */ `
    mutation RestCreateBooking($input: CreateBookingInput!) { createBooking(input: $input) { booking { ...RestBooking } ${USER_ERRORS} } }
    ${BOOKING_FIELDS}
  `,
  parameters: { input: "" },
  variables: (request) => {
    const body = request.body as { availabilityId: string; resellerRef?: string | null };
    const fromQuery = query<{ resellerRef?: string | null; currencyCode?: string | null }>(request);
    if (body.resellerRef && fromQuery.resellerRef && body.resellerRef !== fromQuery.resellerRef) {
      throw restRejected("VALIDATION_FAILED", "resellerRef differs between the body and the query", [
        { field: "resellerRef", rule: "consistent", message: "give one resellerRef, in the body or the query" },
      ]);
    }
    return {
      input: {
        // A value that is no UUID names no availability: the flow answers INVALID_AVAILABILITY (9510).
        availabilityId: toGlobalId("Availability", body.availabilityId),
        resellerRef: body.resellerRef ?? fromQuery.resellerRef ?? "",
        externalClientId: externalClientId(request),
        currencyCode: checkedCurrency(fromQuery.currencyCode),
      },
    };
  },
  respond: ({ createBooking }, _request, reply) => {
    reply.code(201);
    return restBooking(refusedUnlessEmpty(createBooking).booking!);
  },
};

/** GET /booking-flow/v1/bookings/{bookingId}/questions (spec 2, step 5a). */
export const getQuestionsRoute: RestRoute<{ booking: BookingData | null }> = {
  method: "GET",
  url: "/booking-flow/v1/bookings/:bookingId/questions",
  schema: {
    operationId: "getQuestions",
    summary: "Get questions",
    description: "The booking with its questions: customer, booking and one entry per participant; follow-ups appear in followUpQuestions once their condition holds.",
    tags: ["Booking flow"],
    params: bookingIdParams,
    response: { 200: bookingSchema("The booking with its questions"), 404: errorResponse("Unknown booking") },
  },
  operation: /* GraphQL */ `
    query RestGetQuestions($id: ID!) { booking(id: $id) { ...RestBooking } }
    ${BOOKING_FIELDS}
  `,
  parameters: { id: "bookingId" },
  variables: (request) => ({ id: bookingIdOf(request) }),
  respond: ({ booking }) => restBooking(found(booking)),
};

/** PUT /booking-flow/v1/bookings/{bookingId}/questions (spec 2, step 5b). */
export const setAnswersRoute: RestRoute<{ answerBookingQuestions: Payload<"booking", BookingData> }> = {
  method: "PUT",
  url: "/booking-flow/v1/bookings/:bookingId/questions",
  schema: {
    operationId: "setAnswers",
    summary: "Set answers",
    description:
      "The full list of answers known so far (each call replaces the previous list). Values are validated by dataType and dataFormat; 400 INVALID_ANSWERS lists each offending answer in details and changes nothing. Repeat until isQuestionStepComplete.",
    tags: ["Booking flow"],
    params: bookingIdParams,
    body: arr(obj({ id: str("Question id"), value: { type: ["string", "null"], description: "Answer" } }, { required: ["id", "value"] }), "Answers"),
    response: { 200: bookingSchema("The booking with the answers given"), 404: errorResponse("Unknown booking") },
  },
  operation: /* GraphQL */ `
    mutation RestSetAnswers($input: AnswerBookingQuestionsInput!) { answerBookingQuestions(input: $input) { booking { ...RestBooking } ${USER_ERRORS} } }
    ${BOOKING_FIELDS}
  `,
  // The body is the list itself: its items are `[0].id` to the caller.
  parameters: { input: "", answers: "", questionId: "id" },
  variables: (request) => ({
    input: { bookingId: bookingIdOf(request), answers: (request.body as { id: string; value: string | null }[]).map(({ id, value }) => ({ questionId: id, value })) },
  }),
  respond: ({ answerBookingQuestions }) => restBooking(refusedUnlessEmpty(answerBookingQuestions, { answers: "", questionId: "id" }).booking!),
};

/** POST /booking-flow/v1/bookings/{bookingId}/confirm (spec 2, step 6). */
export const confirmBookingRoute: RestRoute<{ confirmBooking: Payload<"booking", BookingData> }> = {
  method: "POST",
  url: "/booking-flow/v1/bookings/:bookingId/confirm",
  schema: {
    operationId: "confirmBooking",
    summary: "Confirm a booking (after payment)",
    description:
      "Only once options, quantities and every question are complete: status PENDING_CONFIRM, paymentStatus PAID; the supplier's answer follows within seconds (GET booking, or the bookingStatusChanged subscription). Confirming again returns the booking unchanged. " +
      "400 QUESTIONS_INCOMPLETE (also when answers were erased for privacy), 400 BOOKING_EXPIRED / BOOKING_ALREADY_CANCELLED (6606, also when an OCTO supplier no longer holds the places), 400 BOOKING_REJECTED. An OCTO supplier that refuses the confirmation (its hold lapsed) makes the booking REJECTED with paymentStatus REFUND; one that does not answer is asked again, and the booking is refunded only once the supplier certainly did not confirm.",
    tags: ["Booking flow"],
    params: bookingIdParams,
    headers: externalClientIdHeader,
    response: { 200: bookingSchema("The booking, PENDING_CONFIRM and PAID"), 404: errorResponse("Unknown booking") },
  },
  operation: /* GraphQL */ `
    mutation RestConfirmBooking($input: ConfirmBookingInput!) { confirmBooking(input: $input) { booking { ...RestBooking } ${USER_ERRORS} } }
    ${BOOKING_FIELDS}
  `,
  parameters: { input: "" },
  variables: (request) => ({ input: { bookingId: bookingIdOf(request), externalClientId: externalClientId(request) } }),
  respond: ({ confirmBooking }) => restBooking(refusedUnlessEmpty(confirmBooking).booking!),
};

/** GET /booking-flow/v1/bookings/{bookingId} (spec 2, step 7). */
export const getBookingRoute: RestRoute<{ booking: BookingData | null }> = {
  method: "GET",
  url: "/booking-flow/v1/bookings/:bookingId",
  schema: {
    operationId: "getBooking",
    summary: "Get a booking",
    description: "At any time after creation. After confirmation voucherUrl (a signed PDF link, valid 24 hours) and bookingEngineDetails.bookingCode are present.",
    tags: ["Booking flow"],
    params: bookingIdParams,
    response: { 200: bookingSchema("The booking"), 404: errorResponse("Unknown booking") },
  },
  operation: /* GraphQL */ `
    query RestGetBooking($id: ID!) { booking(id: $id) { ...RestBooking } }
    ${BOOKING_FIELDS}
  `,
  parameters: { id: "bookingId" },
  variables: (request) => ({ id: bookingIdOf(request) }),
  respond: ({ booking }) => restBooking(found(booking)),
};

/** DELETE /booking-flow/v1/bookings/{bookingId} (spec 2, Cancel booking). */
interface CancellationInformationData {
  cancellation: CancellationData;
  reason: string;
  requestedAt: string;
  refundRate: string;
}

export const cancelBookingRoute: RestRoute<{ cancelBooking: Payload<"cancellation", CancellationInformationData> }> = {
  method: "DELETE",
  url: "/booking-flow/v1/bookings/:bookingId",
  schema: {
    operationId: "cancelBooking",
    summary: "Cancel a booking",
    description:
      "Allowed while isCancellable: an ON_HOLD booking at any time, a CONFIRMED one before its start while a cancellation tier applies (the most generous applicable tier sets refundPercentage). Status becomes CANCELLED; the places return. " +
      "An optional cancellationReason query parameter is recorded. 400 BOOKING_NOT_CANCELLABLE (also when an OCTO supplier refuses), 400 BOOKING_ALREADY_CANCELLED (6606). A confirmed OCTO booking is cancelled in the supplier's system first; 503 ENGINE_UNAVAILABLE when it cannot be reached: nothing changed, send the request again; 503 ENGINE_REFUSED when it refuses the service's key: nothing changed. The cancellationReason is passed on to the supplier.",
    tags: ["Booking flow"],
    params: bookingIdParams,
    querystring: obj({ cancellationReason: str("Recorded with the cancellation (1 to 500 characters)") }),
    response: { 200: cancellationInformationSchema, 404: errorResponse("Unknown booking"), 503: errorResponse("ENGINE_UNAVAILABLE: the supplier system did not answer; ENGINE_REFUSED: it refused the service's key. Nothing changed") },
  },
  operation: /* GraphQL */ `
    mutation RestCancelBooking($input: CancelBookingInput!) {
      cancelBooking(input: $input) {
        cancellation { cancellation { ${CANCELLATION_FIELDS} } reason requestedAt refundRate }
        ${USER_ERRORS}
      }
    }
  `,
  parameters: { input: "", reason: "cancellationReason" },
  variables: (request) => ({ input: { bookingId: bookingIdOf(request), reason: query<{ cancellationReason?: string | null }>(request).cancellationReason ?? null } }),
  respond: ({ cancelBooking }) => {
    const done = refusedUnlessEmpty(cancelBooking, { reason: "cancellationReason" }).cancellation!;
    return withoutNulls({
      cancellationInformation: {
        cancellation: contractCancellation(done.cancellation),
        cancellationReason: done.reason,
        cancellationRequestDateTime: done.requestedAt,
        refundPercentage: percentageOfRate(done.refundRate),
      },
    });
  },
};
