import { int, obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { CONSUMER_PRODUCT_FIELDS, consumerProductBody, consumerProductSchema, externalClientIdParam, type ConsumerProductData } from "./consumer-product.js";
import { acceptedLanguages } from "../../../core/language.js";

interface Data {
  searchProducts: { pageNumber: number; resultsPerPage: number; totalResults: number; items: ConsumerProductData[] };
}

/** GET /api/consumer/products (spec 3, "Search products"). */
export const searchProductsRoute: RestRoute<Data> = {
  method: "GET",
  url: "/api/consumer/products",
  schema: {
    summary: "Search products",
    description:
      "Search is an expression of criteria field:value joined with AND or OR (operators ^ < > ~; grammar in docs/search.md). The caller's organisation's country first, then the sorting field. 400 codes: INVALID_SEARCH, INVALID_PAGE_SIZE, INVALID_PAGE_NUMBER, INVALID_SORTING_FIELD, INVALID_SORTING_ORDER; 404 for a page past the last.",
    tags: ["Catalogue consumption"],
    querystring: obj(
      {
        Search: { ...str("The search expression, e.g. title:museum AND countryCode:FR"), maxLength: 2000 },
        resultsPerPage: { ...int("Default 100, at most 1000"), default: 100, minimum: -2_147_483_648, maximum: 2_147_483_647 },
        pageNumber: { ...int("From 1"), default: 1, minimum: -2_147_483_648, maximum: 2_147_483_647 },
        sortingField: { ...str("title (default), rating, numberOfRatings, minPrice, maxPrice, cityName, creationDate, updateDate or id"), default: "title" },
        sortingOrder: { ...str("asc (default) or desc"), default: "asc" },
        externalClientId: externalClientIdParam,
      },
      { required: ["Search"], additionalProperties: false },
    ),
    response: {
      200: {
        type: "object",
        properties: {
          pageNumber: { type: "integer" },
          resultsPerPage: { type: "integer" },
          totalResults: { type: "integer" },
          items: { type: "array", items: consumerProductSchema },
        },
      },
    },
  },
  operation: /* GraphQL */ `
    query RestSearchProducts($search: String!, $pageNumber: Int!, $resultsPerPage: Int!, $sortingField: String!, $sortingOrder: String!, $externalClientId: String) {
      searchProducts(search: $search, pageNumber: $pageNumber, resultsPerPage: $resultsPerPage, sortingField: $sortingField, sortingOrder: $sortingOrder) {
        pageNumber resultsPerPage totalResults items { ...ConsumerProduct }
      }
    }
    ${CONSUMER_PRODUCT_FIELDS}
  `,
  variables: (request) => {
    const q = request.query as Record<string, unknown>;
    return {
      search: q.Search,
      pageNumber: q.pageNumber,
      resultsPerPage: q.resultsPerPage,
      sortingField: q.sortingField,
      sortingOrder: q.sortingOrder,
      externalClientId: q.externalClientId ?? null,
    };
  },
  respond: ({ searchProducts }, request) => {
    const languages = acceptedLanguages(request.headers["accept-language"]);
    return {
      pageNumber: searchProducts.pageNumber,
      resultsPerPage: searchProducts.resultsPerPage,
      totalResults: searchProducts.totalResults,
      items: searchProducts.items.map((item) => consumerProductBody(item, languages)),
    };
  },
};
