import type { FastifyRequest } from "fastify";
import { languageObjectOf, TRANSLATIONS, type Translations } from "../../language-objects.js";
import { eachText, withContractSeparators } from "../../../core/line-breaks.js";
import { periodsDocumentOfAnswer, type AvailabilityPeriods } from "../../../subgraphs/catalogue/product/availability-periods.type.js";
import { itineraryDocumentOfAnswer, type ItineraryAnswer } from "../../../subgraphs/catalogue/product/itinerary.type.js";
import { answer, arr, bool, compact, freeObject, idParam, int, keepsOtherMembers, languageMap, languageObject, num, obj, str, type JsonSchema } from "../../json-schema.js";

/** The product request body of spec 1 ("Product (request fields for create)"); update takes the same. */
export const productRequestSchema: JsonSchema = obj(
  {
    externalId: str("Identifier of the product on the supplier side (at most 255)"),
    title: languageObject("Product name per language (at most 255 each)"),
    countryCode: str("ISO 3166-1 alpha-2"),
    zipCode: str("At most 20"),
    cityName: str("At most 255"),
    rating: num("Average rating, 0 to 5"),
    numberOfRatings: int("Rating count"),
    channel: str("Upload channel (at most 32)"),
    internalName: str("At most 255"),
    reference: str("Same meaning as externalId (at most 255)"),
    instantConfirmation: bool("Instant booking confirmation offered"),
    instantDelivery: bool("Instant ticket delivery offered"),
    availabilityType: str("START_TIME or OPENING_HOURS"),
    redemptionMethod: str("MANIFEST, DIGITAL or PRINT"),
    subtitle: languageObject("Subtitle"),
    shortDescription: languageObject("Short description"),
    description: languageObject("Description"),
    experienceHighlights: languageObject("Highlights; lines separated by the two characters '/n'"),
    thumbnailImage: str("Link to thumbnail, or an image identifier (at most 255)"),
    bookingEngine: str("Booking engine name; the supplier's engine when absent"),
    bookingUrl: languageObject("Booking URL per language: absolute http or https URLs (at most 2048 each)"),
    minPrice: num("Minimum price"),
    maxPrice: num("Maximum price, not below minPrice"),
    priceCurrency: str("ISO 4217; required with any price"),
    pricingUnit: str("PER_PERSON, PER_VEHICLE, GROUP, FAMILY, PER_EQUIPMENT, PACKAGE or PER_BOAT"),
    priceLevel: int("Quartile 1 to 4"),
    averagePrice: num("Average price (restaurants: average meal price)"),
    minParticipants: int("Participant minimum"),
    maxParticipants: int("Participant maximum"),
    address: str("At most 512"),
    placeId: str("Place identifier of a map provider (at most 255)"),
    website: str("An absolute http or https URL (at most 512)"),
    geoLocation: obj({ latitude: num("-90 to 90"), longitude: num("-180 to 180"), geoHash: str("Computed when absent") }),
    duration: str("ISO 8601 duration, e.g. PT3H"),
    galleryImage: arr(obj({ title: str("Image title"), url: str("Image URL: absolute http or https (at most 512)"), order: int("Position in the gallery") }, { required: ["url"] }), "Gallery; responses name it galleryImages"),
    categories: arr(
      obj(
        { level: int("1 = category, 2 = subcategory, 3 = next level"), code: str("Taxonomy code at that level (levels 1 and 2)"), name: languageObject("Name"), description: languageObject("Description") },
        { required: ["level", "code"] },
      ),
      "Categories; level 1 and 2 codes map onto the activities taxonomy",
    ),
    availabilityPeriods: freeObject("{weeklyPeriods: [{description, startDate, endDate, sunday..saturday: {open, hours: null | [{start 'HH:MM', end 'HH:MM'}]}, closedDayList}], spontaneousPeriod: {description, eventDateList}}"),
    itinerary: freeObject("{type: STANDARD|MULTIDAY|HOP_ON_HOP_OFF|UNSTRUCTURED, unitType: ITEM|DAY|ROUTE, unstructuredItinerary (required for UNSTRUCTURED), units: [{title, items: [{title, location: {name, address, placeId, latitude, longitude}}]}]}"),
    isCancellable: bool("Product cancellable"),
    cancellationCutOffAmount: int("Numeric cut-off"),
    cancellationCutOffUnit: str("hour, minute or day"),
    cancellationCutOff: languageObject("How long before the tour cancellation is still possible"),
    handiAccess: bool("Accessible to disabled people"),
    modalitiesIncluded: languageObject("Included"),
    modalitiesExcluded: languageObject("Excluded"),
    modalitiesAdditionalInfo: languageObject("Additional information"),
    estCommNet: num("Estimated net commission"),
    estCommFrpricePerc: num("Estimated commission as a ratio of retail price, 0 to 1"),
    likelyToBeSoldOut: bool("Limited remaining spots or high demand"),
    skipTheLine: bool("Priority access"),
    metadata: freeObject("Free-form metadata"),
  },
  { required: ["externalId", "title"] },
);

/** The input fields a REST caller knows by spec 1's names: the body is the input itself. */
export const PRODUCT_PARAMETERS = { input: "" };

export const supplierProductParams = obj(
  { supplierId: idParam("Supplier id"), productId: idParam("Product id") },
  { required: ["supplierId", "productId"] },
);

const text = `{ ${TRANSLATIONS} }`;
/** The GraphQL selection every product response is built from. */
export const PRODUCT_FIELDS = /* GraphQL */ `
  fragment RestProduct on Product {
    id: legacyResourceId externalId createdAt updatedAt deprecated onlineBookable { language bookable }
    title ${text} subtitle ${text} shortDescription ${text} description ${text} experienceHighlights ${text}
    bookingUrl ${text} cancellationCutOff ${text} modalitiesIncluded ${text} modalitiesExcluded ${text} modalitiesAdditionalInfo ${text}
    country { code name ${text} }
    zipCode cityName rating numberOfRatings channel internalName reference instantConfirmation instantDelivery
    availabilityType redemptionMethod thumbnailImage bookingEngine { name }
    minPrice { amount } maxPrice { amount } priceCurrency pricingUnit priceLevel averagePrice { amount } minParticipants maxParticipants
    address placeId website geoLocation { latitude longitude geoHash } duration
    galleryImages { title url order }
    categories { level code name ${text} description ${text} }
    availabilityPeriods {
      weeklyPeriods {
        description startDate endDate closedDays
        ${["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((day) => `${day} { open hours { start end } }`).join(" ")}
      }
      spontaneousPeriod { description eventStarts }
    }
    itinerary {
      type unitType unstructuredItinerary ${text}
      units { title ${text} items { title ${text} location { name address placeId latitude longitude } } }
    }
    isCancellable cancellationCutOffAmount cancellationCutOffUnit handiAccess
    commissionTerms { netCommission commissionRate } likelyToBeSoldOut skipTheLine metadata
  }
`;

type Localized = { translations: Translations } | null;
type Amount = { amount: string } | null;
export interface ProductData {
  [field: string]: unknown;
  id: number;
  createdAt: string;
  updatedAt: string;
  minPrice: Amount;
  maxPrice: Amount;
  averagePrice: Amount;
  cancellationCutOffUnit: string | null;
  commissionTerms: { netCommission: string | null; commissionRate: string | null } | null;
  title: Localized;
  country: { code: string; name: Localized } | null;
  bookingEngine: { name: string };
  onlineBookable: { language: string; bookable: boolean }[];
  availabilityPeriods: AvailabilityPeriods | null;
  itinerary: ItineraryAnswer<{ translations: Translations }> | null;
  galleryImages: { title: string | null; url: string; order: number | null }[];
  categories: { level: number; code: string; name: Localized; description: Localized }[];
  geoLocation: Record<string, unknown> | null;
}

const localizedFields = [
  "title",
  "subtitle",
  "shortDescription",
  "description",
  "experienceHighlights",
  "bookingUrl",
  "cancellationCutOff",
  "modalitiesIncluded",
  "modalitiesExcluded",
  "modalitiesAdditionalInfo",
] as const;

/** The supplier number a product path names. */
export const pathSupplier = (request: FastifyRequest): number => (request.params as { supplierId: number }).supplierId;

/** A Decimal of the graph as the number REST sends. */
const numberOf = (decimal: string | null | undefined) => (decimal == null ? null : Number(decimal));

/**
 * "Product as returned" (spec 1): the supplied fields as language objects, plus id,
 * creationDate, onlineBookable per language, and country {code, name} instead of countryCode.
 * The supplier is the path's: every path that answers a product names it, and the graph has
 * checked the product is its own. Amounts are the numbers sent (the graph's Money keeps them exact).
 */
export function productBody(p: ProductData, supplierId: number) {
  const { createdAt, updatedAt, commissionTerms, ...fields } = p;
  const body: Record<string, unknown> = { ...fields, supplierId, creationDate: createdAt, updateDate: updatedAt };
  body.minPrice = numberOf(p.minPrice?.amount);
  body.maxPrice = numberOf(p.maxPrice?.amount);
  body.averagePrice = numberOf(p.averagePrice?.amount);
  body.cancellationCutOffUnit = p.cancellationCutOffUnit?.toLowerCase() ?? null;
  body.estCommNet = numberOf(commissionTerms?.netCommission);
  body.estCommFrpricePerc = numberOf(commissionTerms?.commissionRate);
  const languageObject = (value: unknown) => ((value as Localized) ? languageObjectOf((value as NonNullable<Localized>).translations) : null);
  for (const field of localizedFields) body[field] = languageObject(p[field]);
  body.experienceHighlights = eachText(body.experienceHighlights as Record<string, string> | null, withContractSeparators);
  body.country = p.country ? { code: p.country.code, name: languageObject(p.country.name) ?? {} } : null;
  body.bookingEngine = p.bookingEngine.name;
  body.availabilityPeriods = periodsDocumentOfAnswer(p.availabilityPeriods);
  body.itinerary = itineraryDocumentOfAnswer(p.itinerary, (text) => languageObjectOf(text.translations));
  body.onlineBookable = Object.fromEntries(p.onlineBookable.map(({ language, bookable }) => [language, bookable]));
  body.galleryImages = p.galleryImages.map((image) => compact(image));
  body.categories = p.categories.map((c) => compact({ level: c.level, code: c.code, name: languageObject(c.name) ?? undefined, description: languageObject(c.description) ?? undefined }));
  body.geoLocation = p.geoLocation ? compact(p.geoLocation) : null;
  if (!p.galleryImages.length) delete body.galleryImages;
  if (!p.categories.length) delete body.categories;
  return compact(body);
}

/*
 * The partner's periods and itinerary have no members beyond the documented ones (the rules refuse
 * others, since the graph types them); their optional members are written when they hold
 * something, a day's hours always (null says open all day).
 */
// Members are declared in the order PostgreSQL's jsonb keeps an object's keys (shorter first, then
// bytewise), which is the order a stored period is read back in: the consumer record sends it with
// JSON.stringify and must write what this schema's compiled serializer would (plain-json-bodies).
const weekDay = obj(
  { open: bool("Open that day"), hours: arr(obj({ end: str("HH:MM, or 24:00"), start: str("HH:MM") }, { required: ["start", "end"] }), "Opening hours; null: open all day or by start times") },
  { required: ["open"], additionalProperties: false },
);
const weeklyPeriod = obj(
  {
    friday: weekDay,
    monday: weekDay,
    sunday: weekDay,
    endDate: str("YYYY-MM-DD"),
    tuesday: weekDay,
    saturday: weekDay,
    thursday: weekDay,
    startDate: str("YYYY-MM-DD"),
    wednesday: weekDay,
    description: str("Description"),
    closedDayList: arr(str("YYYY-MM-DD"), "Days closed"),
  },
  { additionalProperties: false },
);
export const weeklyPeriodsSchema = arr(weeklyPeriod, "Weekly periods as sent");
export const availabilityPeriodsSchema = obj(
  {
    weeklyPeriods: weeklyPeriodsSchema,
    spontaneousPeriod: obj({ description: str("Description"), eventDateList: arr(str("Local date-time without offset"), "Events") }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
const location = obj({ name: str("Name"), address: str("Address"), placeId: str("Place id"), latitude: num("-90 to 90"), longitude: num("-180 to 180") }, { additionalProperties: false });
export const itinerarySchema = obj(
  {
    type: str("STANDARD, MULTIDAY, HOP_ON_HOP_OFF or UNSTRUCTURED"),
    unitType: str("ITEM, DAY or ROUTE"),
    unstructuredItinerary: languageObject("Free text for UNSTRUCTURED; '/n' separates lines"),
    units: arr(obj({ title: languageObject("Title"), items: arr(obj({ title: languageObject("Title"), location }, { additionalProperties: false }), "Items, in order") }, { additionalProperties: false }), "Units, in order"),
  },
  { required: ["type"], additionalProperties: false },
);

const localizedAnswer = (description: string) => languageMap(`${description} per language`);

/** Every member of "Product as returned", in the order the service writes them. */
export const productResponseSchema: JsonSchema = answer(
  {
    id: int("Product id"),
    supplierId: int("Supplier id"),
    externalId: str("Identifier on the supplier side"),
    creationDate: { type: "string", format: "date-time" },
    updateDate: { type: "string", format: "date-time" },
    deprecated: bool("Deprecated: still listed to its partner, EXCLUDED for consumers"),
    title: localizedAnswer("Name"),
    country: answer({ code: str("ISO 3166-1 alpha-2"), name: localizedAnswer("Country name") }, ["code", "name"]),
    onlineBookable: { type: "object", description: "Bookable through the booking flow, per language of the title", additionalProperties: { type: "boolean" } },
    bookingEngine: str("Booking engine name"),
    subtitle: localizedAnswer("Subtitle"),
    shortDescription: localizedAnswer("Short description"),
    description: localizedAnswer("Description"),
    experienceHighlights: localizedAnswer("Highlights"),
    bookingUrl: localizedAnswer("Booking URL"),
    cancellationCutOff: localizedAnswer("Cancellation cut-off"),
    modalitiesIncluded: localizedAnswer("Included"),
    modalitiesExcluded: localizedAnswer("Excluded"),
    modalitiesAdditionalInfo: localizedAnswer("Additional information"),
    zipCode: str("Postal code"),
    cityName: str("City"),
    rating: num("0 to 5"),
    numberOfRatings: int("Rating count"),
    channel: str("Upload channel"),
    internalName: str("Internal name"),
    reference: str("Reference"),
    instantConfirmation: bool("Instant confirmation"),
    instantDelivery: bool("Instant delivery"),
    availabilityType: str("START_TIME or OPENING_HOURS"),
    redemptionMethod: str("MANIFEST, DIGITAL or PRINT"),
    thumbnailImage: str("Thumbnail link"),
    minPrice: num("Minimum price"),
    maxPrice: num("Maximum price"),
    priceCurrency: str("ISO 4217"),
    pricingUnit: str("Pricing unit"),
    priceLevel: int("1 to 4"),
    averagePrice: num("Average price"),
    minParticipants: int("Fewest participants"),
    maxParticipants: int("Most participants"),
    address: str("Address"),
    placeId: str("Place id"),
    website: str("Website"),
    geoLocation: answer({ latitude: num("-90 to 90"), longitude: num("-180 to 180"), geoHash: str("Geohash") }),
    duration: str("ISO 8601 duration"),
    galleryImages: arr(answer({ title: str("Title"), url: str("URL"), order: int("Position") }, ["url"]), "Gallery (sent as galleryImage)"),
    categories: arr(answer({ level: int("1 or 2"), code: str("Code"), name: localizedAnswer("Name"), description: localizedAnswer("Description") }, ["level", "code"]), "Categories as sent"),
    availabilityPeriods: availabilityPeriodsSchema,
    itinerary: itinerarySchema,
    isCancellable: bool("Cancellable"),
    cancellationCutOffAmount: int("Cut-off amount"),
    cancellationCutOffUnit: str("hour, minute or day"),
    handiAccess: bool("Accessible"),
    estCommNet: num("Estimated net commission"),
    estCommFrpricePerc: num("Commission as a ratio of retail price"),
    likelyToBeSoldOut: bool("Limited spots or high demand"),
    skipTheLine: bool("Priority access"),
    metadata: { type: "object", description: "The partner's metadata, as sent", ...keepsOtherMembers },
  },
  ["id", "supplierId", "externalId", "creationDate", "updateDate", "deprecated", "title", "onlineBookable", "bookingEngine"],
  "Product as returned: the supplied fields (texts as language objects), id, dates, country {code, name}, onlineBookable per language; unset fields absent",
);
