import { errorResponse } from "../../error-body.js";
import { obj } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { CONSUMER_PRODUCT_FIELDS, consumerProductSchema, pageEnvelope, pageNumbers, searchPagingQuery, searchPagingVariables, type ConsumerProductData, type TotalCountData } from "./consumer-product.js";

interface Data {
  searchProducts: { nodes: ConsumerProductData[]; totalCount: TotalCountData };
}

/** GET /api/consumer/products (spec 3, "Search products"). */
export const searchProductsRoute: RestRoute<Data> = {
  method: "GET",
  url: "/api/consumer/products",
  schema: {
    operationId: "searchProducts",
    summary: "Search products",
    description:
      "Search is an expression of criteria field:value joined with AND or OR (operators ^ < > ~; grammar in docs/search.md). The caller's organisation's country first, then the sorting field. 400 codes: INVALID_SEARCH, INVALID_PAGE_SIZE, INVALID_PAGE_NUMBER, INVALID_SORTING_FIELD, INVALID_SORTING_ORDER; 404 for a page past the last.",
    tags: ["Catalogue consumption"],
    querystring: obj(searchPagingQuery, { required: ["Search"], additionalProperties: false }),
    response: { 200: pageEnvelope(consumerProductSchema, "A page of matching products"), 404: errorResponse("A page past the last page of a non-empty result (no match at all is a 200 with no items)") },
  },
  operation: /* GraphQL */ `
    query RestSearchProducts($query: String!, $orderBy: ProductOrder!, $first: Int!, $after: String, $externalClientId: String) {
      searchProducts(query: $query, orderBy: $orderBy, first: $first, after: $after) { nodes { ...ConsumerProduct } totalCount { count precision } }
    }
    ${CONSUMER_PRODUCT_FIELDS}
  `,
  parameters: { query: "Search" },
  variables: (request) => searchPagingVariables(request.query as Record<string, unknown>),
  plainJson: true,
  respond: ({ searchProducts }, request) => ({
    ...pageNumbers(searchProducts.nodes.length, searchProducts.totalCount, request.query as Record<string, unknown>),
    items: searchProducts.nodes.map((item) => item.consumerRecord),
  }),
};
