import type { GraphQLError } from "graphql";
import { EngineRefusal, TransientEngineError } from "./engines/booking-engine.js";
import { serviceError, type ErrorCode, type FieldProblem } from "../../core/errors.js";

/**
 * Refusals of the booking flow. Each carries a stable `reason` (REST `code`) and, where the
 * contract documents one, its numeric `errorCode`; the GraphQL code gives the HTTP status
 * (spec 2, Errors: 9563 is a 500 by contract, 6501 a 403, the others 400).
 */
const refusals = {
  INVALID_AVAILABILITY: { errorCode: 9510, code: "BAD_USER_INPUT" },
  AVAILABILITY_EXPIRED: { errorCode: 9510, code: "BAD_USER_INPUT" },
  AVAILABILITY_INCOMPLETE: { errorCode: 9510, code: "BAD_USER_INPUT" },
  AVAILABILITY_USED: { errorCode: 9510, code: "BAD_USER_INPUT" },
  LANGUAGE_CHANGE: { errorCode: 9520, code: "BAD_USER_INPUT" },
  BOOKING_ALREADY_CONFIRMED: { errorCode: 9531, code: "BAD_USER_INPUT" },
  CURRENCY_CHANGE: { errorCode: 9548, code: "BAD_USER_INPUT" },
  PRICES_CHANGED: { errorCode: 9573, code: "BAD_USER_INPUT" },
  BOOKING_ALREADY_CANCELLED: { errorCode: 6606, code: "BAD_USER_INPUT" },
  FORBIDDEN: { errorCode: 6501, code: "FORBIDDEN" },
  NO_LONGER_AVAILABLE: { errorCode: 9563, code: "NO_LONGER_AVAILABLE" },
  // Steps other than creation: codes of our own (spec: "not shown").
  PRODUCT_NOT_BOOKABLE: { code: "BAD_USER_INPUT" },
  DATE_NOT_AVAILABLE: { code: "BAD_USER_INPUT" },
  INVALID_DATE_RANGE: { code: "BAD_USER_INPUT" },
  INVALID_OPTION: { code: "BAD_USER_INPUT" },
  OPTIONS_INCOMPLETE: { code: "BAD_USER_INPUT" },
  UNSUPPORTED_CURRENCY: { code: "BAD_USER_INPUT" },
  INVALID_QUANTITIES: { code: "BAD_USER_INPUT" },
  PRICING_INCOMPLETE: { code: "BAD_USER_INPUT" },
  INVALID_ANSWERS: { code: "BAD_USER_INPUT" },
  QUESTIONS_INCOMPLETE: { code: "BAD_USER_INPUT" },
  BOOKING_NOT_EDITABLE: { code: "BAD_USER_INPUT" },
  BOOKING_EXPIRED: { errorCode: 6606, code: "BAD_USER_INPUT" },
  BOOKING_REJECTED: { code: "BAD_USER_INPUT" },
  BOOKING_NOT_CANCELLABLE: { code: "BAD_USER_INPUT" },
  INVALID_SETUP: { code: "BAD_USER_INPUT" },
  SETUP_NOT_FOR_ENGINE: { code: "BAD_USER_INPUT" },
  VOUCHER_LINK_EXPIRED: { code: "GONE" },
  VOUCHER_LINK_INVALID: { code: "FORBIDDEN" },
  ENGINE_UNAVAILABLE: { code: "SERVICE_UNAVAILABLE" },
  // The supplier refuses the service's key: 503 as well (the product is sold, our connection to its
  // supplier is not), with its own code since sending again will not help until the key is fixed.
  ENGINE_REFUSED: { code: "SERVICE_UNAVAILABLE" },
} as const satisfies Record<string, { errorCode?: number; code: ErrorCode }>;

export type BookingRefusal = keyof typeof refusals;

export function bookingRefusal(reason: BookingRefusal, message: string, problems: FieldProblem[] = []): GraphQLError {
  const refusal: { errorCode?: number; code: ErrorCode } = refusals[reason];
  return serviceError(refusal.code, message, {
    reason,
    ...(refusal.errorCode !== undefined ? { errorCode: refusal.errorCode } : {}),
    ...(problems.length ? { problems } : {}),
  });
}

/** A booking engine's failure as the flow's refusal: the engine's own, or ENGINE_UNAVAILABLE (503) for one that may pass; anything else as it is. */
export function asRefusal(error: unknown): unknown {
  if (error instanceof EngineRefusal) return bookingRefusal(error.reason, error.message, error.problems);
  if (error instanceof TransientEngineError) return bookingRefusal("ENGINE_UNAVAILABLE", `${error.message}. Nothing was changed: try again shortly`);
  return error;
}

/** Runs a call to a booking engine, answering its failures as refusals. */
export async function viaEngine<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw asRefusal(error);
  }
}
