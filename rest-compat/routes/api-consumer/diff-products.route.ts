import { acceptedLanguages } from "../../../core/language.js";
import { int, obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { CONSUMER_PRODUCT_FIELDS, consumerProductBody, consumerProductSchema, externalClientIdParam, type ConsumerProductData } from "./consumer-product.js";

interface Data {
  productChanges: {
    pageNumber: number;
    resultsPerPage: number;
    totalResults: number;
    items: { product: ConsumerProductData; changeLog: { status: string; date: string }[] }[];
  };
}

/** GET /api/consumer/diff/products (spec 3, "Search products: change detection"). */
export const diffProductsRoute: RestRoute<Data> = {
  method: "GET",
  url: "/api/consumer/diff/products",
  schema: {
    summary: "Search products: change detection",
    description:
      "Without date: every live product matching Search (initial import), each with its whole change log. With date (UTC, at most 8 days back): products with a change of changeType since then, deleted ones included, each with the changes since then. 400 codes as for search, plus INVALID_DATE, DATE_TOO_OLD, DATE_IN_FUTURE.",
    tags: ["Catalogue consumption"],
    querystring: obj(
      {
        Search: { ...str("Optional search expression (docs/search.md)"), maxLength: 2000 },
        resultsPerPage: { ...int("Default 100, at most 1000"), default: 100, minimum: -2_147_483_648, maximum: 2_147_483_647 },
        pageNumber: { ...int("From 1"), default: 1, minimum: -2_147_483_648, maximum: 2_147_483_647 },
        sortingField: { ...str("As for search; default title"), default: "title" },
        sortingOrder: { ...str("asc (default) or desc"), default: "asc" },
        changeType: { type: "string", enum: ["NEW", "UPDATED", "DELETED", "DEPRECATED", "UNDEPRECATED", "ALL"], default: "ALL", description: "Default ALL" },
        date: str("YYYY-MM-DD, UTC; at most 8 days back"),
        externalClientId: externalClientIdParam,
      },
      { additionalProperties: false },
    ),
    response: {
      200: {
        type: "object",
        properties: {
          pageNumber: { type: "integer" },
          totalResults: { type: "integer" },
          resultsPerPage: { type: "integer" },
          items: {
            type: "array",
            items: {
              type: "object",
              properties: {
                product: consumerProductSchema,
                changeLog: { type: "array", items: { type: "object", properties: { status: { type: "string" }, date: { type: "string", format: "date-time" } } } },
              },
            },
          },
        },
      },
    },
  },
  operation: /* GraphQL */ `
    query RestProductChanges($date: String, $changeType: ChangeTypeFilter!, $search: String, $pageNumber: Int!, $resultsPerPage: Int!, $sortingField: String!, $sortingOrder: String!, $externalClientId: String) {
      productChanges(date: $date, changeType: $changeType, search: $search, pageNumber: $pageNumber, resultsPerPage: $resultsPerPage, sortingField: $sortingField, sortingOrder: $sortingOrder) {
        pageNumber resultsPerPage totalResults
        items { product { ...ConsumerProduct } changeLog { status date } }
      }
    }
    ${CONSUMER_PRODUCT_FIELDS}
  `,
  variables: (request) => {
    const q = request.query as Record<string, unknown>;
    return {
      date: q.date ?? null,
      changeType: q.changeType,
      search: q.Search ?? null,
      pageNumber: q.pageNumber,
      resultsPerPage: q.resultsPerPage,
      sortingField: q.sortingField,
      sortingOrder: q.sortingOrder,
      externalClientId: q.externalClientId ?? null,
    };
  },
  respond: ({ productChanges }, request) => {
    const languages = acceptedLanguages(request.headers["accept-language"]);
    return {
      pageNumber: productChanges.pageNumber,
      totalResults: productChanges.totalResults,
      resultsPerPage: productChanges.resultsPerPage,
      items: productChanges.items.map((item) => ({ product: consumerProductBody(item.product, languages), changeLog: item.changeLog })),
    };
  },
};
