import { obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { importLinks, importMetaSchema, importQuery, list } from "./import-common.js";

interface Data {
  /** records: spec 3's import records, built by the catalogue (subgraphs/catalogue/import/import-record.ts). */
  activeActivities: { records: Record<string, unknown>[]; estimatedCount: number; nextCursor: string | null; asOf: string };
}

/** GET /content/v0/import/activities/active (spec 3, bulk import of active activities). */
export const activeActivitiesRoute: RestRoute<Data> = {
  method: "GET",
  url: "/content/v0/import/activities/active",
  schema: {
    summary: "Get active activities (bulk import)",
    description:
      "Keyset pages by id with an opaque, signed cursor: a run neither skips nor repeats an activity while the catalogue changes. 400 codes: ORGANISATION_REQUIRED, PAGE_SIZE_TOO_SMALL, PAGE_SIZE_TOO_LARGE, INVALID_MODIFIED_SINCE, INVALID_CURSOR, INVALID_COUNTRY, INVALID_LANGUAGE.",
    tags: ["Bulk import"],
    querystring: obj({ ...importQuery, languageList: str("Comma-separated ISO 639-1 codes: activities with a title in one of them, texts limited to them") }, { additionalProperties: false }),
    response: {
      200: { type: "object", properties: { data: { type: "array", items: { type: "object", additionalProperties: true } }, meta: importMetaSchema } },
    },
  },
  operation: /* GraphQL */ `
    query RestActiveActivities($countryCodes: [String!], $bookingEngines: [String!], $languages: [String!], $modifiedSince: String, $cursor: String, $limit: Int!) {
      activeActivities(countryCodes: $countryCodes, bookingEngines: $bookingEngines, languages: $languages, modifiedSince: $modifiedSince, cursor: $cursor, limit: $limit) {
        estimatedCount nextCursor asOf records
      }
    }
  `,
  parameters: { countryCodes: "countryCodeList", bookingEngines: "bookingEngineList", languages: "languageList", limit: "page[limit]" },
  // Up to 1,000 free-form records a page: the compiled serializer was a fifth of the page's time.
  plainJson: true,
  variables: (request) => {
    const q = request.query as Record<string, unknown>;
    return {
      countryCodes: list(q.countryCodeList),
      bookingEngines: list(q.bookingEngineList),
      languages: list(q.languageList),
      modifiedSince: q.modifiedSince ?? null,
      cursor: q.cursor ?? null,
      limit: q["page[limit]"],
    };
  },
  respond: ({ activeActivities }, request) => ({
    data: activeActivities.records,
    meta: {
      estimatedCount: activeActivities.estimatedCount,
      nextCursor: activeActivities.nextCursor ?? "",
      asOf: activeActivities.asOf,
      links: importLinks(request, activeActivities.nextCursor),
    },
  }),
};
