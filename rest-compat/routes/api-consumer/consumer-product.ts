import { type RefusalCode } from "../../../core/refusals.js";
import { offsetCursor } from "../../../subgraphs/common/relay/relay.connection.js";
import { MAX_SEARCH_PAGE_SIZE } from "../../../subgraphs/catalogue/search/search.service.js";
import { RestError, restRejected } from "../../error-body.js";
import { answer, answerInt, bool, int, num, str, type JsonSchema } from "../../json-schema.js";
import { weeklyPeriodsSchema } from "../api-supplier-product/product-body.js";

/**
 * The consumer product record of spec 3, built by the catalogue in one step per product
 * (subgraphs/catalogue/product/product.consumer-record.ts): texts in the caller's language, the engine by
 * name, taxonomy paths of {id, name, level}, bookingUrl with externalClientId.
 */
export const CONSUMER_PRODUCT_FIELDS = /* GraphQL */ `
  fragment ConsumerProduct on Product {
    consumerRecord(externalClientId: $externalClientId)
  }
`;

export interface ConsumerProductData {
  consumerRecord: Record<string, unknown> & { id: number };
}


/** The supplier part of a record, shared by its products' records (product.consumer-record.ts, supplierRecord). */
const supplierPart = answer(
  {
    id: answerInt("Supplier id"),
    externalId: str("Caller's identifier of the supplier"),
    creationDate: { type: "string", format: "date-time" },
    updateDate: { type: "string", format: "date-time" },
    countryCode: str("ISO 3166-1 alpha-2"),
    name: str("Supplier name"),
    contact: answer({ website: str("Website"), email: str("E-mail"), telephone: str("Telephone"), address: str("Postal address") }),
    countryName: str("Country name in the Accept-Language language"),
  },
  ["id", "externalId", "creationDate", "updateDate", "countryCode"],
);

/**
 * Every member of the consumer product record, in the order product.consumer-record.ts writes them: the
 * routes that send records use JSON.stringify (RestRoute.plainJson), and a test holds their bodies
 * equal to what this schema's compiled serializer writes, which is the required members first.
 * Members present on every record are required; the others are absent when the product has no
 * value for them.
 */
export const consumerRecordProperties = {
  id: answerInt("Product id; in product read and top activities the per-call tracking id when that feature is on (then productId is the catalogue id)"),
  externalId: str("Identifier on the supplier side"),
  title: str("Title in the Accept-Language language (else English, else any)"),
  bookingEngine: str("Booking engine name"),
  bookingEngineName: str("Booking engine display name"),
  onlineBookable: bool("Bookable through the booking flow in the answer's language"),
  availableLanguages: { type: "array", items: { type: "string" }, description: "Languages of the title" },
  taxonomies: {
    type: "array",
    description: "Taxonomy paths, level 1 then level 2",
    items: { type: "array", items: answer({ id: str("Slug"), name: str("Name in the Accept-Language language"), level: answerInt("1 or 2") }, ["id", "name", "level"]) },
  },
  creationDate: { type: "string", format: "date-time" },
  updateDate: { type: "string", format: "date-time" },
  galleryImages: { type: "array", description: "Gallery", items: answer({ title: str("Title"), url: str("URL"), order: answerInt("Position") }) },
  supplier: supplierPart,
  descriptors: { type: "array", description: "Flags: {EXCLUDED, DEPRECATED} for a deprecated product", items: answer({ type: str("PROMOTED or EXCLUDED"), reason: str("PROMOTED or DEPRECATED") }, ["type", "reason"]) },
  bookingUrl: str("Booking URL; with externalClientId appended when one was sent"),
  internalName: str("Internal name"),
  reference: str("Reference"),
  instantConfirmation: bool("Instant confirmation"),
  instantDelivery: bool("Instant delivery"),
  likelyToBeSoldOut: bool("Limited spots or high demand"),
  skipTheLine: bool("Priority access"),
  availabilityType: str("START_TIME or OPENING_HOURS"),
  redemptionMethod: str("MANIFEST, DIGITAL or PRINT"),
  subtitle: str("Subtitle"),
  shortDescription: str("Short description"),
  description: str("Description (may contain HTML)"),
  experienceHighlights: str("Highlights; lines separated by '/n'"),
  cancellationCutOff: str("How long before the start cancellation is possible"),
  modalitiesIncluded: str("Included"),
  modalitiesExcluded: str("Excluded"),
  modalitiesAdditionalInfo: str("Additional information"),
  thumbnailImage: str("Thumbnail URL"),
  minPrice: num("Minimum price"),
  maxPrice: num("Maximum price"),
  priceCurrency: str("ISO 4217"),
  pricingUnit: str("PER_PERSON, PER_VEHICLE, GROUP, FAMILY, PER_EQUIPMENT, PACKAGE or PER_BOAT"),
  priceLevel: answerInt("Quartile 1 to 4"),
  averagePrice: num("Average price"),
  minParticipants: answerInt("Fewest participants"),
  maxParticipants: answerInt("Most participants"),
  address: str("Address"),
  placeId: str("Place id of a map provider"),
  website: str("Website"),
  geoLocation: answer({ latitude: num("-90 to 90"), longitude: num("-180 to 180"), geoHash: str("Geohash") }),
  duration: str("ISO 8601 duration"),
  durationHours: num("The duration in hours"),
  cityName: str("City"),
  zipCode: str("Postal code"),
  countryCode: str("ISO 3166-1 alpha-2"),
  rating: num("0 to 5"),
  numberOfRatings: answerInt("Rating count"),
  availabilityPeriods: answer({ weeklyPeriods: weeklyPeriodsSchema }, [], "The weekly periods the partner sent"),
  isCancellable: bool("Cancellable"),
  cancellationCutOffAmount: answerInt("Cut-off amount"),
  cancellationCutOffUnit: str("hour, minute or day"),
  handiAccess: bool("Accessible to disabled people"),
  countryName: str("Country name in the Accept-Language language"),
} satisfies Record<string, JsonSchema>;

export const CONSUMER_RECORD_REQUIRED = ["id", "externalId", "title", "bookingEngine", "bookingEngineName", "onlineBookable", "availableLanguages", "taxonomies", "creationDate", "updateDate", "galleryImages", "supplier", "descriptors"];

export const consumerProductSchema: JsonSchema = answer(
  consumerRecordProperties,
  CONSUMER_RECORD_REQUIRED,
  "Consumer product record (spec 3); texts in the Accept-Language language; unset fields absent",
);

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

/** Spec 3's sorting fields, as the graph's ProductSortField names them. */
const SORT_FIELDS: Record<string, string> = {
  title: "TITLE",
  rating: "RATING",
  numberOfRatings: "NUMBER_OF_RATINGS",
  minPrice: "MIN_PRICE",
  maxPrice: "MAX_PRICE",
  cityName: "CITY_NAME",
  creationDate: "CREATED_AT",
  updateDate: "UPDATED_AT",
  id: "ID",
};

/** A refusal of spec 3's paging parameters, which the graph does not take: its connections page by cursor. */
export function pagingRefusal(code: RefusalCode, field: string, rule: string, message: string): RestError {
  return restRejected(code, message, [{ field, rule, message }]);
}

/**
 * Spec 3's numbered pages and sorting as a connection's arguments: page n of size s is the first
 * s after an offset cursor past (n - 1) × s. The parameters are checked here, in spec 3's order,
 * each with its documented code.
 */
export function searchPagingVariables(query: Record<string, unknown>) {
  const [pageNumber, resultsPerPage] = [Number(query.pageNumber), Number(query.resultsPerPage)];
  if (!Number.isInteger(resultsPerPage) || resultsPerPage < 1 || resultsPerPage > MAX_SEARCH_PAGE_SIZE) {
    throw pagingRefusal("INVALID_PAGE_SIZE", "resultsPerPage", "range", `resultsPerPage must be 1 to ${MAX_SEARCH_PAGE_SIZE}`);
  }
  if (!Number.isInteger(pageNumber) || pageNumber < 1) throw pagingRefusal("INVALID_PAGE_NUMBER", "pageNumber", "minimum", "pageNumber must be 1 or more");
  const field = String(query.sortingField);
  if (!Object.hasOwn(SORT_FIELDS, field)) throw pagingRefusal("INVALID_SORTING_FIELD", "sortingField", "enum", `sortingField must be one of ${Object.keys(SORT_FIELDS).join(", ")}`);
  const direction = String(query.sortingOrder).toUpperCase();
  if (direction !== "ASC" && direction !== "DESC") throw pagingRefusal("INVALID_SORTING_ORDER", "sortingOrder", "enum", "sortingOrder must be asc or desc");
  const skipped = (pageNumber - 1) * resultsPerPage;
  return {
    query: query.Search ?? null,
    orderBy: { field: SORT_FIELDS[field], direction },
    first: resultsPerPage,
    after: skipped > 0 ? offsetCursor(skipped) : null,
    externalClientId: query.externalClientId ?? null,
  };
}

/** A search-style connection's count, as REST's envelope reads it. */
export interface TotalCountData {
  count: number;
  precision: string;
}

/**
 * The envelope's numbers for a page of `items` of a search-style connection; a page past the last
 * page of a non-empty result is 404 (no match at all is a 200 with no items).
 */
export function pageNumbers(items: number, { count, precision }: TotalCountData, query: Record<string, unknown>) {
  const [pageNumber, resultsPerPage] = [Number(query.pageNumber), Number(query.resultsPerPage)];
  const estimated = precision === "ESTIMATED";
  if (items === 0 && count > 0) {
    throw restRejected("NOT_FOUND", `Page ${pageNumber} is past the last page (${estimated ? "about " : ""}${Math.ceil(count / resultsPerPage)})`);
  }
  return { pageNumber, resultsPerPage, totalResults: count, totalResultsEstimated: estimated };
}

/** The {pageNumber, resultsPerPage, totalResults, items} envelope of search-style lists. */
export const pageEnvelope = (items: JsonSchema, description: string): JsonSchema =>
  answer(
    {
      pageNumber: { type: "integer" },
      resultsPerPage: { type: "integer" },
      totalResults: { type: "integer" },
      totalResultsEstimated: { type: "boolean", description: "Extension: totalResults is an estimate, because more than 1,000 products matched (the most that are counted exactly)" },
      items: { type: "array", items },
    },
    ["pageNumber", "resultsPerPage", "totalResults", "totalResultsEstimated", "items"],
    description,
  );
