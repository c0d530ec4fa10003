import { errorResponse } from "../../error-body.js";
import { int, num, obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { supplierIdParams } from "../api-supplier/supplier-body.js";
import { PRODUCT_FIELDS, productBody, productResponseSchema, type ProductData } from "./product-body.js";

/** GET /api/supplier/{supplierId}/products/ (spec 1, "List the products of a supplier"); also without the trailing slash. */
export const listProductsRoute: RestRoute<{ supplierProducts: ProductData[] }> = {
  method: "GET",
  url: "/api/supplier/:supplierId/products/",
  schema: {
    operationId: "listSupplierProducts",
    summary: "List the products of a supplier",
    description: "A JSON array of the supplier's live products (deprecated ones included, with deprecated: true), by id. Filters narrow it: rating and numberOfRatings are minimums, cityName ignores case.",
    tags: ["Products"],
    params: supplierIdParams,
    querystring: obj(
      {
        countryCode: str("ISO 3166-1 alpha-2"),
        zipCode: str("Postal code"),
        rating: num("At least this rating (0 to 5)"),
        numberOfRatings: { ...int("At least this many ratings"), maximum: 2_147_483_647 },
        cityName: str("City"),
      },
      { additionalProperties: false },
    ),
    response: { 200: { type: "array", description: "The supplier's products", items: productResponseSchema }, 404: errorResponse("Unknown supplier") },
  },
  operation: /* GraphQL */ `
    query RestListProducts($supplierId: Int!, $filter: ProductFilterInput) {
      supplierProducts(supplierId: $supplierId, filter: $filter) { ...RestProduct }
    }
    ${PRODUCT_FIELDS}
  `,
  parameters: { filter: "" },
  variables: (request) => ({ supplierId: (request.params as { supplierId: number }).supplierId, filter: request.query }),
  respond: ({ supplierProducts }) => supplierProducts.map(productBody),
};

export const listProductsNoSlashRoute: RestRoute<{ supplierProducts: ProductData[] }> = {
  ...listProductsRoute,
  url: "/api/supplier/:supplierId/products",
  schema: { ...listProductsRoute.schema, hide: true } as typeof listProductsRoute.schema,
};
