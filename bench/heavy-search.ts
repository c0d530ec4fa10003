import { offsetCursor } from "../subgraphs/common/relay/relay.connection.js";

/**
 * The operation the noisy-neighbour and cost benchmarks load the service with: 30 aliases of a
 * search with three typo-tolerant criteria, over its first three pages of 100.
 */
export const HEAVY_SEARCH = `query Heavy { ${Array.from(
  { length: 30 },
  (_, i) =>
    `a${i}: searchProducts(query: "text:~museum AND title:~tour AND cityName:~paris", first: 100, after: ${JSON.stringify(offsetCursor(100 * (i % 3)))}) { totalCount { count } nodes { id externalId cityName } }`,
).join(" ")} }`;

export const HEAVY_SEARCH_LABEL = '30 aliases of searchProducts(query: "text:~museum AND title:~tour AND cityName:~paris", first: 100) { totalCount { count } nodes { id externalId cityName } }';
