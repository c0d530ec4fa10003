import type { FastifyRequest } from "fastify";
import { errorResponse } from "../../error-body.js";
import { restErrorFrom } from "../../graphql-errors.js";
import { refusedBeforeTyping } from "../../refused-before-typing.js";
import { dateRangeRefusal } from "../../../subgraphs/booking/availability/availability.steps.js";
import { answer, obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { query } from "./booking-body.js";
import { productIdOf } from "../../path-ids.js";

const productParams = obj({ productId: { type: "integer", minimum: 1, maximum: 2_147_483_647, description: "Product id" } }, { required: ["productId"] });
const datesResponse = answer({ availabilityDates: { type: "array", items: { type: "string" }, description: "YYYY-MM-DD" } }, ["availabilityDates"], "Available dates, in order");
/** Spec 2: results may be cached for up to an hour; five minutes keeps sold-out dates from lingering. */
const CACHE_CONTROL = "private, max-age=300";

const rangeOf = (request: FastifyRequest) => {
  const { startDate, endDate } = query<{ startDate?: string | null; endDate?: string | null }>(request);
  return { startDate: startDate ?? null, endDate: endDate ?? null };
};

/** GET /booking-flow/v1/products/{productId}/availabilities (spec 2, step 1). */
export const availabilityDatesRoute: RestRoute<{ availableDates: string[] }> = {
  method: "GET",
  url: "/booking-flow/v1/products/:productId/availabilities",
  schema: {
    operationId: "getAvailabilityDates",
    summary: "Available dates in a range",
    description:
      "Dates (YYYY-MM-DD) with places between startDate and endDate, both YYYY-MM-DD and inclusive; startDate defaults to today and endDate to 30 days after startDate; a range covers at most 366 days. 404 unknown product; 400 a product not sold through the booking flow.",
    tags: ["Booking flow"],
    params: productParams,
    querystring: obj({ startDate: str("YYYY-MM-DD, default today"), endDate: str("YYYY-MM-DD, default startDate + 30 days") }),
    response: { 200: datesResponse, 404: errorResponse("Unknown product") },
  },
  operation: /* GraphQL */ `
    query RestAvailabilityDates($productId: ID!, $startDate: Date, $endDate: Date) {
      availableDates(productId: $productId, startDate: $startDate, endDate: $endDate)
    }
  `,
  // A range whose dates are none cannot be typed: the step's refusal of them comes after its
  // access and product checks, which the same product's default range runs.
  otherwise: refusedBeforeTyping(
    (request) => dateRangeRefusal(rangeOf(request).startDate, rangeOf(request).endDate),
    {
      operation: /* GraphQL */ `query RestAvailabilityDatesTarget($productId: ID!) { availableDates(productId: $productId) }`,
      variables: (request) => ({ productId: productIdOf(request) }),
    },
    (refusal) => {
      throw restErrorFrom([refusal.toJSON()]);
    },
  ),
  variables: (request) => ({ productId: productIdOf(request), ...rangeOf(request) }),
  respond: ({ availableDates }, _request, reply) => {
    reply.header("cache-control", CACHE_CONTROL);
    return { availabilityDates: availableDates };
  },
};

/** GET /booking-flow/v1/products/{productId}/availabilities/next (spec 2, step 1 alternative). */
export const nextAvailabilityDatesRoute: RestRoute<{ nextAvailableDates: string[] }> = {
  method: "GET",
  url: "/booking-flow/v1/products/:productId/availabilities/next",
  schema: {
    operationId: "getNextAvailabilityDates",
    summary: "Next available dates",
    description: "The first available date within a year and every other available date of that month, to its last day; empty when none within the year.",
    tags: ["Booking flow"],
    params: productParams,
    response: { 200: datesResponse, 404: errorResponse("Unknown product") },
  },
  operation: /* GraphQL */ `
    query RestNextAvailabilityDates($productId: ID!) { nextAvailableDates(productId: $productId) }
  `,
  variables: (request) => ({ productId: productIdOf(request) }),
  respond: ({ nextAvailableDates }, _request, reply) => {
    reply.header("cache-control", CACHE_CONTROL);
    return { availabilityDates: nextAvailableDates };
  },
};
