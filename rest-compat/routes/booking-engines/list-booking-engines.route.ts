import type { RestRoute } from "../../rest-route.js";

interface Data {
  bookingEngines: { legacyResourceId: number; name: string; kind: string }[];
}

/** Extension path (docs/spec-decisions.md): the ids that supplier requests carry as `bookingEngine`. */
export const listBookingEnginesRoute: RestRoute<Data> = {
  method: "GET",
  url: "/api/booking-engines",
  schema: {
    operationId: "listBookingEngines",
    summary: "Booking engines and their ids",
    description: "Extension to the contract: supplier requests carry a booking engine id; this lists the ids and names.",
    tags: ["Booking engines"],
    querystring: {
      type: "object",
      additionalProperties: false,
      properties: { kind: { type: "string", enum: ["INVENTORY", "OCTO"], description: "Only engines of this adapter kind" } },
    },
    response: {
      200: {
        type: "object",
        description: "The booking engines",
        properties: {
          items: {
            type: "array",
            items: {
              type: "object",
              properties: { id: { type: "integer" }, name: { type: "string" }, kind: { type: "string", enum: ["INVENTORY", "OCTO"] } },
              required: ["id", "name", "kind"],
            },
          },
        },
        required: ["items"],
      },
    },
  },
  operation: /* GraphQL */ `
    query RestListBookingEngines($kind: BookingEngineKind) {
      bookingEngines(kind: $kind) { legacyResourceId name kind }
    }
  `,
  variables: (request) => ({ kind: (request.query as { kind?: string }).kind ?? null }),
  respond: ({ bookingEngines }) => ({ items: bookingEngines.map(({ legacyResourceId, ...engine }) => ({ id: legacyResourceId, ...engine })) }),
};
