import { errorResponse } from "../../error-body.js";
import { obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { AVAILABILITY_FIELDS, availabilitySchema, params, productAvailabilityParams, withoutNulls } from "./booking-body.js";

/** GET /booking-flow/v1/products/{productId}/availabilities/{date}/options (spec 2, step 2a). */
export const getOptionsRoute: RestRoute<{ createAvailability: Record<string, unknown> }> = {
  method: "GET",
  url: "/booking-flow/v1/products/:productId/availabilities/:date/options",
  schema: {
    operationId: "getOptions",
    summary: "Get options (creates the availability)",
    description:
      "Creates an availability for the date and returns it with the first option level. A date with several start times offers the start time as the first option. The availability can be worked on for one hour. 400 DATE_NOT_AVAILABLE when the date has no places.",
    tags: ["Booking flow"],
    params: productAvailabilityParams("date"),
    response: { 200: availabilitySchema("The new availability with the first option level"), 404: errorResponse("Unknown product or availability") },
  },
  operation: /* GraphQL */ `
    mutation RestCreateAvailability($productId: Int!, $date: String!) { createAvailability(productId: $productId, date: $date) { ...RestAvailability } }
    ${AVAILABILITY_FIELDS}
  `,
  variables: (request) => params<{ productId: number; date: string }>(request),
  respond: ({ createAvailability }) => withoutNulls(createAvailability),
};

/** PUT /booking-flow/v1/products/{productId}/availabilities/{availabilityId}/options (spec 2, step 2b). */
export const setOptionRoute: RestRoute<{ setAvailabilityOption: Record<string, unknown> }> = {
  method: "PUT",
  url: "/booking-flow/v1/products/:productId/availabilities/:availabilityId/options",
  schema: {
    operationId: "setOption",
    summary: "Set an option",
    description:
      "Sets one option (one call per option): value is a choice key (OPTIONS), text (TEXT) or true/false (BOOLEAN). Returns the availability with the next level, if any. 400 INVALID_OPTION; 400 AVAILABILITY_EXPIRED (9510) after an hour.",
    tags: ["Booking flow"],
    params: productAvailabilityParams("availabilityId"),
    body: obj({ optionId: str("Option id"), value: str("Choice key, text or true/false") }, { required: ["optionId", "value"] }),
    response: { 200: availabilitySchema("The availability with the option set and the next level, if any"), 404: errorResponse("Unknown product or availability") },
  },
  operation: /* GraphQL */ `
    mutation RestSetOption($productId: Int!, $availabilityId: String!, $optionId: String!, $value: String!) {
      setAvailabilityOption(productId: $productId, availabilityId: $availabilityId, optionId: $optionId, value: $value) { ...RestAvailability }
    }
    ${AVAILABILITY_FIELDS}
  `,
  variables: (request) => ({ ...params<{ productId: number; availabilityId: string }>(request), ...(request.body as { optionId: string; value: string }) }),
  respond: ({ setAvailabilityOption }) => withoutNulls(setAvailabilityOption),
};
