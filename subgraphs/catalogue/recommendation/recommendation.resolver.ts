import { Arg, Ctx, Field, Float, InputType, Int, ObjectType, Query, Resolver } from "type-graphql";
import { rejected } from "../../../core/refusals.js";
import { ExchangeRates } from "../../common/exchange-rates.type.js";
import { JSONObjectScalar } from "../../common/json-scalars.js";
import type { CatalogueContext } from "../loaders.js";
import { Product } from "../product/product.type.js";
import { recommend, type Recommendation as RecommendationResult } from "./recommendation.service.js";

@ObjectType()
export class Recommendation {
  @Field(() => Product) product!: Product;
  @Field(() => Float, { description: "0 to 1; see docs/search.md" }) relevanceScore!: number;
  @Field(() => Float, { nullable: true, description: "minPrice in the requested currency" }) displayMinPrice!: number | null;
  @Field(() => Float, { nullable: true }) displayMaxPrice!: number | null;
  @Field(() => String, { nullable: true }) displayCurrency!: string | null;
  @Field(() => ExchangeRates, { nullable: true, description: "The rates the display prices were converted at (extension)" }) displayExchangeRates!: ExchangeRates | null;
}

@InputType()
export class BookingEngineSelection {
  @Field(() => [String], { nullable: true }) include?: string[] | null;
  @Field(() => [String], { nullable: true }) exclude?: string[] | null;
}

@InputType({ description: "The body of POST /recommendation/v2/activities" })
export class RecommendationInput {
  @Field(() => JSONObjectScalar, { nullable: true, description: "{type: continentCode|countryCode|cityName|iataCode|geoPoint, value, radius}" }) location?: Record<string, unknown> | null;
  @Field(() => [String], { nullable: true, description: "Taxonomy slugs" }) categories?: string[] | null;
  @Field(() => [String], { nullable: true }) interests?: string[] | null;
  @Field(() => Int, { nullable: true }) minPrice?: number | null;
  @Field(() => Int, { nullable: true }) maxPrice?: number | null;
  @Field(() => String, { nullable: true }) currencyCode?: string | null;
  @Field(() => String, { nullable: true }) activityContext?: string | null;
  @Field(() => String, { nullable: true }) groupType?: string | null;
  @Field(() => String, { nullable: true }) travelDate?: string | null;
  @Field(() => String, { nullable: true }) risk?: string | null;
  @Field(() => String, { nullable: true }) varietyLevel?: string | null;
  @Field(() => BookingEngineSelection, { nullable: true }) bookingEngines?: BookingEngineSelection | null;
}

export const MAX_TOP_ACTIVITIES = 10;

@Resolver()
export class RecommendationResolver {
  @Query(() => [Recommendation], { description: "Recommendations v2 (spec 3), ranked by relevanceScore unless sorted otherwise" })
  recommendations(
    @Arg("input", () => RecommendationInput, { nullable: true }) input: RecommendationInput | null,
    @Arg("offset", () => Int, { defaultValue: 0 }) offset: number,
    @Arg("limit", () => Int, { defaultValue: 20 }) limit: number,
    @Arg("sort", () => String, { defaultValue: "pertinence" }) sort: string,
    @Ctx() ctx: CatalogueContext,
  ): Promise<RecommendationResult[]> {
    return recommend(ctx, { ...(input ?? {}), offset, limit, sort });
  }

  @Query(() => [Recommendation], { description: "Top activities near an airport or in a city (spec 3); restaurants excluded" })
  topActivities(
    @Arg("iataCode", () => String, { nullable: true }) iataCode: string | null,
    @Arg("cityName", () => String, { nullable: true }) cityName: string | null,
    @Arg("lat", () => Float, { nullable: true }) givenLat: number | null | undefined,
    @Arg("lon", () => Float, { nullable: true }) givenLon: number | null | undefined,
    @Arg("radius", () => Int, { defaultValue: 100 }) radius: number,
    @Arg("maxRecommendations", () => Int, { defaultValue: MAX_TOP_ACTIVITIES }) maxRecommendations: number,
    @Ctx() ctx: CatalogueContext,
  ): Promise<RecommendationResult[]> {
    // An argument left out arrives as undefined, one given as null as null: both mean "not given".
    const [lat, lon] = [givenLat ?? null, givenLon ?? null];
    const problems = [];
    if (!iataCode && !cityName) problems.push({ field: "iataCode", rule: "required", message: "iataCode or cityName is required" });
    if ((lat === null) !== (lon === null)) problems.push({ field: "lat", rule: "pair", message: "lat and lon go together" });
    if (!Number.isInteger(maxRecommendations) || maxRecommendations < 1 || maxRecommendations > MAX_TOP_ACTIVITIES) {
      problems.push({ field: "maxRecommendations", rule: "range", message: `maxRecommendations must be 1 to ${MAX_TOP_ACTIVITIES}` });
    }
    if (problems.length) throw rejected("INVALID_PARAMETER", problems.map((p) => p.message).join("; "), problems);
    const point = lat !== null && lon !== null ? { latitude: lat, longitude: lon } : null;
    // iataCode wins over cityName; lat/lon, when given, are the centre of the search.
    const location = iataCode
      ? point
        ? { type: "geoPoint", value: point, radius }
        : { type: "iataCode", value: [iataCode], radius }
      : point
        ? { type: "geoPoint", value: point, radius }
        : { type: "cityName", value: [cityName], radius };
    return recommend(ctx, {
      location,
      alsoInCity: !iataCode && point ? cityName : null,
      offset: 0,
      limit: maxRecommendations,
      sort: "pertinence",
      excludeRestaurants: true,
    }).catch((error) => {
      // The shared validator names body fields; here they are query parameters.
      if (error?.extensions?.reason === "INVALID_RECOMMENDATION_REQUEST") {
        throw rejected("INVALID_PARAMETER", error.message, error.extensions.problems);
      }
      throw error;
    });
  }
}
