import type { recommendationRepository } from "./recommendation.repository.js";
import type { ProductRow } from "../product/product.repository.js";
import { OrderDirection } from "../../common/relay/relay.connection.js";
import { convert } from "../../../core/exchange-rates.js";
import { distanceKm } from "./recommendation.places.js";
import { BUSINESS_MAX_HOURS, RELEVANCE_WEIGHTS, RecommendationSortField, type JudgedRequest, type RecommendationOrder, type RecommendationRequest } from "./recommendation.rules.js";

/*
 * How a candidate is judged: open on the date, its relevance from text, categories, distance,
 * rating and popularity, and the order the request asks for.
 */

/** A product the repository found for a request, with what scoring reads of it. */
export type Candidate = Awaited<ReturnType<typeof recommendationRepository.candidates>>[number];

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

export type Weights = Record<keyof typeof RELEVANCE_WEIGHTS, number>;

/** The components a request uses, weighted; the others weigh nothing. */
export function relevanceWeights(request: RecommendationRequest, { interests, center }: JudgedRequest): Weights {
  return {
    text: interests.length ? RELEVANCE_WEIGHTS.text : 0,
    category: request.categories?.length ? RELEVANCE_WEIGHTS.category : 0,
    distance: center ? RELEVANCE_WEIGHTS.distance : 0,
    rating: RELEVANCE_WEIGHTS.rating,
    popularity: RELEVANCE_WEIGHTS.popularity,
  };
}

export interface Scored {
  row: ProductRow;
  score: number;
  displayMin: number | null;
  displayMax: number | null;
}

/** A candidate scored, with its prices in the requested currency; undefined when a filter SQL could not apply leaves it out. */
export function scoreCandidate(candidate: Candidate, request: RecommendationRequest, { center, currency, interests }: JudgedRequest, weights: Weights, weightSum: number): Scored | undefined {
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

export function sortScored(scored: Scored[], orderBy: RecommendationOrder): void {
  const descending = orderBy.direction === OrderDirection.DESC;
  const key = orderBy.field;
  // Without a price, an activity comes last by price either way.
  const value = (s: Scored) =>
    key === RecommendationSortField.PRICE ? (s.displayMin ?? (descending ? -Infinity : Infinity)) : key === RecommendationSortField.RATING ? (s.row.rating ?? 0) : s.score;
  scored.sort((a, b) => (descending ? value(b) - value(a) : value(a) - value(b)) || b.score - a.score || a.row.id - b.row.id);
}
