import { errorResponse, restRejected } from "../../error-body.js";
import type { RestRoute } from "../../rest-route.js";
import { SUPPLIER_FIELDS, supplierBody, supplierIdParams, supplierResponseSchema, type SupplierData } from "./supplier-body.js";
import { supplierIdOf } from "../../path-ids.js";

/** GET /api/supplier/{supplierId} (spec 1, "Retrieve a supplier"). */
export const getSupplierRoute: RestRoute<{ supplier: SupplierData | null }> = {
  method: "GET",
  url: "/api/supplier/:supplierId",
  schema: {
    operationId: "getSupplier",
    summary: "Retrieve a supplier",
    description: "400 for a non-numeric id; 404 for an unknown or deleted supplier, or one of another booking engine.",
    tags: ["Suppliers"],
    params: supplierIdParams,
    response: { 200: supplierResponseSchema, 404: errorResponse("Unknown or deleted supplier, or one of another booking engine") },
  },
  operation: /* GraphQL */ `
    query RestGetSupplier($id: ID!) { supplier(id: $id) { ...RestSupplier } }
    ${SUPPLIER_FIELDS}
  `,
  variables: (request) => ({ id: supplierIdOf(request) }),
  respond: ({ supplier }) => {
    if (!supplier) throw restRejected("NOT_FOUND", "No supplier of the caller's booking engine has this id");
    return supplierBody(supplier);
  },
};
