import { errorResponse } from "../../error-body.js";
import type { RestRoute } from "../../rest-route.js";
import { refusedUnlessEmpty, USER_ERRORS, type UserErrorData } from "../../user-errors.js";
import { refusedSupplierBody, supplierInputOfBody } from "./supplier-request.js";
import { SUPPLIER_FIELDS, SUPPLIER_PARAMETERS, supplierBody, supplierIdParams, supplierRequestSchema, supplierResponseSchema, type SupplierData } from "./supplier-body.js";
import { supplierIdOf } from "../../path-ids.js";

/** POST /api/supplier/{supplierId} (spec 1, "Update a supplier"): the body replaces the supplier's fields. */
export const updateSupplierRoute: RestRoute<{ updateSupplier: { supplier: SupplierData | null; userErrors: UserErrorData[] } }> = {
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
    mutation RestUpdateSupplier($input: UpdateSupplierInput!) { updateSupplier(input: $input) { supplier { ...RestSupplier } ${USER_ERRORS} } }
    ${SUPPLIER_FIELDS}
  `,
  parameters: SUPPLIER_PARAMETERS,
  otherwise: refusedSupplierBody,
  variables: (request) => ({ input: { ...supplierInputOfBody(request), supplierId: supplierIdOf(request) } }),
  respond: ({ updateSupplier }) => supplierBody(refusedUnlessEmpty(updateSupplier, SUPPLIER_PARAMETERS).supplier!),
};
