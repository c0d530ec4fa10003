import { compact, int, str, type JsonSchema } from "../../json-schema.js";

const text = "{ text }";
/** The GraphQL selection of the consumer product record (spec 3), texts in the caller's language. */
export const CONSUMER_PRODUCT_FIELDS = /* GraphQL */ `
  fragment ConsumerProduct on Product {
    id externalId creationDate updateDate internalName reference
    instantConfirmation instantDelivery likelyToBeSoldOut skipTheLine availabilityType redemptionMethod
    title ${text} subtitle ${text} shortDescription ${text} description ${text} experienceHighlights ${text}
    cancellationCutOff ${text} modalitiesIncluded ${text} modalitiesExcluded ${text} modalitiesAdditionalInfo ${text}
    thumbnailImage bookingEngine { name displayName } bookingLink(externalClientId: $externalClientId)
    minPrice maxPrice priceCurrency pricingUnit priceLevel averagePrice minParticipants maxParticipants
    address placeId website geoLocation { latitude longitude geoHash } duration durationHours
    galleryImages { title url order }
    supplier { id name externalId creationDate updateDate country countryName supplierContact { website email telephone address } }
    onlineBookable descriptors { type reason } availableLanguages
    cityName zipCode countryCode country { name ${text} } rating numberOfRatings
    taxonomies { slug name ${text} level }
    availabilityPeriods isCancellable cancellationCutOffAmount cancellationCutOffUnit handiAccess
  }
`;

type Text = { text: string | null } | null;
export interface ConsumerProductData {
  [field: string]: unknown;
  title: Text;
  bookingEngine: { name: string; displayName: string };
  bookingLink: string | null;
  supplier: {
    id: number;
    name: string | null;
    externalId: string;
    creationDate: string;
    updateDate: string;
    country: string;
    countryName: string | null;
    supplierContact: Record<string, string | null> | null;
  };
  onlineBookable: Record<string, boolean>;
  availableLanguages: string[];
  country: { name: Text } | null;
  taxonomies: { slug: string; name: Text; level: number }[][];
  galleryImages: { title: string | null; url: string; order: number | null }[];
  geoLocation: Record<string, unknown> | null;
  availabilityPeriods: { weeklyPeriods?: unknown } | null;
}

const textFields = [
  "title",
  "subtitle",
  "shortDescription",
  "description",
  "experienceHighlights",
  "cancellationCutOff",
  "modalitiesIncluded",
  "modalitiesExcluded",
  "modalitiesAdditionalInfo",
] as const;

/** The consumer product record of spec 3: strings in the caller's language, the engine by name, taxonomy paths of {id, name, level}. */
export function consumerProductBody(p: ConsumerProductData, languages: string[]) {
  const body: Record<string, unknown> = { ...p };
  for (const field of textFields) body[field] = (p[field] as Text)?.text ?? null;
  const language = languages.find((l) => l in p.onlineBookable) ?? p.availableLanguages[0];
  body.onlineBookable = language ? Boolean(p.onlineBookable[language]) : false;
  body.bookingEngine = p.bookingEngine.name;
  body.bookingEngineName = p.bookingEngine.displayName;
  body.bookingUrl = p.bookingLink;
  delete body.bookingLink;
  body.countryName = p.country?.name?.text ?? null;
  delete body.country;
  body.galleryImages = p.galleryImages.map((image) => compact(image));
  body.geoLocation = p.geoLocation ? compact(p.geoLocation) : null;
  body.taxonomies = p.taxonomies.map((path) => path.map((node) => ({ id: node.slug, name: node.name?.text ?? node.slug, level: node.level })));
  body.availabilityPeriods = p.availabilityPeriods?.weeklyPeriods ? { weeklyPeriods: p.availabilityPeriods.weeklyPeriods } : null;
  body.supplier = compact({
    id: p.supplier.id,
    name: p.supplier.name,
    externalId: p.supplier.externalId,
    creationDate: p.supplier.creationDate,
    updateDate: p.supplier.updateDate,
    contact: p.supplier.supplierContact ? compact(p.supplier.supplierContact) : null,
    countryCode: p.supplier.country,
    countryName: p.supplier.countryName,
  });
  return compact(body);
}

export const consumerProductSchema: JsonSchema = {
  type: "object",
  description: "Consumer product record (spec 3); texts in the Accept-Language language; unset fields absent",
  additionalProperties: true,
  properties: {
    id: { type: "integer" },
    externalId: { type: "string" },
    title: { type: "string" },
    bookingEngine: { type: "string" },
    bookingEngineName: { type: "string" },
    bookingUrl: { type: "string" },
    onlineBookable: { type: "boolean" },
    availableLanguages: { type: "array", items: { type: "string" } },
    taxonomies: { type: "array", items: { type: "array", items: { type: "object", properties: { id: { type: "string" }, name: { type: "string" }, level: { type: "integer" } } } } },
  },
};

/** externalClientId: at most 255 alphanumeric characters (spec 3). */
export const externalClientIdParam: JsonSchema = { type: "string", pattern: "^[A-Za-z0-9]{1,255}$", description: "At most 255 alphanumeric characters; appended to bookingUrl" };

/** Query parameters search and change detection share (spec 3). */
export const searchPagingQuery = {
  Search: { ...str("The search expression (docs/search.md), e.g. title:museum AND countryCode:FR"), maxLength: 2000 },
  resultsPerPage: { ...int("Default 100, at most 1000"), default: 100, minimum: -2_147_483_648, maximum: 2_147_483_647 },
  pageNumber: { ...int("From 1"), default: 1, minimum: -2_147_483_648, maximum: 2_147_483_647 },
  sortingField: { ...str("title (default), rating, numberOfRatings, minPrice, maxPrice, cityName, creationDate, updateDate or id"), default: "title" },
  sortingOrder: { ...str("asc (default) or desc"), default: "asc" },
  externalClientId: externalClientIdParam,
} satisfies Record<string, JsonSchema>;

export function searchPagingVariables(query: Record<string, unknown>) {
  return {
    search: query.Search ?? null,
    pageNumber: query.pageNumber,
    resultsPerPage: query.resultsPerPage,
    sortingField: query.sortingField,
    sortingOrder: query.sortingOrder,
    externalClientId: query.externalClientId ?? null,
  };
}

/** The {pageNumber, resultsPerPage, totalResults, items} envelope of search-style lists. */
export const pageEnvelope = (items: JsonSchema): JsonSchema => ({
  type: "object",
  properties: {
    pageNumber: { type: "integer" },
    resultsPerPage: { type: "integer" },
    totalResults: { type: "integer" },
    totalResultsEstimated: { type: "boolean", description: "Extension: totalResults is an estimate, because more than 1,000 products matched (the most that are counted exactly)" },
    items: { type: "array", items },
  },
});
