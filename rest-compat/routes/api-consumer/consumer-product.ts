import { compact, int, str, type JsonSchema } from "../../json-schema.js";

/**
 * The consumer product record of spec 3, built by the catalogue in one step per product
 * (subgraphs/catalogue/product/consumer-record.ts): texts in the caller's language, the engine by
 * name, taxonomy paths of {id, name, level}, bookingUrl with externalClientId.
 */
export const CONSUMER_PRODUCT_FIELDS = /* GraphQL */ `
  fragment ConsumerProduct on Product {
    consumerRecord(externalClientId: $externalClientId)
  }
`;

export interface ConsumerProductData {
  consumerRecord: Record<string, unknown> & { id: number };
}

/**
 * Its declared keys are the first of every record, in this order (consumer-record.ts): the routes
 * that send records use JSON.stringify (RestRoute.plainJson), and a test holds their bodies equal
 * to what this schema's compiled serializer writes.
 */
export const consumerProductSchema: JsonSchema = {
  type: "object",
  description: "Consumer product record (spec 3); texts in the Accept-Language language; unset fields absent",
  additionalProperties: true,
  properties: {
    id: { type: "integer" },
    externalId: { type: "string" },
    title: { type: "string" },
    bookingEngine: { type: "string" },
    bookingEngineName: { type: "string" },
    bookingUrl: { type: "string" },
    onlineBookable: { type: "boolean" },
    availableLanguages: { type: "array", items: { type: "string" } },
    taxonomies: { type: "array", items: { type: "array", items: { type: "object", properties: { id: { type: "string" }, name: { type: "string" }, level: { type: "integer" } } } } },
  },
};

/** externalClientId: at most 255 alphanumeric characters (spec 3). */
export const externalClientIdParam: JsonSchema = { type: "string", pattern: "^[A-Za-z0-9]{1,255}$", description: "At most 255 alphanumeric characters; appended to bookingUrl" };

/** Query parameters search and change detection share (spec 3). */
export const searchPagingQuery = {
  Search: { ...str("The search expression (docs/search.md), e.g. title:museum AND countryCode:FR"), maxLength: 2000 },
  resultsPerPage: { ...int("Default 100, at most 1000"), default: 100, minimum: -2_147_483_648, maximum: 2_147_483_647 },
  pageNumber: { ...int("From 1"), default: 1, minimum: -2_147_483_648, maximum: 2_147_483_647 },
  sortingField: { ...str("title (default), rating, numberOfRatings, minPrice, maxPrice, cityName, creationDate, updateDate or id"), default: "title" },
  sortingOrder: { ...str("asc (default) or desc"), default: "asc" },
  externalClientId: externalClientIdParam,
} satisfies Record<string, JsonSchema>;

export function searchPagingVariables(query: Record<string, unknown>) {
  return {
    search: query.Search ?? null,
    pageNumber: query.pageNumber,
    resultsPerPage: query.resultsPerPage,
    sortingField: query.sortingField,
    sortingOrder: query.sortingOrder,
    externalClientId: query.externalClientId ?? null,
  };
}

/** The {pageNumber, resultsPerPage, totalResults, items} envelope of search-style lists. */
export const pageEnvelope = (items: JsonSchema): JsonSchema => ({
  type: "object",
  properties: {
    pageNumber: { type: "integer" },
    resultsPerPage: { type: "integer" },
    totalResults: { type: "integer" },
    totalResultsEstimated: { type: "boolean", description: "Extension: totalResults is an estimate, because more than 1,000 products matched (the most that are counted exactly)" },
    items: { type: "array", items },
  },
});
