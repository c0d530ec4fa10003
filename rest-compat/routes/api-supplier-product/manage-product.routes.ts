import { errorResponse } from "../../error-body.js";
import { productIdOf, supplierIdOf } from "../../path-ids.js";
import type { RestRoute } from "../../rest-route.js";
import { refusedUnlessEmpty, USER_ERRORS, type UserErrorData } from "../../user-errors.js";
import { productInputOfBody, refusedProductBody } from "./product-request.js";
import { pathSupplier, PRODUCT_FIELDS, PRODUCT_PARAMETERS, productBody, productRequestSchema, productResponseSchema, supplierProductParams, type ProductData } from "./product-body.js";
import type { FastifyRequest } from "fastify";

type ProductPayload = { product: ProductData | null; userErrors: UserErrorData[] };

/** The product a path names, under the supplier it names: the mutation refuses (404) a product of another supplier. */
const addressOf = (request: FastifyRequest) => ({ productId: productIdOf(request), supplierId: supplierIdOf(request) });

/** PUT /api/supplier/{supplierId}/product/{productId}: extension (spec 1 leaves product update "not shown"). */
export const updateProductRoute: RestRoute<{ updateProduct: ProductPayload }> = {
  method: "PUT",
  url: "/api/supplier/:supplierId/product/:productId",
  schema: {
    operationId: "updateProduct",
    summary: "Update a product",
    description: "Extension to the contract. Replaces every field with the body (absent optional fields become unset); updateDate changes; UPDATED in change detection. 404 for an unknown product or one of another supplier.",
    tags: ["Products"],
    params: supplierProductParams,
    body: productRequestSchema,
    response: { 200: productResponseSchema, 404: errorResponse("Unknown product of this supplier") },
  },
  operation: /* GraphQL */ `
    mutation RestUpdateProduct($input: UpdateProductInput!) {
      updateProduct(input: $input) { product { ...RestProduct } ${USER_ERRORS} }
    }
    ${PRODUCT_FIELDS}
  `,
  parameters: PRODUCT_PARAMETERS,
  variables: (request) => ({ input: { ...productInputOfBody(request), ...addressOf(request) } }),
  otherwise: refusedProductBody("product"),
  respond: ({ updateProduct }, request) => productBody(refusedUnlessEmpty(updateProduct, PRODUCT_PARAMETERS).product!, pathSupplier(request)),
};

/** DELETE /api/supplier/{supplierId}/product/{productId}: extension. */
export const deleteProductRoute: RestRoute<{ deleteProduct: { deletedProductId: string | null; userErrors: UserErrorData[] } }> = {
  method: "DELETE",
  url: "/api/supplier/:supplierId/product/:productId",
  schema: {
    operationId: "deleteProduct",
    summary: "Delete a product",
    description: "Extension to the contract. The product leaves the catalogue (DELETED in change detection); its externalId can be pushed again as a new product.",
    tags: ["Products"],
    params: supplierProductParams,
    response: { 200: { type: "object", description: "The product is deleted", properties: { id: { type: "integer" }, deleted: { type: "boolean" } }, required: ["id", "deleted"] }, 404: errorResponse("Unknown product of this supplier") },
  },
  operation: /* GraphQL */ `
    mutation RestDeleteProduct($input: DeleteProductInput!) { deleteProduct(input: $input) { deletedProductId ${USER_ERRORS} } }
  `,
  parameters: PRODUCT_PARAMETERS,
  variables: (request) => ({ input: addressOf(request) }),
  respond: ({ deleteProduct }, request) => {
    refusedUnlessEmpty(deleteProduct, PRODUCT_PARAMETERS);
    return { id: (request.params as { productId: number }).productId, deleted: true };
  },
};

function deprecationRoute(action: "deprecate" | "undeprecate"): RestRoute<Record<string, ProductPayload>> {
  const field = `${action}Product`;
  const input = action === "deprecate" ? "DeprecateProductInput" : "UndeprecateProductInput";
  return {
    method: "POST",
    url: `/api/supplier/:supplierId/product/:productId/${action}`,
    schema: {
      operationId: `${action}Product`,
      summary: action === "deprecate" ? "Deprecate a product" : "Undeprecate a product",
      description: `Extension to the contract. ${action === "deprecate" ? "DEPRECATED" : "UNDEPRECATED"} in change detection; repeating it changes nothing.`,
      tags: ["Products"],
      params: supplierProductParams,
      response: { 200: productResponseSchema, 404: errorResponse("Unknown product of this supplier") },
    },
    operation: /* GraphQL */ `
      mutation Rest${field}($input: ${input}!) { ${field}(input: $input) { product { ...RestProduct } ${USER_ERRORS} } }
      ${PRODUCT_FIELDS}
    `,
    parameters: PRODUCT_PARAMETERS,
    variables: (request) => ({ input: addressOf(request) }),
    respond: (data, request) => productBody(refusedUnlessEmpty(data[field], PRODUCT_PARAMETERS).product!, pathSupplier(request)),
  };
}

export const deprecateProductRoute = deprecationRoute("deprecate");
export const undeprecateProductRoute = deprecationRoute("undeprecate");
