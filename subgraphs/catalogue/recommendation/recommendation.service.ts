import { type FieldProblem } from "../../../core/errors.js";
import { rejected } from "../../../core/refusals.js";
import { searchConfigs } from "../../../drizzle/schema.js";
import { recommendationRepository } from "./recommendation.repository.js";
import { consumerAccess } from "../consumer.access.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import type { ProductRow } from "../product/product.repository.js";
import { toProduct } from "../product/product.view.js";
import type { Product } from "../product/product.type.js";
import { moneyOf, type Money } from "../../common/money.type.js";
import { CountPrecision, cursorCodec, offsetOf, OrderDirection, pageRequest, positionConnection, positionSlice, type Connection, type PagingArguments } from "../../common/relay/relay.connection.js";
import { FullTextProblem, parseFullText, type FullTextQuery } from "../search/search.full-text.js";
import { isDate, Problems } from "../validation/validation.checks.js";
import { isCountryCode, isCurrencyCode } from "../../../core/iso-codes.js";
import { conversion, convert, isConvertible, type RatesUsed } from "../../../core/exchange-rates.js";
import { airportByIata, continentCodes, countriesOfContinent, distanceKm } from "./recommendation.places.js";

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
const CANDIDATE_CAP = 10_000;

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
const excludedPricingUnits: Record<string, string[]> = { Solo: ["FAMILY", "GROUP", "PER_BOAT"], Couple: ["FAMILY"], Family: [], Group: [] };
/** Business travellers get activities of at most this many hours. */
const BUSINESS_MAX_HOURS = 4;
/** varietyLevel: at most this many results per subcategory in a page. */
const perSubcategory: Record<string, number> = { Low: Infinity, Medium: 4, High: 2 };

interface Center {
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
interface JudgedRequest {
  problems: Problems;
  center: Center | null;
  countryCodes: string[] | null;
  cityName: string | null;
  currency: string;
  interests: FullTextQuery[];
}

function validate(request: Omit<RecommendationRequest, "paging" | "orderBy">): JudgedRequest {
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

function subcategoryExclusions(request: RecommendationRequest): string[] {
  const codes: string[] = [];
  if (request.risk) codes.push(...excludedSubcategories.risk[request.risk as keyof typeof excludedSubcategories.risk]);
  if (request.activityContext) codes.push(...excludedSubcategories.activityContext[request.activityContext as keyof typeof excludedSubcategories.activityContext]);
  if (request.groupType) codes.push(...excludedSubcategories.groupType[request.groupType as keyof typeof excludedSubcategories.groupType]);
  if (request.excludeRestaurants) codes.push("restaurants");
  return [...new Set(codes)];
}

/** A weekly period as stored: its bounds, closed days, and an opening per weekday (`monday`…). */
type WeeklyPeriod = { startDate?: string; endDate?: string; closedDayList?: string[]; [weekday: string]: unknown };

/** Open on a date: no periods at all, a weekly period covering it with that weekday open, or a spontaneous event that day. */
export function availableOn(periods: Record<string, unknown> | null, date: string): boolean {
  if (!periods) return true;
  const weekly = (periods.weeklyPeriods as WeeklyPeriod[] | undefined) ?? [];
  const events = ((periods.spontaneousPeriod as { eventDateList?: string[] } | undefined)?.eventDateList ?? []).map((e) => e.slice(0, 10));
  if (!weekly.length && !events.length) return true;
  if (events.includes(date)) return true;
  const day = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][new Date(`${date}T00:00:00Z`).getUTCDay()];
  return weekly.some((period) => {
    if ((period.startDate && date < period.startDate) || (period.endDate && date > period.endDate)) return false;
    if ((period.closedDayList ?? []).includes(date)) return false;
    const weekday = period[day] as { open?: boolean } | null | undefined;
    return weekday === undefined || weekday === null ? true : weekday.open === true;
  });
}

const hoursOf = (duration: string | null): number | null => {
  const match = duration?.match(/^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/);
  return match ? Number(match[1] ?? 0) * 24 + Number(match[2] ?? 0) + Number(match[3] ?? 0) / 60 : null;
};

/** A bounding box around the centre (cheap in SQL); the exact distance is judged on the candidates. */
function boxAround(center: { latitude: number; longitude: number; radius: number }) {
  const dLat = center.radius / 111;
  const dLon = center.radius / (111 * Math.max(0.01, Math.cos((center.latitude * Math.PI) / 180)));
  return { minLatitude: center.latitude - dLat, maxLatitude: center.latitude + dLat, minLongitude: center.longitude - dLon, maxLongitude: center.longitude + dLon };
}

/**
 * Recommendations (spec 3, v2): filters narrow the catalogue, relevanceScore ranks it. Every
 * filter excludes in SQL where it can, the rest (distance, travel date, converted prices,
 * variety) on the scored candidates.
 */
export async function recommend(ctx: CatalogueContext, request: RecommendationRequest, largestPage = MAX_RECOMMENDATION_PAGE): Promise<Connection<Product> & { edges: Recommendation[] }> {
  await consumerAccess(ctx);
  // The paging arguments are checked before anything is read; the ranking gives the list's length for paging back.
  pageRequest(request.paging, largestPage, (cursor) => (offsetOf(cursorCodec.decode(cursor)) === null ? null : cursor));
  const judged = await judgedRequest(ctx, request);
  const candidates = await candidatesOf(ctx, request, judged);
  const weights = relevanceWeights(request, judged);
  const weightSum = Object.values(weights).reduce((a, b) => a + b, 0);
  const scored = candidates.flatMap((candidate) => scoreCandidate(candidate, request, judged, weights, weightSum) ?? []);
  sortScored(scored, request.orderBy);
  const ranked = await withVariety(ctx, scored, request.varietyLevel);
  return recommendationPage(request, ranked, largestPage, judged.currency);
}

/** The request judged, an unknown category included; refused when anything is wrong. */
async function judgedRequest(ctx: CatalogueContext, request: RecommendationRequest): Promise<JudgedRequest> {
  const judged = validate(request);
  const { problems } = judged;
  const known = await ctx.loaders.taxonomy();
  const slugs = new Map([...known.values()].map((node) => [node.slug, node]));
  (request.categories ?? []).forEach((slug, index) => {
    if (!slugs.has(slug)) problems.add(`categories[${index}]`, "taxonomy", `${slug} is not a taxonomy slug`);
  });
  if (!problems.empty) throw rejected("INVALID_RECOMMENDATION_REQUEST", problems.list.map((p: FieldProblem) => p.message).join("; "), problems.list);
  return judged;
}

type Candidate = Awaited<ReturnType<typeof recommendationRepository.candidates>>[number];

function candidatesOf(ctx: CatalogueContext, request: RecommendationRequest, { center, countryCodes, cityName, interests }: JudgedRequest): Promise<Candidate[]> {
  const config = searchConfigs[ctx.languages[0] ?? "en"] ?? "simple";
  return recommendationRepository.candidates(
    ctx.database.db,
    {
      config,
      countryCodes: countryCodes ?? null,
      cities: [cityName, request.alsoInCity].filter((city): city is string => Boolean(city)),
      box: center ? boxAround(center) : null,
      categories: request.categories ?? [],
      interests,
      excludedSubcategories: subcategoryExclusions(request),
      excludedPricingUnits: request.groupType ? excludedPricingUnits[request.groupType] : [],
      includedEngines: request.bookingEngines?.include ?? [],
      excludedEngines: request.bookingEngines?.exclude ?? [],
    },
    CANDIDATE_CAP,
  );
}

type Weights = Record<keyof typeof RELEVANCE_WEIGHTS, number>;

/** The components a request uses, weighted; the others weigh nothing. */
function relevanceWeights(request: RecommendationRequest, { interests, center }: JudgedRequest): Weights {
  return {
    text: interests.length ? RELEVANCE_WEIGHTS.text : 0,
    category: request.categories?.length ? RELEVANCE_WEIGHTS.category : 0,
    distance: center ? RELEVANCE_WEIGHTS.distance : 0,
    rating: RELEVANCE_WEIGHTS.rating,
    popularity: RELEVANCE_WEIGHTS.popularity,
  };
}

interface Scored {
  row: ProductRow;
  score: number;
  displayMin: number | null;
  displayMax: number | null;
}

/** A candidate scored, with its prices in the requested currency; undefined when a filter SQL could not apply leaves it out. */
function scoreCandidate(candidate: Candidate, request: RecommendationRequest, { center, currency, interests }: JudgedRequest, weights: Weights, weightSum: number): Scored | undefined {
  const row = candidate.row;
  let distanceScore = 0;
  if (center) {
    if (row.latitude === null || row.longitude === null) return undefined;
    const km = distanceKm(center, { latitude: row.latitude, longitude: row.longitude });
    if (km > center.radius) return undefined;
    distanceScore = 1 - km / center.radius;
  }
  if (request.travelDate && !availableOn(row.availabilityPeriods, request.travelDate)) return undefined;
  if (request.activityContext === "Business") {
    const hours = hoursOf(row.duration);
    if (hours !== null && hours > BUSINESS_MAX_HOURS) return undefined;
  }
  const priceCurrency = row.priceCurrency ?? currency;
  const low = row.minPrice ?? row.averagePrice;
  const high = row.maxPrice ?? low;
  const displayMin = low === null ? null : convert(low, priceCurrency, currency);
  const displayMax = high === null ? null : convert(high, priceCurrency, currency);
  if (typeof request.minPrice === "number" || typeof request.maxPrice === "number") {
    if (displayMin === null) return undefined;
    if (typeof request.maxPrice === "number" && displayMin > request.maxPrice) return undefined;
    if (typeof request.minPrice === "number" && (displayMax ?? displayMin) < request.minPrice) return undefined;
  }
  const components: Weights = {
    text: interests.length ? Number(candidate.interestHits) / interests.length : 0,
    category: Number(candidate.categoryStrength),
    distance: distanceScore,
    rating: row.rating === null ? 0.5 : row.rating / 5,
    popularity: Math.min(1, Math.log1p(row.numberOfRatings ?? 0) / Math.log1p(10_000)),
  };
  const score = (Object.keys(weights) as (keyof Weights)[]).reduce((sum, key) => sum + weights[key] * components[key], 0) / weightSum;
  return { row, score: Math.round(score * 10_000) / 10_000, displayMin, displayMax };
}

function sortScored(scored: Scored[], orderBy: RecommendationOrder): void {
  const descending = orderBy.direction === OrderDirection.DESC;
  const key = orderBy.field;
  // Without a price, an activity comes last by price either way.
  const value = (s: Scored) =>
    key === RecommendationSortField.PRICE ? (s.displayMin ?? (descending ? -Infinity : Infinity)) : key === RecommendationSortField.RATING ? (s.row.rating ?? 0) : s.score;
  scored.sort((a, b) => (descending ? value(b) - value(a) : value(a) - value(b)) || b.score - a.score || a.row.id - b.row.id);
}

/** varietyLevel: the ranking with at most so many of each subcategory. */
async function withVariety(ctx: CatalogueContext, scored: Scored[], varietyLevel: string | null | undefined): Promise<Scored[]> {
  const cap = perSubcategory[varietyLevel ?? "Low"];
  if (!Number.isFinite(cap)) return scored;
  const links = await ctx.loaders.productTaxonomyNodes.loadMany(scored.map((s) => s.row.id));
  const counts = new Map<string, number>();
  return scored.filter((s, index) => {
    const nodes = links[index];
    const sub = Array.isArray(nodes) ? (nodes.find((n) => n.level === 2)?.code ?? "none") : "none";
    const seen = counts.get(sub) ?? 0;
    counts.set(sub, seen + 1);
    return seen < cap;
  });
}

function recommendationPage(request: RecommendationRequest, ranked: Scored[], largestPage: number, currency: string): Connection<Product> & { edges: Recommendation[] } {
  const { start, size } = positionSlice(request.paging, largestPage, ranked.length);
  const page = {
    rows: ranked.slice(start, start + size),
    start,
    hasNextPage: start + size < ranked.length,
    hasPreviousPage: start > 0,
    total: { count: ranked.length, precision: CountPrecision.EXACT },
  };
  const shown = (amount: number | null) => (request.currencyCode && amount !== null ? moneyOf(amount, currency) : null);
  return positionConnection(page, (s, cursor) => ({
    cursor,
    node: toProduct(s.row),
    relevanceScore: s.score,
    displayMinPrice: shown(s.displayMin),
    displayMaxPrice: shown(s.displayMax),
    exchangeRates: request.currencyCode ? ratesOf(s.row.priceCurrency ?? currency, currency) : null,
  }));
}

function ratesOf(from: string, to: string): RatesUsed | null {
  const pair = conversion(from, to);
  return pair ? { date: pair.date, source: pair.source } : null;
}
