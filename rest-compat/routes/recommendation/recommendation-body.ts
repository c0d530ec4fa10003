import { createHash } from "node:crypto";
import { answer, type JsonSchema } from "../../json-schema.js";
import { CONSUMER_PRODUCT_FIELDS, CONSUMER_RECORD_REQUIRED, consumerRecordProperties, type ConsumerProductData } from "../api-consumer/consumer-product.js";

type MoneyData = { amount: string; currencyCode: string } | null;

export interface RecommendationData {
  node: ConsumerProductData;
  relevanceScore: number;
  displayMinPrice: MoneyData;
  displayMaxPrice: MoneyData;
  exchangeRates: { date: string; source: string } | null;
}

export const RECOMMENDATION_FIELDS = /* GraphQL */ `
  fragment RestRecommendation on RecommendationEdge {
    relevanceScore displayMinPrice { amount currencyCode } displayMaxPrice { amount currencyCode } exchangeRates { date source }
    node { ...ConsumerProduct }
  }
  ${CONSUMER_PRODUCT_FIELDS}
`;

/** A name-based UUID, so a product's placeDetail id is stable. */
const stableUuid = (seed: string) => {
  const hex = createHash("sha1").update(seed).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

const point = answer({ lat: { type: "number" }, lng: { type: "number" } }, ["lat", "lng"]);

/** The consumer product record as recommendationBody writes it. */
export const recommendationProperties = {
  ...consumerRecordProperties,
  exchangeRates: answer(
    { date: { type: "string", description: "YYYY-MM-DD the rates were fixed" }, source: { type: "string", description: "Where they came from" } },
    ["date", "source"],
    "Extension: the rates the prices were converted at, when currencyCode was given",
  ),
  relevanceScore: { type: "number", description: "How well the activity answers the request (docs/search.md)" },
  aiGenerated: answer({ translation: { type: "boolean", description: "The text is an automated translation" } }, ["translation"]),
  placeDetail: answer(
    {
      id: { type: "string", description: "Stable UUID of the place" },
      formattedAddress: { type: "string" },
      addressComponents: {
        type: "array",
        items: answer({ types: { type: "array", items: { type: "string" } }, long_name: { type: "string" }, short_name: { type: "string" } }, ["types", "long_name", "short_name"]),
      },
      geometry: answer({ location: point, viewport: answer({ northeast: point, southwest: point }, ["northeast", "southwest"]) }, ["location", "viewport"]),
      photos: { type: "array", items: { type: "string" }, description: "Gallery image URLs" },
    },
    ["id", "formattedAddress", "addressComponents", "geometry", "photos"],
    "Where the activity is; present when it has coordinates",
  ),
  travelerUrl: { type: "string", description: "Link to the product for the traveller (its booking URL)" },
} satisfies Record<string, JsonSchema>;

export const recommendationSchema: JsonSchema = answer(recommendationProperties, [...CONSUMER_RECORD_REQUIRED, "relevanceScore", "aiGenerated"], "Consumer product record with relevanceScore");

/**
 * The consumer product record with relevanceScore, aiGenerated, placeDetail and travelerUrl (spec
 * 3). Prices are shown in the requested currency when one was given (`displayCurrency`).
 */
export function recommendationBody(r: RecommendationData, displayCurrency: string | null = null) {
  const body = { ...r.node.consumerRecord } as Record<string, unknown>;
  if (displayCurrency) {
    body.minPrice = r.displayMinPrice ? Number(r.displayMinPrice.amount) : undefined;
    body.maxPrice = r.displayMaxPrice ? Number(r.displayMaxPrice.amount) : undefined;
    body.priceCurrency = displayCurrency;
    // Extension: the rates the prices were converted at.
    if (r.exchangeRates) body.exchangeRates = r.exchangeRates;
  }
  const location = body.geoLocation as { latitude?: number; longitude?: number } | undefined;
  const placeDetail =
    location?.latitude !== undefined && location.longitude !== undefined
      ? {
          id: stableUuid(`place:${body.id}`),
          formattedAddress: [body.address, body.zipCode, body.cityName, body.countryName].filter(Boolean).join(", "),
          addressComponents: [
            ...(body.cityName ? [{ types: ["locality"], long_name: body.cityName, short_name: body.cityName }] : []),
            ...(body.countryName ? [{ types: ["country"], long_name: body.countryName, short_name: body.countryCode ?? body.countryName }] : []),
          ],
          geometry: {
            location: { lat: location.latitude, lng: location.longitude },
            viewport: {
              northeast: { lat: location.latitude + 0.005, lng: location.longitude + 0.005 },
              southwest: { lat: location.latitude - 0.005, lng: location.longitude - 0.005 },
            },
          },
          photos: ((body.galleryImages ?? []) as { url: string }[]).map((image) => image.url),
        }
      : undefined;
  return {
    ...body,
    relevanceScore: r.relevanceScore,
    aiGenerated: { translation: false },
    ...(placeDetail ? { placeDetail } : {}),
    ...(body.bookingUrl ? { travelerUrl: body.bookingUrl } : {}),
  };
}
