import { errorResponse } from "../../error-body.js";
import { obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { refusedUnlessEmpty, USER_ERRORS, type UserErrorData } from "../../user-errors.js";
import { answeredAsUserError, AVAILABILITY_FIELDS, availabilityIdOf, BOOKING_ACCESS, availabilitySchema, params, productAvailabilityParams, restAvailability, type GraphAvailability } from "./booking-body.js";
import { productIdOf } from "../../path-ids.js";
import { refusedBeforeTyping } from "../../refused-before-typing.js";
import { dateRefusal } from "../../../subgraphs/booking/availability/availability.steps.js";

type Payload = { availability: GraphAvailability; userErrors: UserErrorData[] };

/** GET /booking-flow/v1/products/{productId}/availabilities/{date}/options (spec 2, step 2a). */
export const getOptionsRoute: RestRoute<{ createAvailability: Payload }> = {
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
    mutation RestCreateAvailability($input: CreateAvailabilityInput!) { createAvailability(input: $input) { availability { ...RestAvailability } ${USER_ERRORS} } }
    ${AVAILABILITY_FIELDS}
  `,
  parameters: { input: "" },
  // A date that is none cannot be typed: after the access check, the step's own refusal of it.
  otherwise: refusedBeforeTyping((request) => dateRefusal(params<{ date: string }>(request).date), BOOKING_ACCESS, (refusal) => answeredAsUserError(refusal)),
  variables: (request) => ({ input: { productId: productIdOf(request), date: params<{ date: string }>(request).date } }),
  respond: ({ createAvailability }) => restAvailability(refusedUnlessEmpty(createAvailability).availability),
};

/** PUT /booking-flow/v1/products/{productId}/availabilities/{availabilityId}/options (spec 2, step 2b). */
export const setOptionRoute: RestRoute<{ setAvailabilityOption: Payload }> = {
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
    mutation RestSetOption($input: SetAvailabilityOptionInput!) {
      setAvailabilityOption(input: $input) { availability { ...RestAvailability } ${USER_ERRORS} }
    }
    ${AVAILABILITY_FIELDS}
  `,
  parameters: { input: "" },
  variables: (request) => {
    const { optionId, value } = request.body as { optionId: string; value: string };
    return { input: { ...availabilityIdOf(request), optionId, value } };
  },
  respond: ({ setAvailabilityOption }) => restAvailability(refusedUnlessEmpty(setAvailabilityOption).availability),
};
