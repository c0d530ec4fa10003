import { errorResponse } from "../../error-body.js";
import { answer, obj, str } from "../../json-schema.js";
import { isCalendarDate } from "../../../core/calendar-date.js";
import type { RestRoute } from "../../rest-route.js";
import { CONSUMER_PRODUCT_FIELDS, consumerProductSchema, pageEnvelope, pageNumbers, pagingRefusal, searchPagingQuery, searchPagingVariables, type ConsumerProductData, type TotalCountData } from "./consumer-product.js";

type ChangeData = { node: ConsumerProductData; changes: { type: string; changedAt: string }[] };

interface Data {
  productChanges: { edges: ChangeData[]; totalCount: TotalCountData };
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
    query RestProductChanges($since: Date, $changeType: ProductChangeType, $query: String, $orderBy: ProductOrder!, $first: Int!, $after: String, $externalClientId: String) {
      productChanges(since: $since, changeType: $changeType, query: $query, orderBy: $orderBy, first: $first, after: $after) {
        edges { node { ...ConsumerProduct } changes { type changedAt } } totalCount { count precision }
      }
    }
    ${CONSUMER_PRODUCT_FIELDS}
  `,
  parameters: { query: "Search", since: "date" },
  variables: (request) => {
    const q = request.query as Record<string, unknown>;
    // The graph's Date refuses a bad day before any rule could name it: spec 3's code is given here.
    if (q.date != null && !isCalendarDate(String(q.date))) throw pagingRefusal("INVALID_DATE", "date", "date", "date must be YYYY-MM-DD");
    return { ...searchPagingVariables(q), since: q.date ?? null, changeType: q.changeType === "ALL" ? null : q.changeType };
  },
  plainJson: true,
  respond: ({ productChanges }, request) => ({
    ...pageNumbers(productChanges.edges.length, productChanges.totalCount, request.query as Record<string, unknown>),
    items: productChanges.edges.map((edge) => ({
      product: edge.node.consumerRecord,
      changeLog: edge.changes.map((change) => ({ status: change.type, date: change.changedAt })),
    })),
  }),
};
