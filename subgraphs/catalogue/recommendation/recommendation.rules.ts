import { type FieldProblem } from "../../../core/errors.js";
import type { Product } from "../product/product.type.js";
import { type Money } from "../../common/money.type.js";
import { OrderDirection, type PagingArguments } from "../../common/relay/relay.connection.js";
import { FullTextProblem, parseFullText, type FullTextQuery } from "../search/search.full-text.js";
import { isDate, Problems } from "../validation/validation.checks.js";
import { isCountryCode, isCurrencyCode } from "../../../core/iso-codes.js";
import { isConvertible, type RatesUsed } from "../../../core/exchange-rates.js";
import { airportByIata, continentCodes, countriesOfContinent } from "./recommendation.places.js";

/*
 * A recommendation request (spec 3) and its rules: what is asked, and every fault named by its
 * field before anything is read.
 */


export interface RecommendationRequest {
  /** Spec 3's form; `valueField` names `value` in the caller's words ("location.value" unless given). */
  location?: { type?: unknown; value?: unknown; radius?: unknown; valueField?: string } | null;
  categories?: string[] | null;
  interests?: string[] | null;
  minPrice?: number | null;
  maxPrice?: number | null;
  currencyCode?: string | null;
  activityContext?: string | null;
  groupType?: string | null;
  travelDate?: string | null;
  risk?: string | null;
  varietyLevel?: string | null;
  bookingEngines?: { include?: string[] | null; exclude?: string[] | null } | null;
  paging: PagingArguments;
  orderBy: RecommendationOrder;
  /** Top activities: restaurants are left out. */
  excludeRestaurants?: boolean;
  /** Top activities: a city to stay in besides a point location. */
  alsoInCity?: string | null;
}

export interface Recommendation {
  cursor: string;
  node: Product;
  relevanceScore: number;
  /** Prices in the requested currency, when one was given and a rate is known. */
  displayMinPrice: Money | null;
  displayMaxPrice: Money | null;
  exchangeRates: RatesUsed | null;
}

export enum RecommendationSortField {
  RELEVANCE = "RELEVANCE",
  PRICE = "PRICE",
  RATING = "RATING",
}

export interface RecommendationOrder {
  field: RecommendationSortField;
  direction: OrderDirection;
}

export const DEFAULT_CITY_RADIUS_KM = 50;
export const MAX_RADIUS_KM = 500;
export const MAX_RECOMMENDATION_PAGE = 100;
/** Candidates scored per request; more specific requests never reach it. */
export const CANDIDATE_CAP = 10_000;

/** Weights of relevanceScore (docs/search.md): renormalised over the components a request uses. */
export const RELEVANCE_WEIGHTS = { text: 0.3, category: 0.25, distance: 0.2, rating: 0.15, popularity: 0.1 } as const;

const enums = {
  activityContext: ["Business", "Leisure", "Staycation"],
  groupType: ["Solo", "Couple", "Family", "Group"],
  risk: ["Safe", "Moderate", "Dangerous"],
  varietyLevel: ["Low", "Medium", "High"],
} as const;

/** Subcategory codes each preference leaves out (docs/spec-decisions.md, "Recommendations"). */
const excludedSubcategories = {
  risk: { Safe: ["climbing", "paragliding", "snorkeling-diving", "skiing", "safaris"], Moderate: ["paragliding"], Dangerous: [] as string[] },
  activityContext: { Business: ["kids-activities", "nightlife", "escape-rooms"], Staycation: ["airport-transfers", "city-passes"], Leisure: [] as string[] },
  groupType: { Family: ["nightlife", "brewery-tours", "wine-tastings"], Solo: [] as string[], Couple: ["kids-activities"], Group: [] as string[] },
} as const;
/** Pricing units that do not suit a group type. */
export const excludedPricingUnits: Record<string, string[]> = { Solo: ["FAMILY", "GROUP", "PER_BOAT"], Couple: ["FAMILY"], Family: [], Group: [] };
/** Business travellers get activities of at most this many hours. */
export const BUSINESS_MAX_HOURS = 4;
/** varietyLevel: at most this many results per subcategory in a page. */
export const perSubcategory: Record<string, number> = { Low: Infinity, Medium: 4, High: 2 };

export interface Center {
  latitude: number;
  longitude: number;
  radius: number;
}

/**
 * The request's faults that need no database (every one but an unknown category), in spec 3's
 * order: REST judges a body by them before it can be typed.
 */
export function judgeRecommendationDocument(request: Omit<RecommendationRequest, "paging" | "orderBy">): FieldProblem[] {
  return validate(request).problems.list;
}

/** What a judged request narrows the catalogue by, with the problems found on the way. */
export interface JudgedRequest {
  problems: Problems;
  center: Center | null;
  countryCodes: string[] | null;
  cityName: string | null;
  currency: string;
  interests: FullTextQuery[];
}

export function validate(request: Omit<RecommendationRequest, "paging" | "orderBy">): JudgedRequest {
  const p = new Problems();
  const { center = null, countryCodes = null, cityName = null } = request.location ? judgeLocation(request.location, p) : {};
  for (const [field, values] of Object.entries(enums)) {
    const value = request[field as keyof typeof enums];
    if (value !== null && value !== undefined && !(values as readonly string[]).includes(value)) p.add(field, "enum", `${field} must be one of ${values.join(", ")}`);
  }
  if (request.travelDate !== null && request.travelDate !== undefined) {
    if (!isDate(request.travelDate)) p.add("travelDate", "date", "travelDate must be YYYY-MM-DD");
    else if (request.location?.type === "countryCode") p.add("travelDate", "notWithCountryCode", "travelDate cannot be combined with a countryCode location");
  }
  const currency = request.currencyCode ?? "EUR";
  if (!isCurrencyCode(currency) || !isConvertible(currency)) p.add("currencyCode", "currency", `currencyCode ${currency} is not a currency prices can be converted to`);
  for (const field of ["minPrice", "maxPrice"] as const) {
    const value = request[field];
    if (value !== null && value !== undefined && (!Number.isInteger(value) || value < 0)) p.add(field, "nonNegativeInteger", `${field} must be a whole number of 0 or more`);
  }
  if (typeof request.minPrice === "number" && typeof request.maxPrice === "number" && request.minPrice > request.maxPrice) p.add("maxPrice", "minPriceNotAbove", "maxPrice must not be below minPrice");
  const interests = judgeInterests(request.interests, p);
  return { problems: p, center, countryCodes, cityName, currency, interests };
}

/** Where a location asks for: a circle around a point, a list of countries or a city. */
function judgeLocation(location: NonNullable<RecommendationRequest["location"]>, p: Problems): { center?: Center; countryCodes?: string[]; cityName?: string } {
  const valueField = location.valueField ?? "location.value";
  const radius = location.radius ?? DEFAULT_CITY_RADIUS_KM;
  if (typeof radius !== "number" || !Number.isInteger(radius) || radius < 1 || radius > MAX_RADIUS_KM) p.add("location.radius", "range", `location.radius must be 1 to ${MAX_RADIUS_KM} km`);
  const values = Array.isArray(location.value) ? (location.value as unknown[]) : null;
  switch (location.type) {
    case "continentCode":
      if (!values?.length || !values.every((v) => typeof v === "string" && (continentCodes as readonly string[]).includes(v))) {
        p.add(valueField, "continentCode", `${valueField} must list continent codes (${continentCodes.join(", ")})`);
        return {};
      }
      return { countryCodes: (values as string[]).flatMap(countriesOfContinent) };
    case "countryCode":
      if (!values?.length || !values.every((v) => typeof v === "string" && isCountryCode(v))) {
        p.add(valueField, "iso3166", `${valueField} must list ISO 3166-1 alpha-2 codes`);
        return {};
      }
      return { countryCodes: values as string[] };
    case "cityName":
      if (values?.length !== 1 || typeof values[0] !== "string" || values[0].trim() === "") {
        p.add(valueField, "exactlyOne", `${valueField} must hold exactly one city name`);
        return {};
      }
      return { cityName: (values[0] as string).trim() };
    case "iataCode": {
      const airport = values?.length === 1 && typeof values[0] === "string" ? airportByIata(values[0]) : undefined;
      if (values?.length !== 1) p.add(valueField, "exactlyOne", `${valueField} must hold exactly one IATA code`);
      else if (!airport) p.add(valueField, "iata", `${String(values[0])} is not a known IATA airport code`);
      else return { center: { latitude: airport.latitude, longitude: airport.longitude, radius: Number(radius) } };
      return {};
    }
    case "geoPoint": {
      const point = location.value as { latitude?: unknown; longitude?: unknown } | null;
      const { latitude, longitude } = point ?? {};
      if (typeof latitude !== "number" || latitude < -90 || latitude > 90 || typeof longitude !== "number" || longitude < -180 || longitude > 180) {
        p.add(valueField, "geoPoint", `${valueField} must be {latitude -90..90, longitude -180..180}`);
        return {};
      }
      return { center: { latitude, longitude, radius: Number(radius) } };
    }
    default:
      p.add("location.type", "enum", "location.type must be continentCode, countryCode, cityName, iataCode or geoPoint");
      return {};
  }
}

/** The interests as full-text queries; none when the list itself is refused. */
function judgeInterests(given: RecommendationRequest["interests"], p: Problems): FullTextQuery[] {
  if ((given?.length ?? 0) > 10 || given?.some((i) => typeof i !== "string" || i.trim() === "" || i.length > 100)) {
    p.add("interests", "list", "interests: at most 10 texts of 1 to 100 characters");
    return [];
  }
  // Read as a text criterion of Search is (search.full-text.ts): what PostgreSQL's parser would fail on is refused here.
  return (given ?? []).map((interest, index) => {
    try {
      return parseFullText(interest);
    } catch (error) {
      if (!(error instanceof FullTextProblem)) throw error;
      p.add(`interests[${index}]`, "fullText", `interests[${index}]: ${error.message}`);
      return [];
    }
  });
}

export function subcategoryExclusions(request: RecommendationRequest): string[] {
  const codes: string[] = [];
  if (request.risk) codes.push(...excludedSubcategories.risk[request.risk as keyof typeof excludedSubcategories.risk]);
  if (request.activityContext) codes.push(...excludedSubcategories.activityContext[request.activityContext as keyof typeof excludedSubcategories.activityContext]);
  if (request.groupType) codes.push(...excludedSubcategories.groupType[request.groupType as keyof typeof excludedSubcategories.groupType]);
  if (request.excludeRestaurants) codes.push("restaurants");
  return [...new Set(codes)];
}
