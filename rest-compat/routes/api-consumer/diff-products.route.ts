import { errorResponse } from "../../error-body.js";
import { answer, obj, str } from "../../json-schema.js";
import type { PageOf, RestRoute } from "../../rest-route.js";
import { CONSUMER_PRODUCT_FIELDS, consumerProductSchema, pageEnvelope, searchPagingQuery, searchPagingVariables, type ConsumerProductData } from "./consumer-product.js";

interface Data {
  productChanges: PageOf<{ product: ConsumerProductData; changeLog: { status: string; date: string }[] }> & { totalResultsEstimated: boolean };
}

/** GET /api/consumer/diff/products (spec 3, "Search products: change detection"). */
export const diffProductsRoute: RestRoute<Data> = {
  method: "GET",
  url: "/api/consumer/diff/products",
  schema: {
    operationId: "searchProductChanges",
    summary: "Search products: change detection",
    description:
      "Without date: every live product matching Search (initial import), each with its whole change log. With date (UTC, at most 8 days back): products with a change of changeType since then, deleted ones included, each with the changes since then. 400 codes as for search, plus INVALID_DATE, DATE_TOO_OLD, DATE_IN_FUTURE.",
    tags: ["Catalogue consumption"],
    querystring: obj(
      {
        ...searchPagingQuery,
        changeType: { type: "string", enum: ["NEW", "UPDATED", "DELETED", "DEPRECATED", "UNDEPRECATED", "ALL"], default: "ALL", description: "Default ALL" },
        date: str("YYYY-MM-DD, UTC; at most 8 days back"),
      },
      { additionalProperties: false },
    ),
    response: {
      200: pageEnvelope(
        answer(
          {
            product: consumerProductSchema,
            changeLog: {
              type: "array",
              description: "The product's changes since date (all of them without date), oldest first",
              items: answer({ status: { type: "string", enum: ["NEW", "UPDATED", "DELETED", "DEPRECATED", "UNDEPRECATED"] }, date: { type: "string", format: "date-time" } }, ["status", "date"]),
            },
          },
          ["product", "changeLog"],
        ),
        "A page of changed products, each with its changes",
      ),
      404: errorResponse("A page past the last page of a non-empty result"),
    },
  },
  operation: /* GraphQL */ `
    query RestProductChanges($date: String, $changeType: ChangeTypeFilter!, $search: String, $pageNumber: Int!, $resultsPerPage: Int!, $sortingField: String!, $sortingOrder: String!, $externalClientId: String) {
      productChanges(date: $date, changeType: $changeType, search: $search, pageNumber: $pageNumber, resultsPerPage: $resultsPerPage, sortingField: $sortingField, sortingOrder: $sortingOrder) {
        pageNumber resultsPerPage totalResults totalResultsEstimated
        items { product { ...ConsumerProduct } changeLog { status date } }
      }
    }
    ${CONSUMER_PRODUCT_FIELDS}
  `,
  parameters: { search: "Search" },
  variables: (request) => {
    const q = request.query as Record<string, unknown>;
    return { ...searchPagingVariables(q), date: q.date ?? null, changeType: q.changeType };
  },
  plainJson: true,
  respond: ({ productChanges }) => {
    return {
      pageNumber: productChanges.pageNumber,
      resultsPerPage: productChanges.resultsPerPage,
      totalResults: productChanges.totalResults,
      totalResultsEstimated: productChanges.totalResultsEstimated,
      items: productChanges.items.map((item) => ({ product: item.product.consumerRecord, changeLog: item.changeLog })),
    };
  },
};
