import { answer, obj } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { importLinks, importMetaSchema, importQuery, list } from "./import-common.js";

interface Data {
  inactiveActivities: { data: { id: number }[]; estimatedCount: number; nextCursor: string | null; asOf: string };
}

/** GET /content/v0/import/activities/inactive (spec 3): ids of activities deleted or deprecated since modifiedSince. */
export const inactiveActivitiesRoute: RestRoute<Data> = {
  method: "GET",
  url: "/content/v0/import/activities/inactive",
  schema: {
    operationId: "getInactiveActivities",
    summary: "Get inactive activities (bulk import)",
    description:
      "Activities deleted or deprecated (updated at or after modifiedSince), as {id}. 400 codes: ORGANISATION_REQUIRED, PAGE_SIZE_TOO_LARGE, PAGE_SIZE_TOO_SMALL, MODIFIED_SINCE_OR_CURSOR_REQUIRED, INVALID_MODIFIED_SINCE, MODIFIED_SINCE_TOO_OLD (over 30 days), MODIFIED_SINCE_AFTER_CURSOR, INVALID_CURSOR.",
    tags: ["Bulk import"],
    querystring: obj(importQuery, { additionalProperties: false }),
    response: {
      200: answer({ data: { type: "array", items: answer({ id: { type: "integer" } }, ["id"]) }, meta: importMetaSchema }, ["data", "meta"], "A page of inactive activities"),
    },
  },
  operation: /* GraphQL */ `
    query RestInactiveActivities($countryCodes: [String!], $bookingEngines: [String!], $modifiedSince: String, $cursor: String, $limit: Int!) {
      inactiveActivities(countryCodes: $countryCodes, bookingEngines: $bookingEngines, modifiedSince: $modifiedSince, cursor: $cursor, limit: $limit) {
        estimatedCount nextCursor asOf data { id }
      }
    }
  `,
  parameters: { countryCodes: "countryCodeList", bookingEngines: "bookingEngineList", limit: "page[limit]" },
  variables: (request) => {
    const q = request.query as Record<string, unknown>;
    return { countryCodes: list(q.countryCodeList), bookingEngines: list(q.bookingEngineList), modifiedSince: q.modifiedSince ?? null, cursor: q.cursor ?? null, limit: q["page[limit]"] };
  },
  respond: ({ inactiveActivities }, request) => ({
    data: inactiveActivities.data,
    meta: {
      estimatedCount: inactiveActivities.estimatedCount,
      nextCursor: inactiveActivities.nextCursor ?? "",
      asOf: inactiveActivities.asOf,
      links: importLinks(request, inactiveActivities.nextCursor),
    },
  }),
};
