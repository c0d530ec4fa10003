import { answer, answerInt, bool, languageMap, num, obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { IMPORT_META_FIELDS, IMPORT_PARAMETERS, importMeta, importMetaSchema, importQuery, importVariables, malformedImportCodes, type ImportConnectionData } from "./import-common.js";


/** A taxonomy node of an import record (activity-import.records.ts, taxonomiesOf), in the order it is written. */
const taxonomyNode = answer(
  {
    uuid: str("Node id"),
    level: answerInt("1 or 2"),
    slug: str("Slug"),
    family: str("activities"),
    parentUuid: str("A top-level node's own uuid; a child's parent uuid and its own joined by '#'"),
    version: answerInt("Version"),
    isCurrent: bool("Current version"),
    startDate: str("YYYY-MM-DD"),
    nameTranslation: languageMap("Name per language"),
    value: num("Score"),
    name: str("Name in the Accept-Language language"),
    nameFullPath: str("Level 2: 'Parent#Child'"),
  },
  ["uuid", "level", "slug", "family", "parentUuid", "version", "isCurrent", "startDate", "nameTranslation", "value"],
);

/**
 * The import record of spec 3, every member in the order activity-import.records.ts writes them, those every
 * record has first (the route sends records with JSON.stringify, and a test holds the bytes equal
 * to this schema's compiled serializer, which writes required members first). Texts are language
 * objects, limited to languageList when given.
 */
const importRecordSchema = answer(
  {
    id: answerInt("Product id"),
    externalId: str("Identifier on the supplier side"),
    title: languageMap("Title per language"),
    creationDate: { type: "string", format: "date-time" },
    updateDate: { type: "string", format: "date-time" },
    bookingEngine: str("Booking engine name"),
    bookingEngineName: str("Booking engine display name"),
    galleryImages: { type: "array", items: answer({ id: str("Image id"), url: str("URL"), order: answerInt("Position") }, ["id", "url", "order"]) },
    supplier: answer(
      {
        id: answerInt("Supplier id"),
        externalId: str("Caller's identifier of the supplier"),
        name: { type: ["string", "null"], description: "Supplier name; null when it has none" },
        creationDate: { type: "string", format: "date-time" },
        updateDate: { type: "string", format: "date-time" },
        contact: answer({ id: answerInt("The supplier's id") }, ["id"]),
      },
      ["id", "externalId", "name", "creationDate", "updateDate", "contact"],
    ),
    onlineBookable: { type: "object", description: "Bookable through the booking flow, per language of the title", additionalProperties: { type: "boolean" } },
    descriptors: { type: "array", items: answer({ type: str("PROMOTED or EXCLUDED"), reason: str("PROMOTED or DEPRECATED") }, ["type", "reason"]) },
    availableLanguages: { type: "array", items: { type: "string" }, description: "Languages of the title" },
    taxonomies: { type: "array", description: "Taxonomy paths, level 1 then level 2", items: { type: "array", items: taxonomyNode } },
    instantConfirmation: bool("Instant confirmation"),
    instantDelivery: bool("Instant delivery"),
    availabilityType: str("START_TIME or OPENING_HOURS"),
    redemptionMethod: str("MANIFEST, DIGITAL or PRINT"),
    description: languageMap("Description per language"),
    bookingUrl: languageMap("Booking URL per language"),
    minPrice: num("Minimum retail price (reseller model: recommended)"),
    maxPrice: num("Maximum retail price (reseller model: recommended)"),
    retailPrice: num("First adult retail price (reseller model: recommended)"),
    estimatedCommissionRate: num("Agent model only: commission as a ratio of the retail price"),
    estimatedNetPrice: num("Reseller model only: the estimated net price"),
    priceCurrency: str("ISO 4217"),
    address: str("Address"),
    placeId: str("Place id of a map provider"),
    website: str("Website"),
    geoLocation: answer({ latitude: num("-90 to 90"), longitude: num("-180 to 180"), geoHash: str("Geohash") }),
    duration: str("ISO 8601 duration"),
    durationHours: num("The duration in hours"),
    cityName: str("City"),
    zipCode: str("Postal code"),
    rating: num("0 to 5"),
    numberOfRatings: answerInt("Rating count"),
    countryName: str("Country name"),
  },
  ["id", "externalId", "title", "creationDate", "updateDate", "bookingEngine", "bookingEngineName", "galleryImages", "supplier", "onlineBookable", "descriptors", "availableLanguages", "taxonomies"],
  "Import record (spec 3); unset fields absent",
);

interface Data {
  /** records: spec 3's import records, built by the catalogue (subgraphs/catalogue/import/activity-import.records.ts). */
  activeActivities: ImportConnectionData & { records: Record<string, unknown>[] };
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
    query RestActiveActivities($filter: ActiveActivityFilter, $first: Int!, $after: String) {
      activeActivities(filter: $filter, first: $first, after: $after) { records ${IMPORT_META_FIELDS} }
    }
  `,
  parameters: IMPORT_PARAMETERS,
  // Up to 1,000 free-form records a page: the compiled serializer was a fifth of the page's time.
  plainJson: true,
  otherwise: malformedImportCodes(true),
  variables: (request) => importVariables(request.query as Record<string, unknown>, true),
  respond: ({ activeActivities }, request) => ({ data: activeActivities.records, meta: importMeta(activeActivities, request) }),
};
