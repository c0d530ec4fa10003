import { errorResponse } from "../../error-body.js";
import { arr, int, obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { AVAILABILITY_FIELDS, availabilitySchema, currencyQuery, params, productAvailabilityParams, query, withoutNulls } from "./booking-body.js";

const currency = (request: Parameters<NonNullable<RestRoute<unknown>["variables"]>>[0]) => query<{ currencyCode?: string | null }>(request).currencyCode ?? null;

/** GET /booking-flow/v1/products/{productId}/availabilities/{availabilityId}/prices (spec 2, step 3a). */
export const getPricesRoute: RestRoute<{ priceAvailability: Record<string, unknown> }> = {
  method: "GET",
  url: "/booking-flow/v1/products/:productId/availabilities/:availabilityId/prices",
  schema: {
    operationId: "getPrices",
    summary: "Get prices",
    description:
      "The ticket types in currencyCode (default EUR), which then holds to the end of the flow (another currency later: 400 CURRENCY_CHANGE, 9548). 400 OPTIONS_INCOMPLETE before every option is set.",
    tags: ["Booking flow"],
    params: productAvailabilityParams("availabilityId"),
    querystring: currencyQuery,
    response: { 200: availabilitySchema("The availability with its ticket types, quantities 0"), 404: errorResponse("Unknown product or availability") },
  },
  operation: /* GraphQL */ `
    mutation RestGetPrices($productId: Int!, $availabilityId: String!, $currencyCode: String) {
      priceAvailability(productId: $productId, availabilityId: $availabilityId, currencyCode: $currencyCode) { ...RestAvailability }
    }
    ${AVAILABILITY_FIELDS}
  `,
  variables: (request) => ({ ...params<{ productId: number; availabilityId: string }>(request), currencyCode: currency(request) }),
  respond: ({ priceAvailability }) => withoutNulls(priceAvailability),
};

/** PUT /booking-flow/v1/products/{productId}/availabilities/{availabilityId}/prices (spec 2, step 3b). */
export const setPricesRoute: RestRoute<{ setAvailabilityQuantities: Record<string, unknown> }> = {
  method: "PUT",
  url: "/booking-flow/v1/products/:productId/availabilities/:availabilityId/prices",
  schema: {
    operationId: "setPrices",
    summary: "Set quantities",
    description:
      "Each entry sets the quantity of one unit (value is the new quantity, not a change). Refused with 400 INVALID_QUANTITIES (nothing changes) above a unit's maxQuantity, above maxParticipants, above the places left, or choosing two groups. Minimums and accompaniment ratios leave isPricingStepCompleted false with pricingIssues saying why. totalPrice is the exact total.",
    tags: ["Booking flow"],
    params: productAvailabilityParams("availabilityId"),
    querystring: currencyQuery,
    body: arr(obj({ unitId: str("Unit id"), value: int("Quantity") }, { required: ["unitId", "value"] }), "Quantities"),
    response: { 200: availabilitySchema("The availability with the quantities, limits and prices"), 404: errorResponse("Unknown product or availability") },
  },
  operation: /* GraphQL */ `
    mutation RestSetPrices($productId: Int!, $availabilityId: String!, $currencyCode: String, $quantities: [UnitQuantityInput!]!) {
      setAvailabilityQuantities(productId: $productId, availabilityId: $availabilityId, currencyCode: $currencyCode, quantities: $quantities) { ...RestAvailability }
    }
    ${AVAILABILITY_FIELDS}
  `,
  parameters: { quantities: "" },
  variables: (request) => ({
    ...params<{ productId: number; availabilityId: string }>(request),
    currencyCode: currency(request),
    quantities: (request.body as { unitId: string; value: number }[]).map(({ unitId, value }) => ({ unitId, value })),
  }),
  respond: ({ setAvailabilityQuantities }) => withoutNulls(setAvailabilityQuantities),
};
