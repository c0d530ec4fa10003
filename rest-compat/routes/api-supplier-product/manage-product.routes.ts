import { errorResponse } from "../../error-body.js";
import { pickBySchema } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { PRODUCT_FIELDS, productBody, productRequestSchema, productResponseSchema, supplierProductParams, type ProductData } from "./product-body.js";

type Params = { supplierId: number; productId: number };
const ids = (params: unknown) => ({ supplierId: (params as Params).supplierId, productId: (params as Params).productId });

/** PUT /api/supplier/{supplierId}/product/{productId}: extension (spec 1 leaves product update "not shown"). */
export const updateProductRoute: RestRoute<{ updateProduct: ProductData }> = {
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
    mutation RestUpdateProduct($supplierId: Int!, $productId: Int!, $input: ProductInput!) {
      updateProduct(supplierId: $supplierId, productId: $productId, input: $input) { ...RestProduct }
    }
    ${PRODUCT_FIELDS}
  `,
  parameters: { input: "" },
  variables: (request) => ({ ...ids(request.params), input: pickBySchema(request.body, productRequestSchema) }),
  respond: ({ updateProduct }) => productBody(updateProduct),
};

/** DELETE /api/supplier/{supplierId}/product/{productId}: extension. */
export const deleteProductRoute: RestRoute<{ deleteProduct: { id: number } }> = {
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
    mutation RestDeleteProduct($supplierId: Int!, $productId: Int!) { deleteProduct(supplierId: $supplierId, productId: $productId) { id } }
  `,
  variables: (request) => ids(request.params),
  respond: ({ deleteProduct }) => ({ id: deleteProduct.id, deleted: true }),
};

function deprecationRoute(action: "deprecate" | "undeprecate"): RestRoute<Record<string, ProductData>> {
  const field = `${action}Product`;
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
      mutation Rest${field}($supplierId: Int!, $productId: Int!) { ${field}(supplierId: $supplierId, productId: $productId) { ...RestProduct } }
      ${PRODUCT_FIELDS}
    `,
    variables: (request) => ids(request.params),
    respond: (data) => productBody(data[field]),
  };
}

export const deprecateProductRoute = deprecationRoute("deprecate");
export const undeprecateProductRoute = deprecationRoute("undeprecate");
