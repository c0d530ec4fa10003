import type { RestRoute } from "../../rest-route.js";
import { refusedUnlessEmpty, USER_ERRORS, type UserErrorData } from "../../user-errors.js";
import { refusedSupplierBody, supplierInputOfBody } from "./supplier-request.js";
import { SUPPLIER_FIELDS, SUPPLIER_PARAMETERS, supplierBody, supplierRequestSchema, supplierResponseSchema, type SupplierData } from "./supplier-body.js";

/** POST /api/supplier (spec 1, "Create a supplier"). */
export const createSupplierRoute: RestRoute<{ createSupplier: { supplier: SupplierData | null; userErrors: UserErrorData[] } }> = {
  method: "POST",
  url: "/api/supplier",
  schema: {
    operationId: "createSupplier",
    summary: "Create a supplier",
    description: "201 with the supplier as returned. 400 for an invalid field, a missing booking engine (PLATFORM_CATALOG_MANAGEMENT callers) or an externalId already used in the booking engine.",
    tags: ["Suppliers"],
    body: supplierRequestSchema,
    response: { 201: supplierResponseSchema },
  },
  operation: /* GraphQL */ `
    mutation RestCreateSupplier($input: CreateSupplierInput!) { createSupplier(input: $input) { supplier { ...RestSupplier } ${USER_ERRORS} } }
    ${SUPPLIER_FIELDS}
  `,
  parameters: SUPPLIER_PARAMETERS,
  otherwise: refusedSupplierBody,
  variables: (request) => ({ input: supplierInputOfBody(request) }),
  respond: ({ createSupplier }, _request, reply) => {
    reply.code(201);
    return supplierBody(refusedUnlessEmpty(createSupplier, SUPPLIER_PARAMETERS).supplier!);
  },
};
