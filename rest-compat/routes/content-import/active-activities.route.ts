import { answer, languageMap, obj, str, type JsonSchema } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { importLinks, importMetaSchema, importQuery, list } from "./import-common.js";

const text = (description: string): JsonSchema => ({ type: "string", description });
const number = (description: string): JsonSchema => ({ type: "number", description });
const integer = (description: string): JsonSchema => ({ type: "integer", description });
const flag = (description: string): JsonSchema => ({ type: "boolean", description });

/** A taxonomy node of an import record (import-record.ts, taxonomiesOf), in the order it is written. */
const taxonomyNode = answer(
  {
    uuid: text("Node id"),
    level: integer("1 or 2"),
    slug: text("Slug"),
    family: text("activities"),
    parentUuid: text("A top-level node's own uuid; a child's parent uuid and its own joined by '#'"),
    version: integer("Version"),
    isCurrent: flag("Current version"),
    startDate: text("YYYY-MM-DD"),
    nameTranslation: languageMap("Name per language"),
    value: number("Score"),
    name: text("Name in the Accept-Language language"),
    nameFullPath: text("Level 2: 'Parent#Child'"),
  },
  ["uuid", "level", "slug", "family", "parentUuid", "version", "isCurrent", "startDate", "nameTranslation", "value"],
);

/**
 * The import record of spec 3, every member in the order import-record.ts writes them, those every
 * record has first (the route sends records with JSON.stringify, and a test holds the bytes equal
 * to this schema's compiled serializer, which writes required members first). Texts are language
 * objects, limited to languageList when given.
 */
const importRecordSchema = answer(
  {
    id: integer("Product id"),
    externalId: text("Identifier on the supplier side"),
    title: languageMap("Title per language"),
    creationDate: { type: "string", format: "date-time" },
    updateDate: { type: "string", format: "date-time" },
    bookingEngine: text("Booking engine name"),
    bookingEngineName: text("Booking engine display name"),
    galleryImages: { type: "array", items: answer({ id: text("Image id"), url: text("URL"), order: integer("Position") }, ["id", "url", "order"]) },
    supplier: answer(
      {
        id: integer("Supplier id"),
        externalId: text("Caller's identifier of the supplier"),
        name: { type: ["string", "null"], description: "Supplier name; null when it has none" },
        creationDate: { type: "string", format: "date-time" },
        updateDate: { type: "string", format: "date-time" },
        contact: answer({ id: integer("The supplier's id") }, ["id"]),
      },
      ["id", "externalId", "name", "creationDate", "updateDate", "contact"],
    ),
    onlineBookable: { type: "object", description: "Bookable through the booking flow, per language of the title", additionalProperties: { type: "boolean" } },
    descriptors: { type: "array", items: answer({ type: text("PROMOTED or EXCLUDED"), reason: text("PROMOTED or DEPRECATED") }, ["type", "reason"]) },
    availableLanguages: { type: "array", items: { type: "string" }, description: "Languages of the title" },
    taxonomies: { type: "array", description: "Taxonomy paths, level 1 then level 2", items: { type: "array", items: taxonomyNode } },
    instantConfirmation: flag("Instant confirmation"),
    instantDelivery: flag("Instant delivery"),
    availabilityType: text("START_TIME or OPENING_HOURS"),
    redemptionMethod: text("MANIFEST, DIGITAL or PRINT"),
    description: languageMap("Description per language"),
    bookingUrl: languageMap("Booking URL per language"),
    minPrice: number("Minimum retail price (reseller model: recommended)"),
    maxPrice: number("Maximum retail price (reseller model: recommended)"),
    retailPrice: number("First adult retail price (reseller model: recommended)"),
    estimatedCommissionRate: number("Agent model only: commission as a ratio of the retail price"),
    estimatedNetPrice: number("Reseller model only: the estimated net price"),
    priceCurrency: text("ISO 4217"),
    address: text("Address"),
    placeId: text("Place id of a map provider"),
    website: text("Website"),
    geoLocation: answer({ latitude: number("-90 to 90"), longitude: number("-180 to 180"), geoHash: text("Geohash") }),
    duration: text("ISO 8601 duration"),
    durationHours: number("The duration in hours"),
    cityName: text("City"),
    zipCode: text("Postal code"),
    rating: number("0 to 5"),
    numberOfRatings: integer("Rating count"),
    countryName: text("Country name"),
  },
  ["id", "externalId", "title", "creationDate", "updateDate", "bookingEngine", "bookingEngineName", "galleryImages", "supplier", "onlineBookable", "descriptors", "availableLanguages", "taxonomies"],
  "Import record (spec 3); unset fields absent",
);

interface Data {
  /** records: spec 3's import records, built by the catalogue (subgraphs/catalogue/import/import-record.ts). */
  activeActivities: { records: Record<string, unknown>[]; estimatedCount: number; nextCursor: string | null; asOf: string };
}

/** GET /content/v0/import/activities/active (spec 3, bulk import of active activities). */
export const activeActivitiesRoute: RestRoute<Data> = {
  method: "GET",
  url: "/content/v0/import/activities/active",
  schema: {
    operationId: "getActiveActivities",
    summary: "Get active activities (bulk import)",
    description:
      "Keyset pages by id with an opaque, signed cursor: a run neither skips nor repeats an activity while the catalogue changes. 400 codes: ORGANISATION_REQUIRED, PAGE_SIZE_TOO_SMALL, PAGE_SIZE_TOO_LARGE, INVALID_MODIFIED_SINCE, INVALID_CURSOR, INVALID_COUNTRY, INVALID_LANGUAGE.",
    tags: ["Bulk import"],
    querystring: obj({ ...importQuery, languageList: str("Comma-separated ISO 639-1 codes: activities with a title in one of them, texts limited to them") }, { additionalProperties: false }),
    response: {
      200: answer({ data: { type: "array", items: importRecordSchema }, meta: importMetaSchema }, ["data", "meta"], "A page of active activities"),
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
