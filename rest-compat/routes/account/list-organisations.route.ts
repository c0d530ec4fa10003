import { obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { ORGANISATION_FIELDS } from "./get-me.route.js";
import { organisationSchema, toOrganisationBody } from "./get-me.route.js";

interface Data {
  organisations: { nodes: Parameters<typeof toOrganisationBody>[0][]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

/** Extension path (docs/spec-decisions.md): every organisation by name, a page at a time, for platform roles. */
export const listOrganisationsRoute: RestRoute<Data> = {
  method: "GET",
  url: "/api/organisations",
  schema: {
    operationId: "listOrganisations",
    summary: "Every organisation (platform roles only)",
    description: "Extension to the contract: organisations by name, up to `first` (default and largest 100); `nextCursor`, given as `after`, reads the next page, and is null on the last. 403 for CONTENT_PARTNER and CONSUMER accounts.",
    tags: ["Account"],
    querystring: obj({ first: { type: "integer", minimum: 1, maximum: 100, description: "Page size" }, after: str("The nextCursor of the page before") }),
    response: {
      200: {
        type: "object",
        description: "A page of organisations",
        properties: {
          items: { type: "array", items: { ...organisationSchema, type: "object" } },
          nextCursor: { type: ["string", "null"], description: "Give it as `after` for the next page; null on the last" },
        },
        required: ["items", "nextCursor"],
      },
    },
  },
  operation: /* GraphQL */ `
    query RestListOrganisations($first: Int!, $after: String) {
      organisations(first: $first, after: $after) { nodes { ${ORGANISATION_FIELDS} } pageInfo { hasNextPage endCursor } }
    }
  `,
  variables: (request) => {
    const query = request.query as { first?: number; after?: string };
    return { first: query.first ?? 100, after: query.after ?? null };
  },
  respond: ({ organisations: { nodes, pageInfo } }) => ({ items: nodes.map(toOrganisationBody), nextCursor: pageInfo.hasNextPage ? pageInfo.endCursor : null }),
};
