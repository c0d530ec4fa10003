import { Arg, Args, Ctx, Field, Float, InputType, Int, ObjectType, Query, registerEnumType, Resolver } from "type-graphql";
import { ConnectionOf, OrderDirection, type Connection, PagingArgsOf, type PagingArguments } from "../../common/relay/relay.connection.js";
import { Money } from "../../common/money.type.js";
import { rejected } from "../../../core/refusals.js";
import { ExchangeRates } from "../../common/exchange-rates.type.js";
import { consumerAccess } from "../consumer.access.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { Product } from "../product/product.type.js";
import { documentOfInput, RecommendationInput } from "./recommendation-input.type.js";
import { MAX_RECOMMENDATION_PAGE, RecommendationSortField } from "./recommendation.rules.js";
import { recommend } from "./recommendation.service.js";

registerEnumType(RecommendationSortField, {
  name: "RecommendationSortField",
  description: "What recommendations can be ordered by; equal ones by relevance, then by number",
  valuesConfig: {
    RELEVANCE: { description: "relevanceScore (docs/search.md)" },
    PRICE: { description: "The lowest price in the display currency; activities without one come last" },
    RATING: { description: "The average rating" },
  },
});

@InputType({ description: "An order of recommendations" })
export class RecommendationOrder {
  @Field(() => RecommendationSortField, { description: "What to order by" }) field!: RecommendationSortField;
  @Field(() => OrderDirection, { description: "Which way" }) direction!: OrderDirection;
}

@ObjectType({ description: "A recommended activity, with how well it answers the request and its prices in the display currency" })
export class RecommendationEdge {
  @Field(() => String, { description: "This activity's position in the ranking, for `after` or `before`" }) cursor!: string;
  @Field(() => Product, { description: "The activity" }) node!: Product;
  @Field(() => Float, { description: "How well it answers the request, 0 to 1 (docs/search.md)" }) relevanceScore!: number;
  @Field(() => Money, { nullable: true, description: "Its lowest price in the input's currencyCode; null when none was asked for, or it has no price or no rate" }) displayMinPrice!: Money | null;
  @Field(() => Money, { nullable: true, description: "Its highest price in the input's currencyCode; null as displayMinPrice" }) displayMaxPrice!: Money | null;
  @Field(() => ExchangeRates, { nullable: true, description: "The rates the display prices were converted at; null when no currency was asked for" }) exchangeRates!: ExchangeRates | null;
}

@ObjectType({ description: "Recommended activities, ranked, a page at a time" })
export class RecommendationConnection extends ConnectionOf(Product, RecommendationEdge) {}

export const MAX_TOP_ACTIVITIES = 10;

const DEFAULT_ORDER: RecommendationOrder = { field: RecommendationSortField.RELEVANCE, direction: OrderDirection.DESC };

/** The paging arguments of a list of activities. */
const ActivitiesPaging = PagingArgsOf("activities");

@Resolver()
export class RecommendationResolver {
  @Query(() => RecommendationConnection, {
    description: `Recommendations v2 (spec 3): the catalogue's activities ranked for the request, most relevant first unless ordered otherwise; at most ${MAX_RECOMMENDATION_PAGE} a page (20 unless asked). Cursors are positions in the ranking`,
  })
  async recommendations(
    @Ctx() ctx: CatalogueContext,
    @Args(() => ActivitiesPaging) paging: PagingArguments,
    @Arg("input", () => RecommendationInput, { nullable: true, description: "What the traveller is after: every activity the caller may see, unless given" }) input?: RecommendationInput | null,
    @Arg("orderBy", () => RecommendationOrder, { nullable: true, description: "The order: by RELEVANCE, descending, unless given" }) orderBy?: RecommendationOrder | null,
  ): Promise<Connection<Product>> {
    // The caller's access is judged before the input's shape, as everywhere in the catalogue.
    await consumerAccess(ctx);
    return recommend(ctx, { ...(input ? documentOfInput(input) : {}), paging: paging, orderBy: orderBy ?? DEFAULT_ORDER });
  }

  @Query(() => RecommendationConnection, { description: `Top activities near an airport or in a city (spec 3), restaurants excluded, most relevant first; at most ${MAX_TOP_ACTIVITIES} a page (${MAX_TOP_ACTIVITIES} unless asked)` })
  topActivities(
    @Ctx() ctx: CatalogueContext,
    @Args(() => ActivitiesPaging) paging: PagingArguments,
    @Arg("iataCode", () => String, { nullable: true, description: "An airport's IATA code: activities around it (it wins over cityName)" }) iataCode?: string | null,
    @Arg("cityName", () => String, { nullable: true, description: "A city: activities in it" }) cityName?: string | null,
    @Arg("lat", () => Float, { nullable: true, description: "The latitude of the search's centre, with lon" }) givenLat?: number | null,
    @Arg("lon", () => Float, { nullable: true, description: "The longitude of the search's centre, with lat" }) givenLon?: number | null,
    @Arg("radius", () => Int, { defaultValue: 100, description: "How far from the centre, in kilometres" }) radius = 100,
  ): Promise<Connection<Product>> {
    // An argument left out arrives as undefined, one given as null as null: both mean "not given".
    const [lat, lon] = [givenLat ?? null, givenLon ?? null];
    const problems = [];
    if (!iataCode && !cityName) problems.push({ field: "iataCode", rule: "required", message: "iataCode or cityName is required" });
    if ((lat === null) !== (lon === null)) problems.push({ field: "lat", rule: "pair", message: "lat and lon go together" });
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
    const sized = { ...paging, first: paging.first ?? (paging.last == null ? MAX_TOP_ACTIVITIES : null) };
    return recommend(ctx, { location, alsoInCity: !iataCode && point ? cityName : null, paging: sized, orderBy: DEFAULT_ORDER, excludeRestaurants: true }, MAX_TOP_ACTIVITIES).catch((error) => {
      // The shared validator names body fields; here they are query parameters.
      if (error?.extensions?.reason === "INVALID_RECOMMENDATION_REQUEST") {
        throw rejected("INVALID_PARAMETER", error.message, error.extensions.problems);
      }
      throw error;
    });
  }
}
