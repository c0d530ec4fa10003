import { toGlobalId } from "../../../core/global-id.js";
import { localized } from "../language/localized-text.type.js";
import { countryNameLanguages, sharedCountryNames } from "../../../core/iso-codes.js";
import type { ProductRow } from "./product.repository.js";
import type { Product } from "./product.type.js";
import { bookingEngineRef } from "../booking-engine/booking-engine.type.js";

/*
 * A product row as the graph answers it (toProduct), and its bookability per language: the view
 * every read of a product shares, apart from the mutations in product.service.ts.
 */

/**
 * Per language of the title: bookable online when the product is live and not deprecated, and
 * the booking flow can sell it (as booking has told: subgraphs/booking/booking-flow) or it has a
 * booking URL in that language.
 */
export function onlineBookable(row: Pick<ProductRow, "title" | "deprecated" | "deletedAt" | "bookingFlow" | "bookingUrl">): Record<string, boolean> {
  const flags: Record<string, boolean> = {};
  for (const language of Object.keys(row.title)) {
    flags[language] = !row.deprecated && !row.deletedAt && (row.bookingFlow || Boolean(row.bookingUrl?.[language]));
  }
  return flags;
}

/** The languages a product's country is named in: its title's, then every one names are shipped for (the same array for the same title languages). */
function nameLanguages(titleLanguages: string[]): readonly string[] {
  const key = titleLanguages.join(",");
  let languages = knownNameLanguages.get(key);
  if (!languages) {
    if (knownNameLanguages.size >= 1_000) knownNameLanguages.clear();
    knownNameLanguages.set(key, (languages = Object.freeze([...new Set([...titleLanguages, ...countryNameLanguages])])));
  }
  return languages;
}

const knownNameLanguages = new Map<string, readonly string[]>();

export function toProduct(row: ProductRow): Product {
  return {
    id: toGlobalId("Product", row.id),
    legacyResourceId: row.id,
    externalId: row.externalId,
    supplierId: row.supplierId,
    ...localizedTexts(row),
    countryCode: row.countryCode,
    country: countryOf(row),
    zipCode: row.zipCode,
    cityName: row.cityName,
    rating: row.rating,
    numberOfRatings: row.numberOfRatings,
    channel: row.channel,
    internalName: row.internalName,
    reference: row.reference,
    instantConfirmation: row.instantConfirmation,
    instantDelivery: row.instantDelivery,
    availabilityType: row.availabilityType,
    redemptionMethod: row.redemptionMethod,
    thumbnailImage: row.thumbnailImage,
    bookingEngine: bookingEngineRef(row.bookingEngineId),
    minPrice: row.minPrice,
    maxPrice: row.maxPrice,
    priceCurrency: row.priceCurrency,
    pricingUnit: row.pricingUnit,
    priceLevel: row.priceLevel,
    averagePrice: row.averagePrice,
    minParticipants: row.minParticipants,
    maxParticipants: row.maxParticipants,
    address: row.address,
    placeId: row.placeId,
    website: row.website,
    geoLocation: row.latitude !== null || row.geoHash ? { latitude: row.latitude, longitude: row.longitude, geoHash: row.geoHash } : null,
    duration: row.duration,
    galleryImages: (row.galleryImages ?? []).map((image) => ({ title: image.title ?? null, url: image.url, order: image.order ?? null })),
    categories: categoriesOf(row),
    availabilityPeriods: row.availabilityPeriods,
    itinerary: row.itinerary,
    isCancellable: row.isCancellable,
    cancellationCutOffAmount: row.cancellationCutOffAmount,
    cancellationCutOffUnit: row.cancellationCutOffUnit,
    handiAccess: row.handiAccess,
    estCommNet: row.estCommNet,
    estCommFrpricePerc: row.estCommFrpricePerc,
    likelyToBeSoldOut: row.likelyToBeSoldOut,
    skipTheLine: row.skipTheLine,
    metadata: row.metadata,
    onlineBookable: onlineBookable(row),
    removed: row.deletedAt !== null,
    deprecated: row.deprecated,
    creationDate: row.creationDate,
    updateDate: row.updateDate,
  };
}

/** The product's texts in every language it has them in. */
function localizedTexts(row: ProductRow) {
  return {
    title: localized(row.title)!,
    subtitle: localized(row.subtitle),
    shortDescription: localized(row.shortDescription),
    description: localized(row.description),
    experienceHighlights: localized(row.experienceHighlights),
    bookingUrl: localized(row.bookingUrl),
    cancellationCutOff: localized(row.cancellationCutOff),
    modalitiesIncluded: localized(row.modalitiesIncluded),
    modalitiesExcluded: localized(row.modalitiesExcluded),
    modalitiesAdditionalInfo: localized(row.modalitiesAdditionalInfo),
  };
}

/** The country, named in the languages of the product's title (and the usual ones). */
function countryOf(row: ProductRow): Product["country"] {
  return row.countryCode ? { code: row.countryCode, name: localized(sharedCountryNames(row.countryCode, nameLanguages(Object.keys(row.title))))! } : null;
}

function categoriesOf(row: ProductRow): Product["categories"] {
  return (row.categories ?? []).map((category) => ({
    level: category.level,
    code: category.code,
    name: localized(category.name),
    description: localized(category.description),
  }));
}
