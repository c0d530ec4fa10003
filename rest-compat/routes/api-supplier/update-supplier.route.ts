import { errorResponse } from "../../error-body.js";
import { pickBySchema } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { SUPPLIER_FIELDS, supplierBody, supplierIdParams, supplierRequestSchema, supplierResponseSchema, type SupplierData } from "./supplier-body.js";

/** POST /api/supplier/{supplierId} (spec 1, "Update a supplier"): the body replaces the supplier's fields. */
export const updateSupplierRoute: RestRoute<{ updateSupplier: SupplierData }> = {
  method: "POST",
  url: "/api/supplier/:supplierId",
  schema: {
    operationId: "updateSupplier",
    summary: "Update a supplier",
    description: "Replaces every field with the body (absent optional fields become unset); updateDate changes. 400 missing booking engine; 404 unknown supplier.",
    tags: ["Suppliers"],
    params: supplierIdParams,
    body: supplierRequestSchema,
    response: { 200: supplierResponseSchema, 404: errorResponse("Unknown or deleted supplier") },
  },
  operation: /* GraphQL */ `
    mutation RestUpdateSupplier($id: Int!, $input: SupplierInput!) { updateSupplier(id: $id, input: $input) { ...RestSupplier } }
    ${SUPPLIER_FIELDS}
  `,
  parameters: { id: "supplierId", input: "" },
  variables: (request) => ({ id: (request.params as { supplierId: number }).supplierId, input: pickBySchema(request.body, supplierRequestSchema) }),
  respond: ({ updateSupplier }) => supplierBody(updateSupplier),
};
