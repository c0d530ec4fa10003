import { errorResponse } from "../../error-body.js";
import { answer, arr, obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { refusedUnlessEmpty, USER_ERRORS, type UserErrorData } from "../../user-errors.js";

interface OctoSettings {
  baseUrl: string;
  capabilities: string[];
  octoSupplierId: string;
  octoSupplierName: string;
  countryCode: string;
  registeredAt: string;
  updatedAt: string;
}

interface Data {
  registerOctoEngine: { bookingEngine: { legacyResourceId: number; name: string; kind: string; octo: OctoSettings }; userErrors: UserErrorData[] };
}

/** The graph's capability values by the wire names REST takes and shows. */
const CAPABILITIES: Record<string, string> = { "octo/pricing": "PRICING", "octo/content": "CONTENT", "octo/questions": "QUESTIONS" };
const WIRE_CAPABILITIES = Object.fromEntries(Object.entries(CAPABILITIES).map(([wire, value]) => [value, wire]));

const settingsSchema = answer({
  baseUrl: str("The supplier system's base URL"),
  capabilities: arr(str("An OCTO capability"), "Octo-Capabilities asked for on every call"),
  octoSupplierId: str("The supplier system's id (GET /supplier)"),
  octoSupplierName: str("The supplier system's name"),
  country: str("ISO 3166-1 alpha-2 country of the suppliers imported from it"),
  registeredAt: { type: "string", format: "date-time" },
  updatedAt: { type: "string", format: "date-time" },
}, ["baseUrl", "capabilities", "octoSupplierId", "octoSupplierName", "country", "registeredAt", "updatedAt"]);

/** PUT /api/booking-engines/octo/{name} (extension, docs/octo-engine.md): register a supplier system speaking OCTO. */
export const registerOctoEngineRoute: RestRoute<Data> = {
  method: "PUT",
  url: "/api/booking-engines/octo/:name",
  schema: {
    operationId: "registerOctoEngine",
    summary: "Register an OCTO supplier system as a booking engine (extension)",
    description:
      "PLATFORM_CATALOG_MANAGEMENT only. The system is asked first, with the key given (GET /capabilities, GET /supplier): nothing is saved when it does not answer as OCTO (400 ENGINE_VERIFICATION_FAILED), refuses the key (400 ENGINE_VERIFICATION_FAILED naming apiKey) or lacks a capability (400 ENGINE_CAPABILITY_MISSING). Registering the same name again replaces its URL, key and capabilities. The key is stored sealed and never shown. 409 ENGINE_KIND_CONFLICT when the name belongs to an engine of another kind; 409 ENGINE_SECRETS_KEY_MISSING in production without ENGINE_SECRETS_KEY.",
    tags: ["Booking engines"],
    params: obj({ name: { type: "string", maxLength: 64, description: "Engine name: an upper-case identifier (A-Z, 0-9, _)" } }, { required: ["name"] }),
    body: obj(
      {
        baseUrl: { type: "string", maxLength: 2048, description: "The supplier system's base URL (https in production)" },
        apiKey: { type: "string", maxLength: 4096, description: "The API key the supplier system issued; stored sealed, never shown" },
        capabilities: arr({ type: "string", enum: ["octo/pricing", "octo/content", "octo/questions"] }, "Capabilities to ask for, octo/pricing among them. Absent: every one of these the supplier offers"),
        country: { type: "string", description: "ISO 3166-1 alpha-2: OCTO names no country, so the imported suppliers get this one" },
      },
      { required: ["baseUrl", "apiKey", "country"], additionalProperties: false },
    ),
    response: {
      200: answer({ id: { type: "integer" }, name: str("Engine name"), kind: str("OCTO"), octo: settingsSchema }, ["id", "name", "kind", "octo"], "The engine with its settings (never its key)"),
      409: errorResponse("ENGINE_KIND_CONFLICT or ENGINE_SECRETS_KEY_MISSING"),
    },
  },
  operation: /* GraphQL */ `
    mutation RestRegisterOctoEngine($input: RegisterOctoEngineInput!) {
      registerOctoEngine(input: $input) {
        bookingEngine { legacyResourceId name kind octo { baseUrl capabilities octoSupplierId octoSupplierName countryCode registeredAt updatedAt } }
        ${USER_ERRORS}
      }
    }
  `,
  parameters: { input: "", countryCode: "country" },
  variables: (request) => {
    const body = request.body as { baseUrl: string; apiKey: string; capabilities?: string[]; country: string };
    return {
      input: {
        name: (request.params as { name: string }).name,
        baseUrl: body.baseUrl,
        apiKey: body.apiKey,
        capabilities: body.capabilities?.map((capability) => CAPABILITIES[capability]) ?? null,
        countryCode: body.country,
      },
    };
  },
  respond: ({ registerOctoEngine }) => {
    const { legacyResourceId, octo, ...engine } = refusedUnlessEmpty(registerOctoEngine, { countryCode: "country" }).bookingEngine;
    const { countryCode, capabilities, ...settings } = octo;
    return { id: legacyResourceId, ...engine, octo: { ...settings, capabilities: capabilities.map((value) => WIRE_CAPABILITIES[value]), country: countryCode } };
  },
};
