import { type FieldProblem } from "../../../core/errors.js";
import { rejected } from "../../../core/refusals.js";
import { searchConfigs } from "../../../drizzle/schema.js";
import { recommendationRepository } from "./recommendation.repository.js";
import { consumerAccess } from "../consumer.access.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { toProduct } from "../product/product.view.js";
import type { Product } from "../product/product.type.js";
import { moneyOf } from "../../common/money.type.js";
import { CountPrecision, cursorCodec, offsetOf, pageRequest, positionConnection, positionSlice, type Connection } from "../../common/relay/relay.connection.js";
import { conversion, type RatesUsed } from "../../../core/exchange-rates.js";
import { CANDIDATE_CAP, excludedPricingUnits, MAX_RECOMMENDATION_PAGE, perSubcategory, subcategoryExclusions, validate, type JudgedRequest, type Recommendation, type RecommendationRequest } from "./recommendation.rules.js";
import { relevanceWeights, scoreCandidate, sortScored, type Candidate, type Scored } from "./recommendation.scoring.js";

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
