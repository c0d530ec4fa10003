import geohash from "ngeohash";
import type { LanguageText } from "../../../drizzle/schema.js";
import type { ProductValues } from "./product.repository.js";
import {
  array,
  booleanValue,
  country,
  currency,
  dateValue,
  duration,
  geoLocation,
  isDate,
  languageObject,
  localDateTime,
  number,
  object,
  oneOf,
  Problems,
  string,
  webUrl,
} from "../validation/validation.checks.js";

export const availabilityTypes = ["START_TIME", "OPENING_HOURS"] as const;
export const redemptionMethods = ["MANIFEST", "DIGITAL", "PRINT"] as const;
export const pricingUnits = ["PER_PERSON", "PER_VEHICLE", "GROUP", "FAMILY", "PER_EQUIPMENT", "PACKAGE", "PER_BOAT"] as const;
export const itineraryTypes = ["STANDARD", "MULTIDAY", "HOP_ON_HOP_OFF", "UNSTRUCTURED"] as const;
export const itineraryUnitTypes = ["ITEM", "DAY", "ROUTE"] as const;
export const cancellationCutOffUnits = ["hour", "minute", "day"] as const;
const weekDays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

export interface CategoryRequest {
  level?: number | null;
  code?: string | null;
  name?: LanguageText | null;
  description?: LanguageText | null;
}

/** A product request (spec 1, "Product (request fields for create)"); update takes the same fields. */
export interface ProductRequest {
  externalId?: string | null;
  title?: LanguageText | null;
  countryCode?: string | null;
  zipCode?: string | null;
  cityName?: string | null;
  rating?: number | null;
  numberOfRatings?: number | null;
  channel?: string | null;
  internalName?: string | null;
  reference?: string | null;
  instantConfirmation?: boolean | null;
  instantDelivery?: boolean | null;
  availabilityType?: string | null;
  redemptionMethod?: string | null;
  subtitle?: LanguageText | null;
  shortDescription?: LanguageText | null;
  description?: LanguageText | null;
  experienceHighlights?: LanguageText | null;
  thumbnailImage?: string | null;
  bookingEngine?: string | null;
  bookingUrl?: LanguageText | null;
  minPrice?: number | null;
  maxPrice?: number | null;
  priceCurrency?: string | null;
  pricingUnit?: string | null;
  priceLevel?: number | null;
  averagePrice?: number | null;
  minParticipants?: number | null;
  maxParticipants?: number | null;
  address?: string | null;
  placeId?: string | null;
  website?: string | null;
  geoLocation?: { latitude?: number | null; longitude?: number | null; geoHash?: string | null } | null;
  duration?: string | null;
  galleryImage?: { title?: string | null; url?: string | null; order?: number | null }[] | null;
  categories?: CategoryRequest[] | null;
  availabilityPeriods?: Record<string, unknown> | null;
  itinerary?: Record<string, unknown> | null;
  isCancellable?: boolean | null;
  cancellationCutOffAmount?: number | null;
  cancellationCutOffUnit?: string | null;
  cancellationCutOff?: LanguageText | null;
  handiAccess?: boolean | null;
  modalitiesIncluded?: LanguageText | null;
  modalitiesExcluded?: LanguageText | null;
  modalitiesAdditionalInfo?: LanguageText | null;
  estCommNet?: number | null;
  estCommFrpricePerc?: number | null;
  likelyToBeSoldOut?: boolean | null;
  skipTheLine?: boolean | null;
  metadata?: Record<string, unknown> | null;
}

const MAX_TEXT = 100_000;
const MAX_PRICE = 10_000_000;

/**
 * Every problem of a product request: the spec's field table, then the rules between fields. The
 * problems come in the table's order, each part of it checked in turn.
 */
export function productProblems(input: ProductRequest): Problems {
  const p = new Problems();
  descriptionProblems(p, input);
  priceProblems(p, input);
  number(p, "minParticipants", input.minParticipants, { min: 1, integer: true });
  number(p, "maxParticipants", input.maxParticipants, { min: 1, integer: true });
  if (typeof input.minParticipants === "number" && typeof input.maxParticipants === "number" && input.minParticipants > input.maxParticipants) {
    p.add("maxParticipants", "minParticipantsNotAbove", "maxParticipants must not be below minParticipants");
  }
  string(p, "address", input.address, { max: 512 });
  string(p, "placeId", input.placeId, { max: 255 });
  webUrl(p, "website", input.website, { max: 512 });
  geoLocation(p, "geoLocation", input.geoLocation);
  string(p, "duration", input.duration, { max: 255 });
  duration(p, "duration", input.duration);
  galleryProblems(p, input.galleryImage);
  categoryProblems(p, input.categories);
  availabilityPeriodProblems(p, input.availabilityPeriods);
  itineraryProblems(p, input.itinerary);
  termsProblems(p, input);
  return p;
}

/** What the product is and says: its ids, names, place, ratings, confirmation, texts and links. */
function descriptionProblems(p: Problems, input: ProductRequest): void {
  string(p, "externalId", input.externalId, { max: 255, required: true });
  languageObject(p, "title", input.title, { required: true, max: 255 });
  country(p, "countryCode", input.countryCode);
  string(p, "zipCode", input.zipCode, { max: 20 });
  string(p, "cityName", input.cityName, { max: 255 });
  number(p, "rating", input.rating, { min: 0, max: 5 });
  number(p, "numberOfRatings", input.numberOfRatings, { min: 0, integer: true });
  string(p, "channel", input.channel, { max: 32 });
  string(p, "internalName", input.internalName, { max: 255 });
  string(p, "reference", input.reference, { max: 255 });
  booleanValue(p, "instantConfirmation", input.instantConfirmation);
  booleanValue(p, "instantDelivery", input.instantDelivery);
  oneOf(p, "availabilityType", input.availabilityType, availabilityTypes);
  oneOf(p, "redemptionMethod", input.redemptionMethod, redemptionMethods);
  for (const field of ["subtitle", "shortDescription", "description", "experienceHighlights", "cancellationCutOff", "modalitiesIncluded", "modalitiesExcluded", "modalitiesAdditionalInfo"] as const) {
    languageObject(p, field, input[field], { max: MAX_TEXT });
  }
  languageObject(p, "bookingUrl", input.bookingUrl, { max: 2048, url: true });
  string(p, "thumbnailImage", input.thumbnailImage, { max: 255 });
  string(p, "bookingEngine", input.bookingEngine, { max: 255 });
}

/** Prices, their currency (required with any price) and the unit they are per. */
function priceProblems(p: Problems, input: ProductRequest): void {
  number(p, "minPrice", input.minPrice, { min: 0, max: MAX_PRICE });
  number(p, "maxPrice", input.maxPrice, { min: 0, max: MAX_PRICE });
  if (typeof input.minPrice === "number" && typeof input.maxPrice === "number" && input.minPrice > input.maxPrice) {
    p.add("maxPrice", "minPriceNotAbove", "maxPrice must not be below minPrice");
  }
  currency(p, "priceCurrency", input.priceCurrency);
  if ((typeof input.minPrice === "number" || typeof input.maxPrice === "number" || typeof input.averagePrice === "number") && !input.priceCurrency) {
    p.add("priceCurrency", "requiredWithPrices", "priceCurrency is required when a price is given");
  }
  oneOf(p, "pricingUnit", input.pricingUnit, pricingUnits);
  number(p, "priceLevel", input.priceLevel, { min: 1, max: 4, integer: true });
  number(p, "averagePrice", input.averagePrice, { min: 0, max: MAX_PRICE });
}

function galleryProblems(p: Problems, value: unknown): void {
  array(p, "galleryImage", value, (item, path) => {
    if (!object(p, path, item)) return;
    const image = item as Record<string, unknown>;
    string(p, `${path}.title`, image.title, { max: 255 });
    webUrl(p, `${path}.url`, image.url, { max: 512, required: true });
    number(p, `${path}.order`, image.order, { min: 0, integer: true });
  }, { max: 100 });
}

function categoryProblems(p: Problems, value: unknown): void {
  array(p, "categories", value, (item, path) => {
    if (!object(p, path, item)) return;
    const category = item as Record<string, unknown>;
    number(p, `${path}.level`, category.level, { min: 1, max: 3, integer: true });
    if (category.level === undefined || category.level === null) p.add(`${path}.level`, "required", `${path}.level is required`);
    string(p, `${path}.code`, category.code, { max: 255, required: true });
    languageObject(p, `${path}.name`, category.name, { max: 255 });
    languageObject(p, `${path}.description`, category.description, { max: MAX_TEXT });
  }, { max: 50 });
}

/** Cancellation, accessibility, commission, the sales flags and the free metadata. */
function termsProblems(p: Problems, input: ProductRequest): void {
  booleanValue(p, "isCancellable", input.isCancellable);
  number(p, "cancellationCutOffAmount", input.cancellationCutOffAmount, { min: 0, integer: true });
  oneOf(p, "cancellationCutOffUnit", input.cancellationCutOffUnit, cancellationCutOffUnits);
  if (typeof input.cancellationCutOffAmount === "number" && !input.cancellationCutOffUnit) {
    p.add("cancellationCutOffUnit", "requiredWithAmount", "cancellationCutOffUnit is required with cancellationCutOffAmount");
  }
  booleanValue(p, "handiAccess", input.handiAccess);
  number(p, "estCommNet", input.estCommNet, { min: 0, max: MAX_PRICE });
  number(p, "estCommFrpricePerc", input.estCommFrpricePerc, { min: 0, max: 1 });
  booleanValue(p, "likelyToBeSoldOut", input.likelyToBeSoldOut);
  booleanValue(p, "skipTheLine", input.skipTheLine);
  if (input.metadata !== undefined && input.metadata !== null) {
    object(p, "metadata", input.metadata);
    if (JSON.stringify(input.metadata).length > 65_536) p.add("metadata", "maxSize", "metadata must be at most 64 KiB of JSON");
  }
}

/**
 * weeklyPeriods items and the spontaneous period. Opening `hours`, when not null, is a list of
 * {start, end} local times "HH:MM" with start before end (the spec leaves that shape open).
 */
function availabilityPeriodProblems(p: Problems, value: unknown): void {
  if (!object(p, "availabilityPeriods", value)) return;
  const periods = value as Record<string, unknown>;
  array(p, "availabilityPeriods.weeklyPeriods", periods.weeklyPeriods, (item, path) => {
    if (!object(p, path, item)) return;
    const period = item as Record<string, unknown>;
    string(p, `${path}.description`, period.description, { max: 1000 });
    dateValue(p, `${path}.startDate`, period.startDate);
    dateValue(p, `${path}.endDate`, period.endDate);
    if (isDate(period.startDate) && isDate(period.endDate) && period.startDate > period.endDate) {
      p.add(`${path}.endDate`, "notBeforeStart", `${path}.endDate must not be before startDate`);
    }
    for (const day of weekDays) {
      const entry = period[day];
      if (entry === undefined || entry === null) continue;
      if (!object(p, `${path}.${day}`, entry)) continue;
      const { open, hours } = entry as Record<string, unknown>;
      if (typeof open !== "boolean") p.add(`${path}.${day}.open`, "type", `${path}.${day}.open must be true or false`);
      unknownMembers(p, `${path}.${day}`, entry as Record<string, unknown>, ["open", "hours"], "a weekday's rule");
      array(p, `${path}.${day}.hours`, hours, (slot, slotPath) => {
        if (!object(p, slotPath, slot)) return;
        unknownMembers(p, slotPath, slot as Record<string, unknown>, ["start", "end"], "opening hours");
        const { start, end } = slot as Record<string, unknown>;
        const time = /^([01]\d|2[0-3]):[0-5]\d$/;
        if (typeof start !== "string" || !time.test(start)) p.add(`${slotPath}.start`, "time", `${slotPath}.start must be a time HH:MM`);
        if (typeof end !== "string" || !(time.test(end) || end === "24:00")) p.add(`${slotPath}.end`, "time", `${slotPath}.end must be a time HH:MM`);
        if (typeof start === "string" && typeof end === "string" && start >= end) p.add(slotPath, "startBeforeEnd", `${slotPath}.start must be before end`);
      });
    }
    array(p, `${path}.closedDayList`, period.closedDayList, (day, dayPath) => dateValue(p, dayPath, day));
    for (const key of Object.keys(period)) {
      if (!["description", "startDate", "endDate", "closedDayList", ...weekDays].includes(key)) p.add(`${path}.${key}`, "unknownField", `${path}.${key} is not a field of a weekly period`);
    }
  }, { max: 100 });
  if (periods.spontaneousPeriod !== undefined && periods.spontaneousPeriod !== null && object(p, "availabilityPeriods.spontaneousPeriod", periods.spontaneousPeriod)) {
    const spontaneous = periods.spontaneousPeriod as Record<string, unknown>;
    string(p, "availabilityPeriods.spontaneousPeriod.description", spontaneous.description, { max: 1000 });
    array(p, "availabilityPeriods.spontaneousPeriod.eventDateList", spontaneous.eventDateList, (event, path) => localDateTime(p, path, event), { max: 5000 });
    unknownMembers(p, "availabilityPeriods.spontaneousPeriod", spontaneous, ["description", "eventDateList"], "the spontaneous period");
  }
  for (const key of Object.keys(periods)) {
    if (key !== "weeklyPeriods" && key !== "spontaneousPeriod") p.add(`availabilityPeriods.${key}`, "unknownField", `availabilityPeriods.${key} is not a field`);
  }
}

/** Members of a period's or an itinerary's object beyond its documented ones: the graph types both, so none is kept unchecked. */
function unknownMembers(p: Problems, path: string, value: Record<string, unknown>, known: readonly string[], what: string): void {
  for (const key of Object.keys(value)) if (!known.includes(key)) p.add(`${path}.${key}`, "unknownField", `${path}.${key} is not a field of ${what}`);
}

/**
 * The itinerary object: type required inside it; unstructuredItinerary required for UNSTRUCTURED;
 * item locations (shape not shown in the spec) are {name, address, placeId, latitude, longitude}.
 */
function itineraryProblems(p: Problems, value: unknown): void {
  if (!object(p, "itinerary", value)) return;
  const itinerary = value as Record<string, unknown>;
  unknownMembers(p, "itinerary", itinerary, ["type", "unitType", "unstructuredItinerary", "units"], "an itinerary");
  if (itinerary.type === undefined || itinerary.type === null) p.add("itinerary.type", "required", "itinerary.type is required");
  oneOf(p, "itinerary.type", itinerary.type, itineraryTypes);
  oneOf(p, "itinerary.unitType", itinerary.unitType, itineraryUnitTypes);
  if (itinerary.type === "UNSTRUCTURED") {
    languageObject(p, "itinerary.unstructuredItinerary", itinerary.unstructuredItinerary, { required: true, max: MAX_TEXT });
  } else {
    languageObject(p, "itinerary.unstructuredItinerary", itinerary.unstructuredItinerary, { max: MAX_TEXT });
  }
  array(p, "itinerary.units", itinerary.units, (unit, path) => {
    if (!object(p, path, unit)) return;
    unknownMembers(p, path, unit as Record<string, unknown>, ["title", "items"], "an itinerary's unit");
    const { title, items } = unit as Record<string, unknown>;
    languageObject(p, `${path}.title`, title, { max: 255 });
    array(p, `${path}.items`, items, (item, itemPath) => {
      if (!object(p, itemPath, item)) return;
      unknownMembers(p, itemPath, item as Record<string, unknown>, ["title", "location"], "an itinerary's item");
      const { title: itemTitle, location } = item as Record<string, unknown>;
      languageObject(p, `${itemPath}.title`, itemTitle, { max: 255 });
      if (object(p, `${itemPath}.location`, location)) {
        const place = location as Record<string, unknown>;
        unknownMembers(p, `${itemPath}.location`, place, ["name", "address", "placeId", "latitude", "longitude"], "a location");
        string(p, `${itemPath}.location.name`, place.name, { max: 255 });
        string(p, `${itemPath}.location.address`, place.address, { max: 512 });
        string(p, `${itemPath}.location.placeId`, place.placeId, { max: 255 });
        geoLocation(p, `${itemPath}.location`, { latitude: place.latitude, longitude: place.longitude });
      }
    }, { max: 200 });
  }, { max: 100 });
}

/** A geohash is computed when coordinates come without one. */
export function withGeoHash(location: ProductRequest["geoLocation"]): { latitude: number | null; longitude: number | null; geoHash: string | null } {
  const latitude = location?.latitude ?? null;
  const longitude = location?.longitude ?? null;
  return {
    latitude,
    longitude,
    geoHash: location?.geoHash ?? (latitude !== null && longitude !== null ? geohash.encode(latitude, longitude, 9) : null),
  };
}

/** The optional texts in several languages, null when not given. */
function languageTextValues(input: ProductRequest) {
  return {
    subtitle: input.subtitle ?? null,
    shortDescription: input.shortDescription ?? null,
    description: input.description ?? null,
    experienceHighlights: input.experienceHighlights ?? null,
    bookingUrl: input.bookingUrl ?? null,
    cancellationCutOff: input.cancellationCutOff ?? null,
    modalitiesIncluded: input.modalitiesIncluded ?? null,
    modalitiesExcluded: input.modalitiesExcluded ?? null,
    modalitiesAdditionalInfo: input.modalitiesAdditionalInfo ?? null,
  };
}

/** Column values of a valid request, for the given supplier and the engine it is booked through. */
export function productValues(input: ProductRequest, supplier: { id: number; bookingEngineId: number }, bookingEngineId: number): ProductValues {
  const geo = withGeoHash(input.geoLocation);
  return {
    supplierId: supplier.id,
    scopeEngineId: supplier.bookingEngineId,
    externalId: input.externalId!,
    bookingEngineId,
    title: input.title!,
    ...languageTextValues(input),
    countryCode: input.countryCode ?? null,
    zipCode: input.zipCode ?? null,
    cityName: input.cityName ?? null,
    rating: input.rating ?? null,
    numberOfRatings: input.numberOfRatings ?? null,
    channel: input.channel ?? null,
    internalName: input.internalName ?? null,
    reference: input.reference ?? null,
    instantConfirmation: input.instantConfirmation ?? null,
    instantDelivery: input.instantDelivery ?? null,
    availabilityType: input.availabilityType ?? null,
    redemptionMethod: input.redemptionMethod ?? null,
    thumbnailImage: input.thumbnailImage ?? null,
    minPrice: input.minPrice ?? null,
    maxPrice: input.maxPrice ?? null,
    priceCurrency: input.priceCurrency ?? null,
    pricingUnit: input.pricingUnit ?? null,
    priceLevel: input.priceLevel ?? null,
    averagePrice: input.averagePrice ?? null,
    minParticipants: input.minParticipants ?? null,
    maxParticipants: input.maxParticipants ?? null,
    address: input.address ?? null,
    placeId: input.placeId ?? null,
    website: input.website ?? null,
    latitude: geo.latitude,
    longitude: geo.longitude,
    geoHash: geo.geoHash,
    duration: input.duration ?? null,
    galleryImages: input.galleryImage?.map((image) => ({ title: image.title ?? undefined, url: image.url!, order: image.order ?? undefined })) ?? null,
    categories:
      input.categories?.map((c) => ({ level: c.level!, code: c.code!, ...(c.name ? { name: c.name } : {}), ...(c.description ? { description: c.description } : {}) })) ?? null,
    availabilityPeriods: input.availabilityPeriods ?? null,
    itinerary: input.itinerary ?? null,
    isCancellable: input.isCancellable ?? null,
    cancellationCutOffAmount: input.cancellationCutOffAmount ?? null,
    cancellationCutOffUnit: input.cancellationCutOffUnit ?? null,
    handiAccess: input.handiAccess ?? null,
    estCommNet: input.estCommNet ?? null,
    estCommFrpricePerc: input.estCommFrpricePerc ?? null,
    likelyToBeSoldOut: input.likelyToBeSoldOut ?? null,
    skipTheLine: input.skipTheLine ?? null,
    metadata: input.metadata ?? null,
  };
}
