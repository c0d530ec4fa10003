import { pickBySchema } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { SUPPLIER_FIELDS, supplierBody, supplierRequestSchema, supplierResponseSchema, type SupplierData } from "./supplier-body.js";

/** POST /api/supplier (spec 1, "Create a supplier"). */
export const createSupplierRoute: RestRoute<{ createSupplier: SupplierData }> = {
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
    mutation RestCreateSupplier($input: SupplierInput!) { createSupplier(input: $input) { ...RestSupplier } }
    ${SUPPLIER_FIELDS}
  `,
  parameters: { input: "" },
  variables: (request) => ({ input: pickBySchema(request.body, supplierRequestSchema) }),
  respond: ({ createSupplier }, _request, reply) => {
    reply.code(201);
    return supplierBody(createSupplier);
  },
};
