import { compact, idParam, int, num, obj, str, type JsonSchema } from "../../json-schema.js";

/** The supplier request body of spec 1 (create and update). */
export const supplierRequestSchema: JsonSchema = obj(
  {
    externalId: str("Caller's identifier of the supplier (at most 255)"),
    country: str("ISO 3166-1 alpha-2"),
    bookingEngine: int("Booking engine id: required for PLATFORM_CATALOG_MANAGEMENT callers, the caller's own otherwise"),
    channel: str("Upload channel (at most 32)"),
    name: str("Supplier name (at most 255)"),
    endpoint: str("Supplier endpoint (at most 255)"),
    logo: str("Logo (at most 255)"),
    supplierContact: obj({
      website: str("An absolute http or https URL (at most 512)"),
      email: str("E-mail address, at most 255"),
      telephone: str("A telephone number: an optional leading +, 5 to 15 digits grouped by spaces, hyphens, dots, slashes or parentheses, an optional extension (at most 255)"),
      address: str("At most 255"),
    }),
    geoLocation: obj({
      latitude: num("-90 to 90"),
      longitude: num("-180 to 180"),
      geoHash: str("Computed from the coordinates when absent"),
    }),
  },
  { required: ["externalId", "country"] },
);

export const supplierIdParams = obj({ supplierId: idParam("Supplier id assigned at creation") }, { required: ["supplierId"] });

/** The GraphQL selection every supplier response is built from. */
export const SUPPLIER_FIELDS = /* GraphQL */ `
  fragment RestSupplier on Supplier {
    legacyResourceId name externalId channel endpoint logo countryCode createdAt updatedAt isOnlineBookable
    bookingEngine { name }
    contact { website email telephone address }
    geoLocation { latitude longitude geoHash }
  }
`;

export interface SupplierData {
  legacyResourceId: number;
  name: string | null;
  externalId: string;
  channel: string | null;
  endpoint: string | null;
  logo: string | null;
  countryCode: string;
  createdAt: string;
  updatedAt: string;
  isOnlineBookable: boolean;
  bookingEngine: { name: string };
  contact: Record<string, string | null> | null;
  geoLocation: Record<string, number | string | null> | null;
}

/** "Supplier as returned" (spec 1); the engine is shown by name although requests carry its id. */
export function supplierBody(s: SupplierData) {
  return compact({
    id: s.legacyResourceId,
    name: s.name,
    externalId: s.externalId,
    channel: s.channel,
    creationDate: s.createdAt,
    updateDate: s.updatedAt,
    endpoint: s.endpoint,
    logo: s.logo,
    supplierContact: s.contact ? compact(s.contact) : null,
    geoLocation: s.geoLocation ? compact(s.geoLocation) : null,
    country: s.countryCode,
    bookingEngine: s.bookingEngine.name,
    onlineBookable: s.isOnlineBookable,
  });
}

/** The input fields a REST caller knows by spec 1's names. */
export const SUPPLIER_PARAMETERS = { input: "", countryCode: "country", contact: "supplierContact", bookingEngineId: "bookingEngine" };

/** Items of the supplier list carry the documented subset only. */
export const supplierListFields = ["id", "name", "externalId", "channel", "creationDate", "updateDate", "country", "bookingEngine", "onlineBookable"] as const;

export function supplierListItem(s: SupplierData) {
  const body = supplierBody(s) as Record<string, unknown>;
  return Object.fromEntries(supplierListFields.filter((field) => field in body).map((field) => [field, body[field]]));
}

const SUPPLIER_REQUIRED = ["id", "externalId", "creationDate", "updateDate", "country", "bookingEngine", "onlineBookable"];

export const supplierResponseSchema: JsonSchema = {
  type: "object",
  description: "Supplier as returned; unset optional fields are absent",
  required: SUPPLIER_REQUIRED,
  properties: {
    id: { type: "integer" },
    name: { type: "string" },
    externalId: { type: "string" },
    channel: { type: "string" },
    creationDate: { type: "string", format: "date-time" },
    updateDate: { type: "string", format: "date-time" },
    endpoint: { type: "string" },
    logo: { type: "string" },
    supplierContact: { type: "object", properties: { website: { type: "string" }, email: { type: "string" }, telephone: { type: "string" }, address: { type: "string" } } },
    geoLocation: { type: "object", properties: { latitude: { type: "number" }, longitude: { type: "number" }, geoHash: { type: "string" } } },
    country: { type: "string" },
    bookingEngine: { type: "string", description: "Booking engine name" },
    onlineBookable: { type: "boolean" },
  },
};

export const supplierListItemSchema: JsonSchema = {
  type: "object",
  description: "Supplier list item: the documented subset",
  required: SUPPLIER_REQUIRED.filter((field) => (supplierListFields as readonly string[]).includes(field)),
  properties: Object.fromEntries(supplierListFields.map((field) => [field, supplierResponseSchema.properties![field]])),
};
