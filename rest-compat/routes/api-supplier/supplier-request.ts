import type { FastifyRequest } from "fastify";
import type { FieldProblem } from "../../../core/errors.js";
import { toGlobalId } from "../../../core/global-id.js";
import { engineRequestRefusal } from "../../../subgraphs/catalogue/management.access.js";
import { supplierRefusal } from "../../../subgraphs/catalogue/supplier/supplier.service.js";
import { supplierProblems, type SupplierRequest } from "../../../subgraphs/catalogue/supplier/supplier.rules.js";
import { userErrorsOf } from "../../../subgraphs/common/user.errors.js";
import { pickBySchema } from "../../json-schema.js";
import { oncePerRequest } from "../../once-per-request.js";
import type { RestRoute } from "../../rest-route.js";
import { refusedUnlessEmpty } from "../../user-errors.js";
import { SUPPLIER_PARAMETERS, supplierRequestSchema } from "./supplier-body.js";

/** Spec 1's body, its known fields only. */
const documentOf = (request: FastifyRequest) => pickBySchema(request.body, supplierRequestSchema) as SupplierRequest;

/**
 * The body judged once per request by the service's own rules (supplier.rules.ts, which need no
 * database): only a body they pass can be typed (a country code, a URL, an e-mail address, a
 * telephone number).
 */
const judgement = oncePerRequest((request): FieldProblem[] => supplierProblems(documentOf(request)).list);

interface SupplierTarget {
  me: { roles: string[]; organisation: { bookingEngine: { legacyResourceId: number; name: string } | null } | null };
  bookingEngine?: { legacyResourceId: number } | null;
}

/**
 * A body the rules refuse cannot be sent: the graph is asked what the mutation would have looked
 * at first, so that the answer comes in the mutation's order. The management checks run as the
 * supplier is looked up (403 for a role that never manages content, then the scope, the account,
 * a partner's engine); then the engine the body names (MISSING, UNKNOWN or WRONG_BOOKING_ENGINE,
 * decided by the service's own `engineRequestRefusal`); then the 400 naming every field at fault.
 * An update's unknown supplier comes after the fields in the mutation too, so it is not asked.
 */
export const refusedSupplierBody: NonNullable<RestRoute<never>["otherwise"]> = {
  when: (request) => judgement(request).length > 0,
  operation: /* GraphQL */ `
    query RestSupplierRequestTarget($probe: ID!, $engineId: ID!, $engineNamed: Boolean!) {
      supplier(id: $probe) { id }
      me { roles organisation { bookingEngine { legacyResourceId name } } }
      bookingEngine(id: $engineId) @include(if: $engineNamed) { legacyResourceId }
    }
  `,
  variables: (request) => {
    const { bookingEngine } = documentOf(request);
    const named = typeof bookingEngine === "number";
    return { probe: toGlobalId("Supplier", 0), engineId: toGlobalId("BookingEngine", named ? bookingEngine : 0), engineNamed: named };
  },
  respond: ({ me, bookingEngine }: SupplierTarget, request) => {
    const requestedId = documentOf(request).bookingEngine;
    const ownEngine = me.organisation?.bookingEngine;
    const caller = { isPlatform: me.roles.includes("PLATFORM_CATALOG_MANAGEMENT"), ownEngine: ownEngine ? { id: ownEngine.legacyResourceId, name: ownEngine.name } : null };
    const engineRefusal = engineRequestRefusal(caller, requestedId, Boolean(bookingEngine));
    refusedUnlessEmpty({ userErrors: userErrorsOf(engineRefusal ?? supplierRefusal(judgement(request)))! }, SUPPLIER_PARAMETERS);
    throw new Error("A refused supplier body was not refused");
  },
};

/** The body as the graph's input, for a body the rules passed: the engine by its global id. */
export function supplierInputOfBody(request: FastifyRequest): Record<string, unknown> {
  const { country, supplierContact, bookingEngine, ...fields } = documentOf(request);
  return {
    ...fields,
    countryCode: country,
    ...(supplierContact === undefined ? {} : { contact: supplierContact }),
    ...(bookingEngine === undefined || bookingEngine === null ? {} : { bookingEngineId: toGlobalId("BookingEngine", bookingEngine) }),
  };
}
