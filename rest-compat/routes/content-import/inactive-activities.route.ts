import { answer, obj } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { IMPORT_META_FIELDS, IMPORT_PARAMETERS, importMeta, importMetaSchema, importQuery, importVariables, malformedImportCodes, type ImportConnectionData } from "./import-common.js";

interface Data {
  inactiveActivities: ImportConnectionData & { nodes: { legacyResourceId: number }[] };
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
    query RestInactiveActivities($filter: InactiveActivityFilter, $first: Int!, $after: String) {
      inactiveActivities(filter: $filter, first: $first, after: $after) { nodes { legacyResourceId } ${IMPORT_META_FIELDS} }
    }
  `,
  parameters: IMPORT_PARAMETERS,
  otherwise: malformedImportCodes(false),
  variables: (request) => importVariables(request.query as Record<string, unknown>, false),
  respond: ({ inactiveActivities }, request) => ({ data: inactiveActivities.nodes.map((node) => ({ id: node.legacyResourceId })), meta: importMeta(inactiveActivities, request) }),
};
