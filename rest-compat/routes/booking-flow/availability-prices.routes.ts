import { errorResponse } from "../../error-body.js";
import { arr, int, obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { refusedUnlessEmpty, USER_ERRORS, type UserErrorData } from "../../user-errors.js";
import { AVAILABILITY_FIELDS, availabilityIdOf, availabilitySchema, currencyOf, currencyQuery, malformedCurrency, productAvailabilityParams, restAvailability, type GraphAvailability } from "./booking-body.js";

type Payload = { availability: GraphAvailability; userErrors: UserErrorData[] };

/** GET /booking-flow/v1/products/{productId}/availabilities/{availabilityId}/prices (spec 2, step 3a). */
export const getPricesRoute: RestRoute<{ priceAvailability: Payload }> = {
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
    mutation RestGetPrices($input: PriceAvailabilityInput!) {
      priceAvailability(input: $input) { availability { ...RestAvailability } ${USER_ERRORS} }
    }
    ${AVAILABILITY_FIELDS}
  `,
  parameters: { input: "" },
  otherwise: malformedCurrency,
  variables: (request) => ({ input: { ...availabilityIdOf(request), currencyCode: currencyOf(request) } }),
  respond: ({ priceAvailability }) => restAvailability(refusedUnlessEmpty(priceAvailability).availability),
};

/** PUT /booking-flow/v1/products/{productId}/availabilities/{availabilityId}/prices (spec 2, step 3b). */
export const setPricesRoute: RestRoute<{ setAvailabilityQuantities: Payload }> = {
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
    mutation RestSetPrices($input: SetAvailabilityQuantitiesInput!) {
      setAvailabilityQuantities(input: $input) { availability { ...RestAvailability } ${USER_ERRORS} }
    }
    ${AVAILABILITY_FIELDS}
  `,
  // The body is the list itself: its items are `[0].value` to the caller.
  parameters: { input: "", quantities: "", quantity: "value" },
  otherwise: malformedCurrency,
  variables: (request) => ({
    input: {
      ...availabilityIdOf(request),
      currencyCode: currencyOf(request),
      quantities: (request.body as { unitId: string; value: number }[]).map(({ unitId, value }) => ({ unitId, quantity: value })),
    },
  }),
  respond: ({ setAvailabilityQuantities }) => restAvailability(refusedUnlessEmpty(setAvailabilityQuantities, { quantities: "", quantity: "value" }).availability),
};
