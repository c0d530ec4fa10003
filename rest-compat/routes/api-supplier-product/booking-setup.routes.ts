import { errorResponse } from "../../error-body.js";
import { freeObject, idParam, keepsOtherMembers, obj } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";

const setupParams = obj({ supplierId: idParam("Supplier id"), productId: idParam("Product id") }, { required: ["supplierId", "productId"] });
const setupSchema = freeObject("The booking setup (docs/booking-setup.md): timeZone, startTimes, capacityPerSlot, participants, currency, fixedFee, options, units, questions, cancellationTiers");
/** The setup as the booking subgraph keeps it: the partner's document (docs/booking-setup.md). */
const storedSetup = { type: "object", description: "The booking setup as kept (docs/booking-setup.md)", ...keepsOtherMembers };
const ids = (request: Parameters<NonNullable<RestRoute<unknown>["variables"]>>[0]) => request.params as { supplierId: number; productId: number };

/** PUT /api/supplier/{supplierId}/product/{productId}/booking-setup (extension): sell the product through the built-in inventory. */
export const putBookingSetupRoute: RestRoute<{ setProductBookingSetup: Record<string, unknown> }> = {
  method: "PUT",
  url: "/api/supplier/:supplierId/product/:productId/booking-setup",
  schema: {
    operationId: "setBookingSetup",
    summary: "Set a product's booking setup (extension)",
    description:
      "Makes the product bookable through the booking flow with the built-in inventory engine: start times (or opening hours) on the open days of its availabilityPeriods, capacity per slot, options, ticket units, questions and cancellation tiers. Replaces any earlier setup; bookings already made keep theirs. 400 INVALID_SETUP with details naming each field.",
    tags: ["Products"],
    params: setupParams,
    body: setupSchema,
    response: { 200: storedSetup, 404: errorResponse("Unknown product of this supplier") },
  },
  operation: /* GraphQL */ `
    mutation RestSetBookingSetup($supplierId: Int!, $productId: Int!, $setup: JSONObject!) { setProductBookingSetup(supplierId: $supplierId, productId: $productId, setup: $setup) }
  `,
  parameters: { setup: "" },
  variables: (request) => ({ ...ids(request), setup: request.body }),
  respond: ({ setProductBookingSetup }) => setProductBookingSetup,
};

/** GET /api/supplier/{supplierId}/product/{productId}/booking-setup (extension). */
export const getBookingSetupRoute: RestRoute<{ productBookingSetup: Record<string, unknown> | null }> = {
  method: "GET",
  url: "/api/supplier/:supplierId/product/:productId/booking-setup",
  schema: {
    operationId: "getBookingSetup",
    summary: "Read a product's booking setup (extension)",
    description: "404 when the product has none.",
    tags: ["Products"],
    params: setupParams,
    response: { 200: storedSetup, 404: errorResponse("Unknown product, or no setup") },
  },
  operation: /* GraphQL */ `
    query RestGetBookingSetup($supplierId: Int!, $productId: Int!) { productBookingSetup(supplierId: $supplierId, productId: $productId) }
  `,
  variables: (request) => ids(request),
  respond: ({ productBookingSetup }, _request, reply) => {
    if (!productBookingSetup) return reply.code(404).send({ status: 404, code: "NOT_FOUND", message: "This product has no booking setup", requestId: String(_request.id) });
    return productBookingSetup;
  },
};

/** DELETE /api/supplier/{supplierId}/product/{productId}/booking-setup (extension). */
export const deleteBookingSetupRoute: RestRoute<{ removeProductBookingSetup: boolean }> = {
  method: "DELETE",
  url: "/api/supplier/:supplierId/product/:productId/booking-setup",
  schema: {
    operationId: "removeBookingSetup",
    summary: "Take a product out of the booking flow (extension)",
    description: "Bookings already made are kept. 404 when the product has no setup.",
    tags: ["Products"],
    params: setupParams,
    response: { 204: { description: "Removed", type: "null" }, 404: errorResponse("Unknown product, or no setup") },
  },
  operation: /* GraphQL */ `
    mutation RestRemoveBookingSetup($supplierId: Int!, $productId: Int!) { removeProductBookingSetup(supplierId: $supplierId, productId: $productId) }
  `,
  variables: (request) => ids(request),
  respond: ({ removeProductBookingSetup }, request, reply) => {
    if (!removeProductBookingSetup) return reply.code(404).send({ status: 404, code: "NOT_FOUND", message: "This product has no booking setup", requestId: String(request.id) });
    return reply.code(204).send();
  },
};
