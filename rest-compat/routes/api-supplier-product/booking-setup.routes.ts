import type { FastifyRequest } from "fastify";
import { parseBookingSetup } from "../../../subgraphs/booking/engines/inventory/booking-setup.schema.js";
import type { BookingSetupInput } from "../../../subgraphs/booking/booking-setup/booking-setup.type.js";
import { setupDocumentOf, typedSetupOf, typedSetupOfAnswer } from "../../../subgraphs/booking/booking-setup/booking-setup.document.js";
import { errorResponse, restRejected } from "../../error-body.js";
import { oncePerRequest } from "../../once-per-request.js";
import { freeObject, idParam, keepsOtherMembers, obj } from "../../json-schema.js";
import { productIdOf, supplierIdOf } from "../../path-ids.js";
import type { RestRoute } from "../../rest-route.js";
import { refusedUnlessEmpty, USER_ERRORS, type UserErrorData } from "../../user-errors.js";

const setupParams = obj({ supplierId: idParam("Supplier id"), productId: idParam("Product id") }, { required: ["supplierId", "productId"] });
const setupSchema = freeObject("The booking setup (docs/booking-setup.md): timeZone, startTimes, capacityPerSlot, participants, currency, fixedFee, options, units, questions, cancellationTiers");
/** The setup as the booking subgraph keeps it: the partner's document (docs/booking-setup.md). */
const storedSetup = { type: "object", description: "The booking setup as kept (docs/booking-setup.md)", ...keepsOtherMembers };

/** The product a path names, under the supplier it names (another supplier's product is not found). */
const addressOf = (request: FastifyRequest) => ({ productId: productIdOf(request), supplierId: supplierIdOf(request) });

const TEXT = "text translations { language text }";
const CHOICE = `key label { ${TEXT} }`;
const QUESTION = `key question { ${TEXT} } dataType dataFormat choices { ${CHOICE} } followUpOf { question equals }`;

/** The whole typed setup: REST answers the document it stands for. */
const SETUP_FIELDS = /* GraphQL */ `
  fragment RestBookingSetup on ProductBookingSetup {
    setup {
      timeZone startTimes capacityPerSlot minParticipants maxParticipants currency fixedFee
      options { key label { ${TEXT} } dataType choices { ${CHOICE} } shownWhen { option equals } }
      units {
        key label { ${TEXT} } description { ${TEXT} } minAge maxAge unitPriceType price minQuantity maxQuantity
        accompaniedBy maxPerCompanion paxCount shownWhen { option equals }
      }
      questions {
        customer { ${QUESTION} }
        booking { ${QUESTION} }
        participant { ${QUESTION} }
      }
      cancellationTiers { label { ${TEXT} } duration refundRate }
      leadTravellerName confirmationDelaySeconds bookingHorizonDays
    }
  }
`;

type SetupData = { setup: Parameters<typeof typedSetupOfAnswer>[0] | null };
const documentOf = (setup: NonNullable<SetupData["setup"]>) => setupDocumentOf(typedSetupOfAnswer(setup) as unknown as BookingSetupInput).document;
const noSetup = (request: FastifyRequest) => restRejected("NOT_FOUND", `Product ${(request.params as { productId: number }).productId} of this supplier has no booking setup`);
const unknownProduct = (request: FastifyRequest) => restRejected("NOT_FOUND", `Product ${(request.params as { productId: number }).productId} of supplier ${(request.params as { supplierId: number }).supplierId} not found`);

/** The body judged once per request: whether the mutation can carry it, and its faults when not. */
const judgement = oncePerRequest((request) => parseBookingSetup(request.body));

/** PUT /api/supplier/{supplierId}/product/{productId}/booking-setup (extension): sell the product through the built-in inventory. */
export const putBookingSetupRoute: RestRoute<{ setProductBookingSetup: { productBookingSetup: SetupData | null; userErrors: UserErrorData[] } }> = {
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
    mutation RestSetBookingSetup($input: SetProductBookingSetupInput!) {
      setProductBookingSetup(input: $input) { productBookingSetup { ...RestBookingSetup } ${USER_ERRORS} }
    }
    ${SETUP_FIELDS}
  `,
  // The body's faults are named under `setup` (`setup.units.0.price`), as the graph's paths are.
  variables: (request) => ({ input: { ...addressOf(request), setup: typedSetupOf(judgement(request).setup!) } }),
  respond: ({ setProductBookingSetup }) => documentOf(refusedUnlessEmpty(setProductBookingSetup, (path) => path.slice(1).join(".")).productBookingSetup!.setup!),
  // A body that is no valid setup cannot be typed: the graph is asked what the path names, so that
  // an unknown product is a 404 and one sold by its supplier's own system SETUP_NOT_FOR_ENGINE,
  // whatever the body, as through the mutation.
  otherwise: {
    when: (request) => judgement(request).problems !== undefined,
    operation: /* GraphQL */ `
      query RestBookingSetupTarget($productId: ID!, $supplierId: ID) { productBookingSetup(productId: $productId, supplierId: $supplierId) { bookingEngineKind } }
    `,
    variables: addressOf,
    respond: ({ productBookingSetup }: { productBookingSetup: { bookingEngineKind: string } | null }, request) => {
      if (!productBookingSetup) throw unknownProduct(request);
      if (productBookingSetup.bookingEngineKind !== "INVENTORY") {
        throw restRejected("SETUP_NOT_FOR_ENGINE", `The product is booked in its supplier's own system (a ${productBookingSetup.bookingEngineKind} engine); booking setups are for the built-in inventory`);
      }
      const problems = judgement(request).problems!;
      throw restRejected("INVALID_SETUP", `Invalid booking setup: ${problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`, problems);
    },
  },
};

/** GET /api/supplier/{supplierId}/product/{productId}/booking-setup (extension). */
export const getBookingSetupRoute: RestRoute<{ productBookingSetup: SetupData | null }> = {
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
    query RestGetBookingSetup($productId: ID!, $supplierId: ID) { productBookingSetup(productId: $productId, supplierId: $supplierId) { ...RestBookingSetup } }
    ${SETUP_FIELDS}
  `,
  variables: addressOf,
  respond: ({ productBookingSetup }, request) => {
    if (!productBookingSetup) throw unknownProduct(request);
    if (!productBookingSetup.setup) throw noSetup(request);
    return documentOf(productBookingSetup.setup);
  },
};

/** DELETE /api/supplier/{supplierId}/product/{productId}/booking-setup (extension). */
export const deleteBookingSetupRoute: RestRoute<{ removeProductBookingSetup: { userErrors: UserErrorData[] } }> = {
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
    mutation RestRemoveBookingSetup($input: RemoveProductBookingSetupInput!) { removeProductBookingSetup(input: $input) { ${USER_ERRORS} } }
  `,
  variables: (request) => ({ input: addressOf(request) }),
  respond: ({ removeProductBookingSetup }, _request, reply) => {
    refusedUnlessEmpty(removeProductBookingSetup);
    return reply.code(204).send();
  },
};
