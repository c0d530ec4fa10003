import { errorResponse } from "../../error-body.js";
import type { RestRoute } from "../../rest-route.js";
import { supplierIdOf } from "../../path-ids.js";
import { refusedUnlessEmpty, USER_ERRORS, type UserErrorData } from "../../user-errors.js";
import { supplierIdParams } from "../api-supplier/supplier-body.js";
import { productInputOfBody, refusedProductBody } from "./product-request.js";
import { pathSupplier, PRODUCT_FIELDS, PRODUCT_PARAMETERS, productBody, productRequestSchema, productResponseSchema, type ProductData } from "./product-body.js";

/**
 * POST /api/supplier/{supplierId}/product (spec 1, "Create a product"). When another supplier of
 * the same booking engine holds the externalId, that product moves here (still 201, same id);
 * the same externalId under this supplier is 400 PRODUCT_EXTERNAL_ID_EXISTS.
 */
export const createProductRoute: RestRoute<{ createProduct: { product: ProductData | null; moved: boolean | null; userErrors: UserErrorData[] } }> = {
  method: "POST",
  url: "/api/supplier/:supplierId/product",
  schema: {
    operationId: "createProduct",
    summary: "Create a product",
    description:
      "201 with the product as returned. A product of another supplier of the same booking engine with this externalId moves to this supplier (header X-Product-Moved: true). 400: non-numeric supplier id, invalid field, PRODUCT_EXTERNAL_ID_EXISTS (same externalId under this supplier), UNSUPPORTED_CURRENCY. 404: unknown supplier.",
    tags: ["Products"],
    params: supplierIdParams,
    body: productRequestSchema,
    response: { 201: productResponseSchema, 404: errorResponse("Unknown supplier") },
  },
  operation: /* GraphQL */ `
    mutation RestCreateProduct($input: CreateProductInput!) {
      createProduct(input: $input) { moved product { ...RestProduct } ${USER_ERRORS} }
    }
    ${PRODUCT_FIELDS}
  `,
  parameters: PRODUCT_PARAMETERS,
  variables: (request) => ({ input: { ...productInputOfBody(request), supplierId: supplierIdOf(request) } }),
  otherwise: refusedProductBody("supplier"),
  respond: ({ createProduct }, request, reply) => {
    const { product, moved } = refusedUnlessEmpty(createProduct, PRODUCT_PARAMETERS);
    reply.code(201).header("x-product-moved", String(moved));
    return productBody(product!, pathSupplier(request));
  },
};
