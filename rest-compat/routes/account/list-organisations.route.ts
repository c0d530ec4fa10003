import type { RestRoute } from "../../rest-route.js";
import { ORGANISATION_FIELDS } from "./get-me.route.js";
import { organisationSchema, toOrganisationBody } from "./get-me.route.js";

interface Data {
  organisations: Parameters<typeof toOrganisationBody>[0][];
}

/** Extension path (docs/spec-decisions.md): every organisation, for platform roles. */
export const listOrganisationsRoute: RestRoute<Data> = {
  method: "GET",
  url: "/api/organisations",
  schema: {
    operationId: "listOrganisations",
    summary: "Every organisation (platform roles only)",
    description: "Extension to the contract. 403 for CONTENT_PARTNER and CONSUMER accounts.",
    tags: ["Account"],
    response: {
      200: { type: "object", description: "Every organisation", properties: { items: { type: "array", items: { ...organisationSchema, type: "object" } } }, required: ["items"] },
    },
  },
  operation: /* GraphQL */ `
    query RestListOrganisations {
      organisations { ${ORGANISATION_FIELDS} }
    }
  `,
  respond: ({ organisations }) => ({ items: organisations.map(toOrganisationBody) }),
};
