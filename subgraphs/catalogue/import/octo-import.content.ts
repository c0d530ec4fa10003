import type { Media, Pricing, Product, Supplier } from "@octocloud/types";
import { isEmailAddress, isPhoneNumber, isWebUrl } from "../../../core/contact-details.js";
import { fromPrices, octoDurationMinutes } from "../../common/octo/octo.fields.js";
import type { ProductWithQuestions } from "../../../core/octo-questions.js";
import type { LanguageText } from "../../../drizzle/schema.js";
import type { ProductRequest } from "../product/product.rules.js";
import type { SupplierRequest } from "../supplier/supplier.rules.js";

/**
 * An OCTO supplier's content as our catalogue's requests (docs/octo-engine.md, "Content mapping").
 * OCTO answers one language per request (`octo/content`), so a product arrives as one version per
 * language and its texts are gathered into our per-language objects. Pure: the import fetches,
 * this maps, and the catalogue's own rules then validate the result like any partner's request.
 */

/** One product as the supplier answered it in one language. */
export interface OctoProductVersion {
  /** Our language code (two letters) of the answer's Content-Language. */
  language: string;
  product: Product;
}

/** "fr-FR" → "fr"; our texts are keyed by two-letter language. */
export const languageOf = (tag: string): string => tag.slice(0, 2).toLowerCase();

/** Texts of one field across the versions, dropping empty ones; null when no language has it. */
function texts(versions: OctoProductVersion[], pick: (product: Product) => string | null | undefined): LanguageText | null {
  const result: LanguageText = {};
  for (const { language, product } of versions) {
    const value = pick(product)?.trim();
    if (value && !(language in result)) result[language] = value;
  }
  return Object.keys(result).length > 0 ? result : null;
}

/** Minutes as an ISO 8601 duration: 90 → "PT1H30M", 1440 → "P1D". */
export function isoMinutes(minutes: number): string {
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const date = days ? `${days}D` : "";
  const time = `${hours ? `${hours}H` : ""}${rest ? `${rest}M` : ""}`;
  if (!date && !time) return "PT0M";
  return `P${date}${time ? `T${time}` : ""}`;
}

/** A price in the currency's major unit: 6500 with precision 2 is 65. */
const major = (pricing: Pricing, amount: number): number => amount / 10 ** pricing.currencyPrecision;


const isImage = (media: Media) => media.type === "image/jpeg" || media.type === "image/png";

/**
 * Our product request for an OCTO product. `versions` holds the same product in each language the
 * supplier offers (the first is the reference for language-free fields).
 */
export function productRequestFromOcto(versions: OctoProductVersion[], bookingEngine: string): ProductRequest {
  if (versions.length === 0) throw new Error("an OCTO product needs at least one version");
  const [{ product }] = versions;
  const defaultOption = product.options.find((option) => option.default) ?? product.options[0];
  const minutes = octoDurationMinutes(product as ProductWithQuestions);
  return {
    externalId: product.id,
    // OCTO requires no title without octo/content: the supplier's internal name stands in.
    title: texts(versions, (version) => version.title) ?? { en: product.internalName },
    shortDescription: texts(versions, (version) => version.shortDescription),
    description: texts(versions, (version) => version.description),
    internalName: product.internalName,
    reference: product.reference,
    instantConfirmation: product.instantConfirmation,
    instantDelivery: product.instantDelivery,
    availabilityType: product.availabilityType,
    redemptionMethod: product.redemptionMethod,
    bookingEngine,
    ...placeOf(product),
    ...imagesOf(product),
    duration: typeof minutes === "number" ? isoMinutes(minutes) : null,
    ...priceTermsOf(product),
    ...optionTermsOf(defaultOption),
    channel: "octo",
    metadata: {
      octo: {
        productId: product.id,
        timeZone: product.timeZone ?? null,
        options: product.options.map((option) => ({ id: option.id, units: option.units.map((unit) => ({ id: unit.id, type: unit.type })) })),
      },
    },
  };
}

/** Where the product starts: its START location, else its first. */
function placeOf(product: Product): Pick<ProductRequest, "countryCode" | "zipCode" | "cityName" | "address" | "geoLocation"> {
  const start = product.locations?.find((location) => location.types.includes("START" as never)) ?? product.locations?.[0];
  const address = start?.place.postalAddress;
  return {
    countryCode: address?.addressCountry?.toUpperCase() ?? null,
    zipCode: address?.postalCode ?? null,
    cityName: address?.addressLocality ?? null,
    address: address?.streetAddress ?? null,
    geoLocation: start ? { latitude: start.place.latitude, longitude: start.place.longitude } : null,
  };
}

/** The cover image as the thumbnail, and the gallery's images. */
function imagesOf(product: Product): Pick<ProductRequest, "thumbnailImage" | "galleryImage"> {
  const images = (product.media ?? []).filter(isImage);
  const cover = images.find((media) => media.rel === "COVER") ?? images[0];
  // A gallery image is a link consumers follow: one that is none would refuse the whole product.
  const gallery = images.filter((media) => media.rel === "GALLERY" && isWebUrl(media.src));
  return {
    thumbnailImage: cover?.src ?? null,
    galleryImage: gallery.length ? gallery.map((media, index) => ({ url: media.src, title: media.title, order: index + 1 })) : null,
  };
}

/** The price range in the first price's currency, the pricing unit, and the commission we earn. */
function priceTermsOf(product: Product): Pick<ProductRequest, "minPrice" | "maxPrice" | "priceCurrency" | "pricingUnit" | "estCommNet" | "estCommFrpricePerc"> {
  // Each unit's "from" price, or each option's when the product is priced per booking.
  const prices = fromPrices(product as ProductWithQuestions);
  const currency = prices[0]?.currency ?? null;
  const inCurrency = prices.filter((pricing) => pricing.currency === currency);
  const retail = inCurrency.map((pricing) => major(pricing, pricing.retail));
  // The commission we earn on the cheapest unit: OCTO quotes what we pay the supplier as `net`.
  const cheapest = inCurrency.reduce<Pricing | undefined>((lowest, pricing) => (!lowest || pricing.retail < lowest.retail ? pricing : lowest), undefined);
  const margin = cheapest && typeof cheapest.net === "number" && cheapest.net < cheapest.retail && cheapest.retail > 0 ? cheapest.retail - cheapest.net : null;
  return {
    minPrice: retail.length ? Math.min(...retail) : null,
    maxPrice: retail.length ? Math.max(...retail) : null,
    priceCurrency: retail.length ? currency : null,
    pricingUnit: retail.length ? (product.pricingPer === "BOOKING" ? "GROUP" : "PER_PERSON") : null,
    estCommNet: margin !== null && cheapest ? major(cheapest, margin) : null,
    estCommFrpricePerc: margin !== null && cheapest ? Math.round((margin / cheapest.retail) * 10_000) / 10_000 : null,
  };
}

/** The participants and cancellation terms of the default option (or the first). */
function optionTermsOf(defaultOption: Product["options"][number] | undefined) {
  const cutoffUnit = defaultOption?.cancellationCutoffUnit as string | undefined;
  return {
    minParticipants: defaultOption?.restrictions.minUnits ?? null,
    maxParticipants: defaultOption?.restrictions.maxUnits ?? null,
    isCancellable: defaultOption ? true : null,
    cancellationCutOffAmount: defaultOption?.cancellationCutoffAmount ?? null,
    cancellationCutOffUnit: cutoffUnit ?? null,
    cancellationCutOff: defaultOption ? { en: defaultOption.cancellationCutoff } : null,
  };
}

/** Our supplier request for the OCTO supplier of an engine; OCTO names no country, so the engine's is used. */
export function supplierRequestFromOcto(supplier: Supplier, country: string, bookingEngineId: number): SupplierRequest {
  const logo = supplier.media?.find((media) => media.rel === "LOGO");
  return {
    externalId: supplier.id,
    country,
    bookingEngine: bookingEngineId,
    channel: "octo",
    name: supplier.name,
    endpoint: supplier.endpoint,
    logo: logo?.src ?? null,
    supplierContact: contactFromOcto(supplier.contact),
  };
}

/**
 * The supplier's contact, each detail only when it has its shape: a website that is no link or a
 * telephone written as "n/a" would otherwise refuse the supplier, and with it the whole import.
 */
function contactFromOcto(contact: Supplier["contact"]): NonNullable<SupplierRequest["supplierContact"]> {
  const shaped = (value: string | null | undefined, accepts: (value: string) => boolean) => (value && accepts(value) ? value : null);
  return { website: shaped(contact.website, isWebUrl), email: shaped(contact.email, isEmailAddress), telephone: shaped(contact.telephone, isPhoneNumber), address: contact.address };
}
