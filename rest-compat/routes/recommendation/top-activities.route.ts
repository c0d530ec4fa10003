import { MAX_TOP_ACTIVITIES } from "../../../subgraphs/catalogue/recommendation/recommendation.resolver.js";
import { restRejected } from "../../error-body.js";
import { answer, int, num, obj, str } from "../../json-schema.js";
import { CONSUMER_RECORD_REQUIRED } from "../api-consumer/consumer-product.js";
import type { RestRoute } from "../../rest-route.js";
import { RECOMMENDATION_FIELDS, recommendationBody, recommendationProperties, type RecommendationData } from "./recommendation-body.js";

/** GET /recommendation/v1/top-activities (spec 3, "Recommendation top activities"). */
export const topActivitiesRoute: RestRoute<{ topActivities: { edges: (RecommendationData & { node: { trackingId: number | null } })[] } }> = {
  method: "GET",
  url: "/recommendation/v1/top-activities",
  schema: {
    operationId: "getTopActivities",
    summary: "Top activities",
    description:
      "Activities (restaurants excluded) near an airport (iataCode, which wins) or in a city (cityName), best relevanceScore first. lat and lon, when given, are the centre of the search (with cityName, activities must also be in that city). 400 INVALID_PARAMETER.",
    tags: ["Recommendations"],
    querystring: obj(
      {
        iataCode: str("IATA airport code"),
        cityName: str("City"),
        lat: num("Latitude of the centre"),
        lon: num("Longitude of the centre"),
        radius: { ...int("Kilometres, default 100"), default: 100, minimum: -2_147_483_648, maximum: 2_147_483_647 },
        maxRecommendations: { ...int("1 to 10, default 10"), default: 10, minimum: -2_147_483_648, maximum: 2_147_483_647 },
      },
      { additionalProperties: false },
    ),
    response: {
      200: {
        type: "array",
        description: "Top activities, best relevanceScore first",
        items: answer({ ...recommendationProperties, productId: int("The static catalogue id") }, [...CONSUMER_RECORD_REQUIRED, "relevanceScore", "aiGenerated", "productId"]),
      },
    },
  },
  operation: /* GraphQL */ `
    query RestTopActivities($iataCode: String, $cityName: String, $lat: Float, $lon: Float, $radius: Int!, $first: Int!, $externalClientId: String) {
      topActivities(iataCode: $iataCode, cityName: $cityName, lat: $lat, lon: $lon, radius: $radius, first: $first) { edges { ...RestRecommendation node { trackingId } } }
    }
    ${RECOMMENDATION_FIELDS}
  `,
  parameters: { first: "maxRecommendations" },
  variables: (request) => {
    const q = request.query as Record<string, unknown>;
    const max = Number(q.maxRecommendations);
    // The graph's connection refuses a page size by its own rule: the path's code is given here.
    if (!Number.isInteger(max) || max < 1 || max > MAX_TOP_ACTIVITIES) {
      const message = `maxRecommendations must be 1 to ${MAX_TOP_ACTIVITIES}`;
      throw restRejected("INVALID_PARAMETER", message, [{ field: "maxRecommendations", rule: "range", message }]);
    }
    return { iataCode: q.iataCode ?? null, cityName: q.cityName ?? null, lat: q.lat ?? null, lon: q.lon ?? null, radius: q.radius, first: max, externalClientId: null };
  },
  respond: ({ topActivities }) =>
    topActivities.edges.map((r) => {
      const record = recommendationBody(r);
      // trackingId feature: a per-call id in `id`, the catalogue id in `productId`.
      return { ...record, id: r.node.trackingId ?? r.node.consumerRecord.id, productId: r.node.consumerRecord.id };
    }),
};
