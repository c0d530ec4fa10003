import { errorResponse } from "../../error-body.js";
import type { RestRoute } from "../../rest-route.js";
import { refusedUnlessEmpty, USER_ERRORS, type UserErrorData } from "../../user-errors.js";
import { SUPPLIER_PARAMETERS, supplierIdParams } from "./supplier-body.js";
import { supplierIdOf } from "../../path-ids.js";

/** DELETE /api/supplier/{supplierId} (spec 1, "Delete a supplier"): permanent. */
export const deleteSupplierRoute: RestRoute<{ deleteSupplier: { deletedProductCount: number | null; userErrors: UserErrorData[] } }> = {
  method: "DELETE",
  url: "/api/supplier/:supplierId",
  schema: {
    operationId: "deleteSupplier",
    summary: "Delete a supplier",
    description: "Permanent and not reversible: the supplier leaves every list and its products leave the catalogue. 400 non-numeric id; 404 unknown supplier.",
    tags: ["Suppliers"],
    params: supplierIdParams,
    response: {
      200: {
        type: "object",
        description: "The supplier is deleted",
        properties: { id: { type: "integer" }, deleted: { type: "boolean" }, deletedProducts: { type: "integer", description: "Products that left the catalogue with it" } },
        required: ["id", "deleted", "deletedProducts"],
      },
      404: errorResponse("Unknown or already deleted supplier"),
    },
  },
  operation: /* GraphQL */ `
    mutation RestDeleteSupplier($input: DeleteSupplierInput!) { deleteSupplier(input: $input) { deletedProductCount ${USER_ERRORS} } }
  `,
  parameters: SUPPLIER_PARAMETERS,
  variables: (request) => ({ input: { supplierId: supplierIdOf(request) } }),
  respond: ({ deleteSupplier }, request) => ({
    id: (request.params as { supplierId: number }).supplierId,
    deleted: true,
    deletedProducts: refusedUnlessEmpty(deleteSupplier, SUPPLIER_PARAMETERS).deletedProductCount!,
  }),
};
