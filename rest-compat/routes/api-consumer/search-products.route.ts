import { errorResponse } from "../../error-body.js";
import { obj } from "../../json-schema.js";
import type { PageOf, RestRoute } from "../../rest-route.js";
import { CONSUMER_PRODUCT_FIELDS, consumerProductSchema, pageEnvelope, searchPagingQuery, searchPagingVariables, type ConsumerProductData } from "./consumer-product.js";

interface Data {
  searchProducts: PageOf<ConsumerProductData> & { totalResultsEstimated: boolean };
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
    query RestSearchProducts($search: String!, $pageNumber: Int!, $resultsPerPage: Int!, $sortingField: String!, $sortingOrder: String!, $externalClientId: String) {
      searchProducts(search: $search, pageNumber: $pageNumber, resultsPerPage: $resultsPerPage, sortingField: $sortingField, sortingOrder: $sortingOrder) {
        pageNumber resultsPerPage totalResults totalResultsEstimated items { ...ConsumerProduct }
      }
    }
    ${CONSUMER_PRODUCT_FIELDS}
  `,
  parameters: { search: "Search" },
  variables: (request) => searchPagingVariables(request.query as Record<string, unknown>),
  plainJson: true,
  respond: ({ searchProducts }) => ({
    pageNumber: searchProducts.pageNumber,
    resultsPerPage: searchProducts.resultsPerPage,
    totalResults: searchProducts.totalResults,
    totalResultsEstimated: searchProducts.totalResultsEstimated,
    items: searchProducts.items.map((item) => item.consumerRecord),
  }),
};
