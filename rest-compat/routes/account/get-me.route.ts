import type { RestRoute } from "../../rest-route.js";

interface Data {
  me: {
    legacyResourceId: string;
    username: string;
    roles: string[];
    environment: string;
    organisation: {
      legacyResourceId: number;
      name: string;
      countryCode: string;
      commercialModel: string;
      bookingEngine: { legacyResourceId: number; name: string } | null;
    } | null;
  };
}

/** What REST shows of an organisation, as the graph names it. */
export const ORGANISATION_FIELDS = "legacyResourceId name countryCode commercialModel bookingEngine { legacyResourceId name }";

const organisationSchema = {
  type: ["object", "null"],
  properties: {
    id: { type: "integer" },
    name: { type: "string" },
    country: { type: "string", description: "ISO 3166-1 alpha-2" },
    commercialModel: { type: "string", enum: ["AGENT", "RESELLER"] },
    bookingEngine: { type: ["string", "null"], description: "Booking engine name" },
    bookingEngineId: { type: ["integer", "null"] },
  },
  required: ["id", "name", "country", "commercialModel", "bookingEngine", "bookingEngineId"],
} as const;

/** Extension path (docs/spec-decisions.md): who the token belongs to, for integrators checking their setup. */
export const getMeRoute: RestRoute<Data> = {
  method: "GET",
  url: "/api/me",
  schema: {
    operationId: "getMe",
    summary: "The caller's account and organisation",
    description: "Extension to the contract: shows whom the bearer token identifies, its roles and its organisation.",
    tags: ["Account"],
    response: {
      200: {
        type: "object",
        description: "The caller's account; organisation null for platform accounts",
        properties: {
          id: { type: "string" },
          username: { type: "string" },
          roles: { type: "array", items: { type: "string" } },
          environment: { type: "string", enum: ["sandbox", "production"] },
          organisation: organisationSchema,
        },
        required: ["id", "username", "roles", "environment", "organisation"],
      },
    },
  },
  operation: /* GraphQL */ `
    query RestGetMe {
      me {
        legacyResourceId
        username
        roles
        environment
        organisation { ${ORGANISATION_FIELDS} }
      }
    }
  `,
  respond: ({ me }) => ({
    id: me.legacyResourceId,
    username: me.username,
    roles: me.roles,
    // The graph's enum names the token's environment in upper case.
    environment: me.environment.toLowerCase(),
    organisation: me.organisation && toOrganisationBody(me.organisation),
  }),
};

export function toOrganisationBody(organisation: NonNullable<Data["me"]["organisation"]>) {
  return {
    id: organisation.legacyResourceId,
    name: organisation.name,
    country: organisation.countryCode,
    commercialModel: organisation.commercialModel,
    bookingEngine: organisation.bookingEngine?.name ?? null,
    bookingEngineId: organisation.bookingEngine?.legacyResourceId ?? null,
  };
}

export { organisationSchema };
