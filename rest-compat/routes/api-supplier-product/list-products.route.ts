import { errorResponse, restRejected } from "../../error-body.js";
import { supplierIdOf } from "../../path-ids.js";
import { int, num, obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { supplierIdParams } from "../api-supplier/supplier-body.js";
import { pathSupplier, PRODUCT_FIELDS, productBody, productResponseSchema, type ProductData } from "./product-body.js";

/** GET /api/supplier/{supplierId}/products/ (spec 1, "List the products of a supplier"); also without the trailing slash. */
interface Data {
  supplier: { products: { nodes: ProductData[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } } | null;
}

/**
 * The path answers every product, a page at a time. The whole typed product (its periods,
 * itinerary and every text's translations included) is estimated at about 650 values: 250 keep a
 * page well within an operation's cost limit, where the graph's largest page (1000) would pass it.
 */
const PAGE = 250;

export const listProductsRoute: RestRoute<Data> = {
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
    query RestListProducts($supplierId: ID!, $filter: SupplierProductFilter, $after: String) {
      supplier(id: $supplierId) { products(filter: $filter, first: ${PAGE}, after: $after) { nodes { ...RestProduct } pageInfo { hasNextPage endCursor } } }
    }
    ${PRODUCT_FIELDS}
  `,
  parameters: { filter: "" },
  variables: (request) => ({ supplierId: supplierIdOf(request), filter: request.query }),
  allPages: {
    after: ({ supplier }) => (supplier?.products.pageInfo.hasNextPage ? supplier.products.pageInfo.endCursor : null),
    merge: (pages) => ({ supplier: pages[0].supplier && { ...pages[0].supplier, products: { ...pages[0].supplier.products, nodes: pages.flatMap((page) => page.supplier?.products.nodes ?? []) } } }),
  },
  respond: ({ supplier }, request) => {
    if (!supplier) throw restRejected("NOT_FOUND", `Supplier ${(request.params as { supplierId: number }).supplierId} not found`);
    return supplier.products.nodes.map((product) => productBody(product, pathSupplier(request)));
  },
};

export const listProductsNoSlashRoute: RestRoute<Data> = {
  ...listProductsRoute,
  url: "/api/supplier/:supplierId/products",
  schema: { ...listProductsRoute.schema, hide: true } as typeof listProductsRoute.schema,
};
