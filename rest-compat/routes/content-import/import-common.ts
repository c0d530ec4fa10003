import type { FastifyRequest } from "fastify";
import { answer, int, str, type JsonSchema } from "../../json-schema.js";
import { selfLink } from "../../rest-route.js";
import { importCodesRefusal, MAX_IMPORT_PAGE } from "../../../subgraphs/catalogue/import/activity-import.service.js";
import { restErrorFrom } from "../../graphql-errors.js";
import { refusedBeforeTyping } from "../../refused-before-typing.js";
import { pagingRefusal } from "../api-consumer/consumer-product.js";

/** Query parameters both imports share (spec 3, bulk import). */
export const importQuery = {
  countryCodeList: str("Comma-separated ISO 3166-1 alpha-2 codes"),
  bookingEngineList: str("Comma-separated booking engine names"),
  modifiedSince: str("UTC date-time yyyy-MM-ddTHH:mm:ss.SSSZ"),
  cursor: str("Opaque; omit on the first request, then send meta.nextCursor"),
  "page[limit]": { ...int("Default 100, at most 1000"), default: 100, minimum: -2_147_483_648, maximum: 2_147_483_647 },
} satisfies Record<string, JsonSchema>;

/** The graph's filter fields and paging arguments by the import parameter that fills each: a refusal names the parameter. */
export const IMPORT_PARAMETERS: Record<string, string> = {
  "filter.countryCodes": "countryCodeList",
  "filter.bookingEngineNames": "bookingEngineList",
  "filter.languages": "languageList",
  "filter.modifiedSince": "modifiedSince",
  filter: "",
  after: "cursor",
  first: "page[limit]",
};

const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Spec 3's import parameters as the graph's filter and paging arguments. The page size and the
 * form of modifiedSince are checked here with spec 3's codes: the graph's connection refuses a
 * page size by its own rule, and its DateTime takes any RFC 3339 instant.
 */
export function importVariables(query: Record<string, unknown>, withLanguages: boolean) {
  const limit = Number(query["page[limit]"]);
  if (!Number.isInteger(limit) || limit < 1) throw pagingRefusal("PAGE_SIZE_TOO_SMALL", "page[limit]", "page_size_too_small", "page[limit] must be 1 or more");
  if (limit > MAX_IMPORT_PAGE) throw pagingRefusal("PAGE_SIZE_TOO_LARGE", "page[limit]", "page_size_too_large", `page[limit] must be at most ${MAX_IMPORT_PAGE}`);
  const since = query.modifiedSince;
  if (since != null && (typeof since !== "string" || !UTC_DATE_TIME.test(since) || Number.isNaN(Date.parse(since)) || new Date(since).toISOString() !== since)) {
    throw pagingRefusal("INVALID_MODIFIED_SINCE", "modifiedSince", "invalid_modified_since", "modifiedSince must be a UTC date-time yyyy-MM-ddTHH:mm:ss.SSSZ");
  }
  return {
    filter: {
      countryCodes: list(query.countryCodeList),
      bookingEngineNames: list(query.bookingEngineList),
      ...(withLanguages ? { languages: list(query.languageList) } : {}),
      modifiedSince: since ?? null,
    },
    first: limit,
    after: query.cursor ?? null,
  };
}

/**
 * Country or language codes that are none cannot be typed: spec 3's INVALID_COUNTRY or
 * INVALID_LANGUAGE (the service's own refusal, naming the parameter) comes after the import's
 * access and organisation checks, which a one-activity page without filters runs.
 */
export const malformedImportCodes = (withLanguages: boolean) =>
  refusedBeforeTyping(
    (request) => {
      // The parameters this layer checks itself (the page size, modifiedSince's form) come first, as they do for any import.
      const { filter } = importVariables(request.query as Record<string, unknown>, withLanguages);
      return importCodesRefusal(filter);
    },
    { operation: /* GraphQL */ `query RestImportAccess { activeActivities(first: 1) { asOf } }` },
    (refusal) => {
      throw restErrorFrom([refusal.toJSON()], {}, IMPORT_PARAMETERS);
    },
  );

/** What an import connection answers for spec 3's meta. */
export interface ImportConnectionData {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: { count: number };
  asOf: string;
}

/** The GraphQL selection of an import connection that spec 3's meta is made from. */
export const IMPORT_META_FIELDS = "pageInfo { hasNextPage endCursor } totalCount { count } asOf";

/** Spec 3's meta of an import page: nextCursor is the page's last cursor while activities follow it. */
export function importMeta(connection: ImportConnectionData, request: FastifyRequest) {
  const nextCursor = connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null;
  return { estimatedCount: connection.totalCount.count, nextCursor: nextCursor ?? "", asOf: connection.asOf, links: importLinks(request, nextCursor) };
}

export const list = (value: unknown): string[] | null =>
  typeof value === "string" && value.trim() !== "" ? value.split(",").map((item) => item.trim()).filter(Boolean) : null;

/** links.self is the request as made; links.next the same with the next cursor, empty on the last page. */
function importLinks(request: FastifyRequest, nextCursor: string | null) {
  const self = selfLink(request);
  let next = "";
  if (nextCursor) {
    const url = new URL(self);
    url.searchParams.set("cursor", nextCursor);
    next = url.toString();
  }
  return { self: self.toString(), next };
}

export const importMetaSchema: JsonSchema = answer(
  {
    estimatedCount: { type: "integer", description: "Approximate: exact up to 10,000" },
    nextCursor: { type: "string", description: "Empty on the last page" },
    asOf: { type: "string", description: "When this run began; use it as modifiedSince for the next run" },
    links: answer({ self: { type: "string" }, next: { type: "string", description: "Empty on the last page" } }, ["self", "next"]),
  },
  ["estimatedCount", "nextCursor", "asOf", "links"],
);

