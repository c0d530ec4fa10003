import { decimalOf } from "../../../core/decimal.js";
import { withContractSeparators, withLineBreaks } from "../../../core/line-breaks.js";
import { translationsOfObject, type TranslationPlaces } from "../language/translation.input.js";
import type { ProductRequest } from "./product.rules.js";
import { PERIOD_MEMBER_NAMES, periodsDocumentOf, periodsInputOf } from "./availability-periods.type.js";
import { itineraryDocumentOf, itineraryInputOf } from "./itinerary.type.js";
import type { CreateProductInput } from "./product.type.js";

/** The fields of a product as the graph takes them: CreateProductInput without its supplier. */
export type ProductInputFields = Omit<CreateProductInput, "supplierId">;

/**
 * The service's rules (product.rules.ts) name spec 1's fields; these are the typed input's names
 * for the ones it calls otherwise, so that a refusal names the field the caller sent.
 */
export const PRODUCT_INPUT_NAMES: Record<string, string> = { estCommNet: "commissionTerms.netCommission", estCommFrpricePerc: "commissionTerms.commissionRate", ...PERIOD_MEMBER_NAMES };

const numberOf = (amount: string | null | undefined): number | null | undefined => (amount == null ? amount : Number(amount));

/** A product's own texts: language objects in spec 1, translations in the graph. */
const PRODUCT_TEXTS = ["title", "subtitle", "shortDescription", "description", "bookingUrl", "cancellationCutOff", "modalitiesIncluded", "modalitiesExcluded", "modalitiesAdditionalInfo"] as const;

/**
 * The typed input as the request the service judges and keeps: texts as language objects (where
 * each language stood is noted in `places`), amounts as numbers, the commission as spec 1's two
 * fields, line breaks as "/n".
 */
export function productRequestOf(fields: ProductInputFields, places: TranslationPlaces): ProductRequest {
  const { minPrice, maxPrice, averagePrice, commissionTerms, experienceHighlights, availabilityPeriods, itinerary, categories, ...rest } = fields;
  const read = places.read.bind(places);
  const request: ProductRequest = {
    ...(rest as Omit<typeof rest, (typeof PRODUCT_TEXTS)[number]>),
    itinerary: itineraryDocumentOf(itinerary, read),
    availabilityPeriods: periodsDocumentOf(availabilityPeriods),
    experienceHighlights: read(experienceHighlights, "experienceHighlights", withContractSeparators),
    categories: categories?.map((category, index) => ({ ...category, name: read(category.name, `categories[${index}].name`), description: read(category.description, `categories[${index}].description`) })),
    minPrice: numberOf(minPrice),
    maxPrice: numberOf(maxPrice),
    averagePrice: numberOf(averagePrice),
    estCommNet: numberOf(commissionTerms?.netCommission),
    estCommFrpricePerc: numberOf(commissionTerms?.commissionRate),
  };
  for (const field of PRODUCT_TEXTS) request[field] = read(rest[field], field);
  places.refuseDuplicates();
  return request;
}

/**
 * A JSON number as a Decimal. The graph's Decimal holds 10 places after the point; a number with
 * more (0.1 + 0.2 is 0.30000000000000004) is rounded to 10, a change no price can show.
 */
const decimalOfNumber = (amount: number | null | undefined): string | null | undefined => (amount == null ? amount : decimalOf(Number(amount.toFixed(10))));

/**
 * Spec 1's body, once the service's rules have passed it (`productProblems`), as the typed
 * input's fields: REST sends its products typed. The cut-off unit is the enum's name ("hour" is
 * HOUR); the two commission fields are `commissionTerms`; spec 1's "/n" are line breaks.
 */
export function productInputOf(document: ProductRequest): Record<string, unknown> {
  const { minPrice, maxPrice, averagePrice, estCommNet, estCommFrpricePerc, cancellationCutOffUnit, experienceHighlights, availabilityPeriods, itinerary, categories, ...rest } = document;
  const commission = estCommNet == null && estCommFrpricePerc == null ? undefined : { netCommission: decimalOfNumber(estCommNet), commissionRate: decimalOfNumber(estCommFrpricePerc) };
  const input: Record<string, unknown> = {
    ...rest,
    ...Object.fromEntries(PRODUCT_TEXTS.map((field) => [field, translationsOfObject(rest[field])])),
    experienceHighlights: translationsOfObject(experienceHighlights, withLineBreaks),
    categories: categories?.map((category) => ({ ...category, name: translationsOfObject(category.name), description: translationsOfObject(category.description) })),
    availabilityPeriods: periodsInputOf(availabilityPeriods),
    itinerary: itineraryInputOf(itinerary),
    minPrice: decimalOfNumber(minPrice),
    maxPrice: decimalOfNumber(maxPrice),
    averagePrice: decimalOfNumber(averagePrice),
    cancellationCutOffUnit: cancellationCutOffUnit == null ? cancellationCutOffUnit : cancellationCutOffUnit.toUpperCase(),
    commissionTerms: commission,
  };
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}
