import { obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { compact, importLinks, importMetaSchema, importQuery, list } from "./import-common.js";

type Translations = { translations: Record<string, string> } | null;
interface Node {
  uuid: string;
  slug: string;
  family: string;
  level: number;
  parentUuid: string;
  nameFullPath: string | null;
  version: number;
  isCurrent: boolean;
  startDate: string;
  name: { text: string | null; translations: Record<string, string> };
}
interface ImportProduct {
  [field: string]: unknown;
  id: number;
  title: Translations;
  description: Translations;
  bookingUrl: Translations;
  onlineBookable: Record<string, boolean>;
  bookingEngine: { name: string; displayName: string };
  galleryImages: { url: string; order: number | null }[];
  supplier: { id: number; externalId: string; name: string | null; creationDate: string; updateDate: string };
  country: { name: { text: string | null } } | null;
  geoLocation: Record<string, unknown> | null;
  taxonomies: Node[][];
}
interface Data {
  activeActivities: { data: ImportProduct[]; estimatedCount: number; nextCursor: string | null; asOf: string };
}

const NODE = "uuid slug family level parentUuid nameFullPath version isCurrent startDate name { text translations }";
const FIELDS = `
  id externalId creationDate updateDate instantConfirmation instantDelivery availabilityType redemptionMethod
  title { translations } description { translations } bookingUrl { translations } onlineBookable
  bookingEngine { name displayName } minPrice maxPrice retailPrice estimatedCommissionRate estimatedNetPrice priceCurrency
  address placeId website geoLocation { latitude longitude geoHash } duration durationHours galleryImages { url order }
  supplier { id externalId name creationDate updateDate }
  descriptors { type reason } availableLanguages cityName zipCode rating numberOfRatings country { name { text } }
  taxonomies { ${NODE} }
`;

/** Keeps only the languages asked for (languageList), when any were. */
function only<T>(values: Record<string, T> | null | undefined, languages: string[] | null): Record<string, T> | null {
  if (!values) return null;
  if (!languages) return values;
  return Object.fromEntries(Object.entries(values).filter(([language]) => languages.includes(language)));
}

/** The import record of spec 3; price fields by the caller's commercial model (absent fields are those of the other model). */
function importRecord(p: ImportProduct, languages: string[] | null) {
  return compact({
    id: p.id,
    externalId: p.externalId,
    title: only(p.title?.translations, languages),
    creationDate: p.creationDate,
    updateDate: p.updateDate,
    instantConfirmation: p.instantConfirmation,
    instantDelivery: p.instantDelivery,
    availabilityType: p.availabilityType,
    redemptionMethod: p.redemptionMethod,
    description: only(p.description?.translations, languages),
    bookingEngine: p.bookingEngine.name,
    bookingEngineName: p.bookingEngine.displayName,
    bookingUrl: only(p.bookingUrl?.translations, languages),
    minPrice: p.minPrice,
    maxPrice: p.maxPrice,
    retailPrice: p.retailPrice,
    estimatedCommissionRate: p.estimatedCommissionRate,
    estimatedNetPrice: p.estimatedNetPrice,
    priceCurrency: p.priceCurrency,
    address: p.address,
    placeId: p.placeId,
    website: p.website,
    geoLocation: p.geoLocation ? compact(p.geoLocation) : null,
    duration: p.duration,
    durationHours: p.durationHours,
    galleryImages: p.galleryImages.map((image, index) => ({ id: `${p.id}-${image.order ?? index + 1}`, url: image.url, order: image.order ?? index + 1 })),
    supplier: { id: p.supplier.id, externalId: p.supplier.externalId, name: p.supplier.name, creationDate: p.supplier.creationDate, updateDate: p.supplier.updateDate, contact: { id: p.supplier.id } },
    onlineBookable: only(p.onlineBookable, languages),
    descriptors: p.descriptors,
    availableLanguages: p.availableLanguages,
    cityName: p.cityName,
    zipCode: p.zipCode,
    rating: p.rating,
    numberOfRatings: p.numberOfRatings,
    countryName: p.country?.name.text ?? null,
    taxonomies: p.taxonomies.map((path) =>
      path.map((node) =>
        compact({
          uuid: node.uuid,
          name: node.name.text,
          level: node.level,
          slug: node.slug,
          family: node.family,
          parentUuid: node.parentUuid,
          version: node.version,
          isCurrent: node.isCurrent,
          startDate: node.startDate,
          nameTranslation: node.name.translations,
          value: 1,
          nameFullPath: node.nameFullPath,
        }),
      ),
    ),
  });
}

/** GET /content/v0/import/activities/active (spec 3, bulk import of active activities). */
export const activeActivitiesRoute: RestRoute<Data> = {
  method: "GET",
  url: "/content/v0/import/activities/active",
  schema: {
    summary: "Get active activities (bulk import)",
    description:
      "Keyset pages by id with an opaque, signed cursor: a run neither skips nor repeats an activity while the catalogue changes. 400 codes: ORGANISATION_REQUIRED, PAGE_SIZE_TOO_SMALL, PAGE_SIZE_TOO_LARGE, INVALID_MODIFIED_SINCE, INVALID_CURSOR, INVALID_COUNTRY, INVALID_LANGUAGE.",
    tags: ["Bulk import"],
    querystring: obj({ ...importQuery, languageList: str("Comma-separated ISO 639-1 codes: activities with a title in one of them, texts limited to them") }, { additionalProperties: false }),
    response: {
      200: { type: "object", properties: { data: { type: "array", items: { type: "object", additionalProperties: true } }, meta: importMetaSchema } },
    },
  },
  operation: /* GraphQL */ `
    query RestActiveActivities($countryCodes: [String!], $bookingEngines: [String!], $languages: [String!], $modifiedSince: String, $cursor: String, $limit: Int!) {
      activeActivities(countryCodes: $countryCodes, bookingEngines: $bookingEngines, languages: $languages, modifiedSince: $modifiedSince, cursor: $cursor, limit: $limit) {
        estimatedCount nextCursor asOf data { ${FIELDS} }
      }
    }
  `,
  parameters: { countryCodes: "countryCodeList", bookingEngines: "bookingEngineList", languages: "languageList", limit: "page[limit]" },
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
  respond: ({ activeActivities }, request) => {
    const languages = list((request.query as Record<string, unknown>).languageList);
    return {
      data: activeActivities.data.map((p) => importRecord(p, languages)),
      meta: {
        estimatedCount: activeActivities.estimatedCount,
        nextCursor: activeActivities.nextCursor ?? "",
        asOf: activeActivities.asOf,
        links: importLinks(request, activeActivities.nextCursor),
      },
    };
  },
};
