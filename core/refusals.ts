import type { GraphQLError } from "graphql";
import { HTTP_STATUS_OF_CODE, serviceError, type ErrorCode, type FieldProblem } from "./errors.js";

/**
 * The one table of refusals: what a caller can cause and correct (docs/graph-design.md,
 * "Mutations and errors as data"). Each refusal's name is REST's `code` and, for those a mutation's
 * payload answers, the graph's `UserErrorCode` value; `code` is the GraphQL error code it is thrown
 * with, which gives its HTTP status (core/errors.ts, HTTP_STATUS_OF_CODE); `errorCode` is the
 * contract's number where the spec gives one (spec 2, Errors). The GraphQL enum, the REST mapping
 * and the table in docs/graph-design.md are all made from this object, and a test holds the
 * document to it.
 *
 * `userError`: the refusal is answered as data by the mutations moved to the graph's design
 * (payloads with `userErrors`), so it is a value of the graph's `UserErrorCode`. The others are
 * still thrown by operations in their earlier shape, and join the enum with their mutations.
 */
export interface Refusal {
  code: ErrorCode;
  errorCode?: number;
  userError?: true;
  description: string;
}

export const REFUSALS = {
  // The service's general refusals.
  NOT_FOUND: { code: "NOT_FOUND", userError: true, description: "What the input names does not exist, or the caller may not see it: the two are not told apart" },
  VALIDATION_FAILED: { code: "BAD_USER_INPUT", userError: true, description: "A value of the input breaks a rule: `field` names it and `rule` says which" },
  ENGINE_SECRETS_KEY_MISSING: {
    code: "CONFLICT",
    userError: true,
    description: "A secret cannot be kept: the service runs in production without ENGINE_SECRETS_KEY. Nothing was saved",
  },

  // The booking flow (spec 2): the contract's numbered refusals first.
  INVALID_AVAILABILITY: { code: "BAD_USER_INPUT", userError: true, errorCode: 9510, description: "The availability id names no availability the caller may use" },
  AVAILABILITY_EXPIRED: { code: "BAD_USER_INPUT", userError: true, errorCode: 9510, description: "The availability is past its time to live: start again with a new one" },
  AVAILABILITY_INCOMPLETE: { code: "BAD_USER_INPUT", userError: true, errorCode: 9510, description: "Every option and bookable quantities must be set before booking" },
  AVAILABILITY_USED: { code: "BAD_USER_INPUT", userError: true, errorCode: 9510, description: "The availability was already booked" },
  LANGUAGE_CHANGE: { code: "BAD_USER_INPUT", userError: true, errorCode: 9520, description: "The flow runs in another language than the request asks for" },
  BOOKING_ALREADY_CONFIRMED: { code: "BAD_USER_INPUT", userError: true, errorCode: 9531, description: "The booking is confirmed already" },
  CURRENCY_CHANGE: { code: "BAD_USER_INPUT", userError: true, errorCode: 9548, description: "The flow runs in another currency: start a new availability for this one" },
  PRICES_CHANGED: { code: "BAD_USER_INPUT", userError: true, errorCode: 9573, description: "Prices changed since the selection: the availability holds the new prices; submit again once they are accepted" },
  BOOKING_ALREADY_CANCELLED: { code: "BAD_USER_INPUT", userError: true, errorCode: 6606, description: "The booking is cancelled already" },
  FORBIDDEN: { code: "FORBIDDEN", errorCode: 6501, description: "The account may not book (the booking scope is missing)" },
  NO_LONGER_AVAILABLE: { code: "NO_LONGER_AVAILABLE", errorCode: 9563, description: "The product is no longer available for the date and options chosen (a 500 by contract)" },
  BOOKING_EXPIRED: { code: "BAD_USER_INPUT", userError: true, errorCode: 6606, description: "The hold ran out before confirmation: the booking expired" },
  // The booking flow's refusals of its own (spec 2 shows none for these steps).
  PRODUCT_NOT_BOOKABLE: { code: "BAD_USER_INPUT", userError: true, description: "The product cannot be booked: deprecated, or without a booking setup or engine" },
  DATE_NOT_AVAILABLE: { code: "BAD_USER_INPUT", userError: true, description: "The date has no places" },
  INVALID_DATE_RANGE: { code: "BAD_USER_INPUT", description: "The dates asked for are not a valid range (order, length, past)" },
  INVALID_OPTION: { code: "BAD_USER_INPUT", userError: true, description: "The option or its value is not one the availability offers" },
  OPTIONS_INCOMPLETE: { code: "BAD_USER_INPUT", userError: true, description: "Options remain to be set before prices" },
  UNSUPPORTED_CURRENCY: { code: "BAD_USER_INPUT", userError: true, description: "The currency is not one the service converts prices to" },
  INVALID_QUANTITIES: { code: "BAD_USER_INPUT", userError: true, description: "The ticket quantities break the product's rules (units, minimum, maximum)" },
  PRICING_INCOMPLETE: { code: "BAD_USER_INPUT", userError: true, description: "Prices must be asked for first: they fix the flow's currency" },
  INVALID_ANSWERS: { code: "BAD_USER_INPUT", userError: true, description: "An answer does not fit its question" },
  QUESTIONS_INCOMPLETE: { code: "BAD_USER_INPUT", userError: true, description: "Required questions are unanswered: confirmation waits for them" },
  BOOKING_NOT_EDITABLE: { code: "BAD_USER_INPUT", userError: true, description: "The booking's status no longer allows this change" },
  BOOKING_REJECTED: { code: "BAD_USER_INPUT", userError: true, description: "The supplier rejected the booking" },
  BOOKING_NOT_CANCELLABLE: { code: "BAD_USER_INPUT", userError: true, description: "No cancellation tier allows cancelling now" },
  INVALID_SETUP: { code: "BAD_USER_INPUT", userError: true, description: "The booking setup breaks a rule (docs/booking-setup.md)" },
  SETUP_NOT_FOR_ENGINE: { code: "BAD_USER_INPUT", userError: true, description: "The product's booking engine takes no booking setup from the service" },
  VOUCHER_LINK_EXPIRED: { code: "GONE", description: "The voucher link is past its expiry: read the booking again for a fresh one" },
  VOUCHER_LINK_INVALID: { code: "FORBIDDEN", description: "The voucher link's signature does not match" },
  // A supplier system (an OCTO engine), at a booking step or an import.
  ENGINE_UNAVAILABLE: { code: "SERVICE_UNAVAILABLE", description: "The supplier's system did not answer: nothing changed, and the same request may be sent again" },
  ENGINE_REFUSED: { code: "SERVICE_UNAVAILABLE", description: "The supplier's system refuses the service's key: retrying will not help until the key is fixed" },

  // Content management (spec 1): who acts for which booking engine.
  INSUFFICIENT_SCOPE: { code: "BAD_USER_INPUT", description: "The access token lacks the catalogue:manage scope content management needs" },
  ACCOUNT_NOT_FOUND: { code: "BAD_USER_INPUT", description: "The caller's account no longer exists" },
  NO_BOOKING_ENGINE: { code: "BAD_USER_INPUT", description: "The caller's account is not set up with a booking engine" },
  MISSING_BOOKING_ENGINE: { code: "BAD_USER_INPUT", userError: true, description: "A PLATFORM_CATALOG_MANAGEMENT caller names the booking engine it acts for" },
  UNKNOWN_BOOKING_ENGINE: { code: "BAD_USER_INPUT", userError: true, description: "The booking engine named does not exist" },
  WRONG_BOOKING_ENGINE: { code: "BAD_USER_INPUT", userError: true, description: "The caller manages another booking engine only" },
  BOOKING_ENGINE_CHANGE: { code: "BAD_USER_INPUT", userError: true, description: "A supplier's booking engine cannot change: create the supplier under the other engine" },
  DUPLICATE_EXTERNAL_ID: { code: "BAD_USER_INPUT", userError: true, description: "The booking engine has a supplier with this externalId already" },
  PRODUCT_EXTERNAL_ID_EXISTS: { code: "BAD_USER_INPUT", userError: true, description: "Another product holds this externalId" },

  // Search, change detection and recommendations (spec 3).
  INVALID_SEARCH: { code: "BAD_USER_INPUT", description: "The Search expression does not parse (docs/search.md)" },
  INVALID_PAGE_NUMBER: { code: "BAD_USER_INPUT", description: "pageNumber is below 1" },
  INVALID_PAGE_SIZE: { code: "BAD_USER_INPUT", description: "resultsPerPage is outside the allowed range" },
  INVALID_SORTING_FIELD: { code: "BAD_USER_INPUT", description: "sortingField is not one the list sorts by" },
  INVALID_SORTING_ORDER: { code: "BAD_USER_INPUT", description: "sortingOrder is neither asc nor desc" },
  INVALID_DATE: { code: "BAD_USER_INPUT", description: "The date is not an ISO 8601 date (YYYY-MM-DD)" },
  DATE_TOO_OLD: { code: "BAD_USER_INPUT", description: "Change detection looks back a limited number of days" },
  DATE_IN_FUTURE: { code: "BAD_USER_INPUT", description: "Change detection cannot start in the future" },
  INVALID_PARAMETER: { code: "BAD_USER_INPUT", description: "A parameter of the top activities request is not valid" },
  INVALID_RECOMMENDATION_REQUEST: { code: "BAD_USER_INPUT", description: "The recommendation request is not valid" },

  // Content import (spec 3, Errors).
  ORGANISATION_REQUIRED: { code: "BAD_USER_INPUT", description: "The import needs an account of an organisation (its commercial model shapes the prices)" },
  PAGE_SIZE_TOO_SMALL: { code: "BAD_USER_INPUT", description: "page[limit] is lower than 1" },
  PAGE_SIZE_TOO_LARGE: { code: "BAD_USER_INPUT", description: "page[limit] exceeds the limit" },
  INVALID_COUNTRY: { code: "BAD_USER_INPUT", description: "A country is not an ISO 3166-1 alpha-2 code" },
  INVALID_LANGUAGE: { code: "BAD_USER_INPUT", description: "A language is not an ISO 639-1 code" },
  MODIFIED_SINCE_OR_CURSOR_REQUIRED: { code: "BAD_USER_INPUT", description: "Neither cursor nor modifiedSince was given" },
  INVALID_MODIFIED_SINCE: { code: "BAD_USER_INPUT", description: "modifiedSince is not an ISO 8601 UTC date-time" },
  MODIFIED_SINCE_TOO_OLD: { code: "BAD_USER_INPUT", description: "modifiedSince is older than the allowed number of days" },
  MODIFIED_SINCE_AFTER_CURSOR: { code: "BAD_USER_INPUT", description: "modifiedSince is newer than the cursor's run" },
  INVALID_CURSOR: { code: "BAD_USER_INPUT", description: "The cursor is not one an import gave" },

  // OCTO engines: registration and import.
  ENGINE_CAPABILITY_MISSING: { code: "BAD_USER_INPUT", userError: true, description: "The supplier system does not offer a capability the service needs (octo/pricing)" },
  ENGINE_VERIFICATION_FAILED: { code: "BAD_USER_INPUT", userError: true, description: "The supplier system did not answer as OCTO, or refused the key given: nothing was saved" },
  ENGINE_KIND_CONFLICT: { code: "CONFLICT", userError: true, description: "A booking engine of another kind has this name" },
  ENGINE_NOT_OCTO: { code: "BAD_USER_INPUT", userError: true, description: "The booking engine is not an OCTO engine: only those are imported" },
  ENGINE_NOT_CONFORMING: { code: "BAD_USER_INPUT", description: "The supplier system answered in a shape OCTO does not describe" },
  IMPORT_RUNNING: { code: "CONFLICT", userError: true, description: "An import of this engine is running: try again when it has finished" },
} as const satisfies Record<string, Refusal>;

export type RefusalCode = keyof typeof REFUSALS;

export const isRefusalCode = (value: unknown): value is RefusalCode => typeof value === "string" && Object.hasOwn(REFUSALS, value);

/**
 * A refusal of the table, thrown: its GraphQL code (and so its HTTP status), its `reason` (REST's
 * `code`), the contract's `errorCode` where there is one, and the fields at fault. The one way the
 * services build a refusal; a name outside the table does not compile.
 */
export function rejected(reason: RefusalCode, message: string, problems: FieldProblem[] = []): GraphQLError {
  const refusal: Refusal = REFUSALS[reason];
  return serviceError(refusal.code, message, {
    reason,
    ...(refusal.errorCode !== undefined ? { errorCode: refusal.errorCode } : {}),
    ...(problems.length ? { problems } : {}),
  });
}

/** The HTTP status REST answers a refusal with. */
export const statusOfRefusal = (code: RefusalCode): number => HTTP_STATUS_OF_CODE[REFUSALS[code].code];

/** The refusals a mutation payload may answer: the values of the graph's UserErrorCode. */
export const USER_ERROR_CODES = (Object.keys(REFUSALS) as RefusalCode[]).filter((code) => (REFUSALS[code] as Refusal).userError);
