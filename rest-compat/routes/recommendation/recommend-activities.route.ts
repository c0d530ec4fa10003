import type { FastifyRequest } from "fastify";
import type { FieldProblem } from "../../../core/errors.js";
import { judgeRecommendationDocument, MAX_RECOMMENDATION_PAGE } from "../../../subgraphs/catalogue/recommendation/recommendation.rules.js";
import { inputOfDocument, type RecommendationDocument } from "../../../subgraphs/catalogue/recommendation/recommendation-input.type.js";
import { offsetCursor } from "../../../subgraphs/common/relay/relay.connection.js";
import { restRejected } from "../../error-body.js";
import { answer, arr, int, obj, str, freeObject, type JsonSchema } from "../../json-schema.js";
import { oncePerRequest } from "../../once-per-request.js";
import type { RestRoute } from "../../rest-route.js";
import { RECOMMENDATION_FIELDS, recommendationBody, recommendationSchema, type RecommendationData } from "./recommendation-body.js";

const enumOf = (values: string[], description: string): JsonSchema => ({ type: "string", enum: values, description });

/** The body of POST /recommendation/v2/activities (spec 3); all fields optional. */
export const recommendationBodySchema = obj(
  {
    location: freeObject("{type: continentCode|countryCode (value: array), cityName|iataCode (value: array of one, radius km), geoPoint (value: {latitude, longitude}, radius km)}; radius 1 to 500, default 50"),
    categories: arr(str("Taxonomy slug"), "Taxonomy slugs; an activity matches any"),
    interests: arr(str("Free text"), "Free-text interests matched against title and description; an activity matches any"),
    minPrice: int("Lower price bound in currencyCode"),
    maxPrice: int("Upper price bound in currencyCode"),
    currencyCode: str("ISO 4217 display currency; prices and bounds are converted to it (default EUR)"),
    activityContext: enumOf(["Business", "Leisure", "Staycation"], "Business: at most 4 hours, no family or nightlife; Staycation: no transfers or passes"),
    groupType: enumOf(["Solo", "Couple", "Family", "Group"], "Family: no nightlife or drinking; Solo: no group, family or boat prices; Couple: no family prices or kids' activities"),
    travelDate: str("YYYY-MM-DD: open that day; not with a countryCode location"),
    risk: enumOf(["Safe", "Moderate", "Dangerous"], "Safe: no climbing, paragliding, diving, skiing or safaris; Moderate: no paragliding"),
    varietyLevel: enumOf(["Low", "Medium", "High"], "High: at most 2 per subcategory; Medium: 4; Low: no limit"),
    // Closed like the body: the object goes to the operation as it is, where an unknown member fails.
    bookingEngines: obj({ include: arr(str("Engine name"), "Only these engines"), exclude: arr(str("Engine name"), "Not these engines") }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

const pageQuery = {
  "page[offset]": { ...int("Items skipped, default 0"), default: 0, minimum: -2_147_483_648, maximum: 2_147_483_647 },
  "page[limit]": { ...int("Items returned, 1 to 100, default 20"), default: 20, minimum: -2_147_483_648, maximum: 2_147_483_647 },
  "page[sort]": { ...str("price, rating or pertinence with + (ascending) or - (descending); default pertinence (most relevant first)"), default: "pertinence" },
};

const OPERATION = /* GraphQL */ `
  query RestRecommendations($input: RecommendationInput, $orderBy: RecommendationOrder!, $first: Int!, $after: String, $externalClientId: String) {
    recommendations(input: $input, orderBy: $orderBy, first: $first, after: $after) { edges { ...RestRecommendation } }
  }
  ${RECOMMENDATION_FIELDS}
`;

/** Spec 3's page[sort] values as the graph's order: without a sign, price ascends and the others descend. */
const ORDERS: Record<string, { field: string; direction: string }> = {
  pertinence: { field: "RELEVANCE", direction: "DESC" },
  "-pertinence": { field: "RELEVANCE", direction: "DESC" },
  "+pertinence": { field: "RELEVANCE", direction: "ASC" },
  price: { field: "PRICE", direction: "ASC" },
  "+price": { field: "PRICE", direction: "ASC" },
  "-price": { field: "PRICE", direction: "DESC" },
  rating: { field: "RATING", direction: "DESC" },
  "-rating": { field: "RATING", direction: "DESC" },
  "+rating": { field: "RATING", direction: "ASC" },
};

const responseSchema = { 200: answer({ data: arr(recommendationSchema, "Recommended activities, in the order asked for") }, ["data"], "Recommended activities") };
/**
 * Spec 3's page parameters as the connection's arguments: page[limit] from page[offset] is the
 * first page[limit] after an offset cursor. They are checked here, all at once, with the path's
 * code: the graph pages by cursor and orders by an input.
 */
function pageVariables(query: Record<string, unknown>) {
  const [offset, limit, sort] = [Number(query["page[offset]"]), Number(query["page[limit]"]), String(query["page[sort]"])];
  const problems: FieldProblem[] = [];
  if (!Number.isInteger(offset) || offset < 0) problems.push({ field: "page[offset]", rule: "minimum", message: "page[offset] must be 0 or more" });
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RECOMMENDATION_PAGE) problems.push({ field: "page[limit]", rule: "range", message: `page[limit] must be 1 to ${MAX_RECOMMENDATION_PAGE}` });
  if (!Object.hasOwn(ORDERS, sort)) problems.push({ field: "page[sort]", rule: "enum", message: "page[sort] must be price, rating or pertinence, with + or -" });
  if (problems.length) throw restRejected("INVALID_RECOMMENDATION_REQUEST", problems.map((p) => p.message).join("; "), problems);
  return { orderBy: ORDERS[sort], first: limit, after: offset > 0 ? offsetCursor(offset) : null, externalClientId: null };
}
const description =
  "Filters narrow the catalogue and relevanceScore ranks it (a deterministic function of text match, category match, distance, rating and popularity: docs/search.md). 400 INVALID_RECOMMENDATION_REQUEST names each field at fault.";

/** POST /recommendation/v2/activities (spec 3, Recommendations v2). */
type Data = { recommendations: { edges: RecommendationData[] } };

export const recommendActivitiesRoute: RestRoute<Data> = {
  method: "POST",
  url: "/recommendation/v2/activities",
  schema: { operationId: "recommendActivities", summary: "Recommend activities", description, tags: ["Recommendations"], querystring: obj(pageQuery, { additionalProperties: false }), body: recommendationBodySchema, response: responseSchema },
  operation: OPERATION,
  parameters: { input: "", after: "page[offset]", first: "page[limit]" },
  variables: (request) => typedVariables(request, (request.body as Record<string, unknown> | null) ?? {}),
  otherwise: refusal((request) => (request.body as Record<string, unknown> | null) ?? {}),
  respond: ({ recommendations }, request) => ({ data: recommendations.edges.map((r) => recommendationBody(r, currencyAsked((request.body as { currencyCode?: unknown } | null)?.currencyCode))) }),
};

/** The display currency a request asked for: the graph refused the request if it is not one it converts to. */
const currencyAsked = (value: unknown): string | null => (typeof value === "string" ? value : null);

const list = (value: unknown) => (typeof value === "string" && value !== "" ? value.split(",").map((v) => v.trim()).filter(Boolean) : undefined);

/**
 * GET /recommendation/v2/activities: the GET form (its shape is not shown in spec 3). The body's
 * fields as query parameters: locationType, locationValue (comma-separated; "lat,lon" for
 * geoPoint), radius, categories, interests, bookingEnginesInclude and bookingEnginesExclude
 * (comma-separated), and the scalar fields by name.
 */
export const recommendActivitiesGetRoute: RestRoute<Data> = {
  method: "GET",
  url: "/recommendation/v2/activities",
  schema: {
    operationId: "recommendActivitiesByQuery",
    summary: "Recommend activities (GET form)",
    description: `${description} The body's fields as query parameters (locationType, locationValue, radius, comma-separated lists).`,
    tags: ["Recommendations"],
    querystring: obj(
      {
        ...pageQuery,
        locationType: enumOf(["continentCode", "countryCode", "cityName", "iataCode", "geoPoint"], "Location type"),
        locationValue: str("Comma-separated values; 'latitude,longitude' for geoPoint"),
        radius: { ...int("Kilometres, 1 to 500"), minimum: -2_147_483_648, maximum: 2_147_483_647 },
        categories: str("Comma-separated taxonomy slugs"),
        interests: str("Comma-separated free-text interests"),
        minPrice: { ...int("Lower price bound"), minimum: -2_147_483_648, maximum: 2_147_483_647 },
        maxPrice: { ...int("Upper price bound"), minimum: -2_147_483_648, maximum: 2_147_483_647 },
        currencyCode: str("ISO 4217"),
        activityContext: str("Business, Leisure or Staycation"),
        groupType: str("Solo, Couple, Family or Group"),
        travelDate: str("YYYY-MM-DD"),
        risk: str("Safe, Moderate or Dangerous"),
        varietyLevel: str("Low, Medium or High"),
        bookingEnginesInclude: str("Comma-separated engine names"),
        bookingEnginesExclude: str("Comma-separated engine names"),
      },
      { additionalProperties: false },
    ),
    response: responseSchema,
  },
  operation: OPERATION,
  parameters: { input: "", after: "page[offset]", first: "page[limit]" },
  variables: (request) => typedVariables(request, queryDocument(request)),
  otherwise: refusal(queryDocument),
  respond: ({ recommendations }, request) => ({ data: recommendations.edges.map((r) => recommendationBody(r, currencyAsked((request.query as { currencyCode?: unknown }).currencyCode))) }),
};

/** The GET form's query parameters as the body they stand for. */
function queryDocument(request: FastifyRequest): Record<string, unknown> {
  const q = request.query as Record<string, unknown>;
  const values = list(q.locationValue);
  const location =
    q.locationType === undefined
      ? undefined
      : {
          type: q.locationType,
          value: q.locationType === "geoPoint" && values?.length === 2 ? { latitude: Number(values[0]), longitude: Number(values[1]) } : values,
          ...(q.radius !== undefined ? { radius: q.radius } : {}),
        };
  const input = {
    location,
    categories: list(q.categories),
    interests: list(q.interests),
    minPrice: q.minPrice,
    maxPrice: q.maxPrice,
    currencyCode: q.currencyCode,
    activityContext: q.activityContext,
    groupType: q.groupType,
    travelDate: q.travelDate,
    risk: q.risk,
    varietyLevel: q.varietyLevel,
    bookingEngines: q.bookingEnginesInclude || q.bookingEnginesExclude ? { include: list(q.bookingEnginesInclude), exclude: list(q.bookingEnginesExclude) } : undefined,
  };
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}


/** Spec 3's body in the service's form: the location's three members only. */
function bodyDocument(body: Record<string, unknown>): RecommendationDocument {
  const location = body.location as { type?: unknown; value?: unknown; radius?: unknown } | null | undefined;
  return { ...body, location: location ? { type: location.type, value: location.value, radius: location.radius } : location } as RecommendationDocument;
}

const typedVariables = (request: FastifyRequest, document: Record<string, unknown>) => ({
  input: inputOfDocument(bodyDocument(document)),
  ...pageVariables(request.query as Record<string, unknown>),
});

/**
 * A body the service's checks refuse cannot be typed: the graph is asked for the taxonomy (the
 * caller's access is checked there as for recommendations) so that the refusal names the
 * unknown categories too, after the other faults, as the service orders them.
 */
function refusal(documentOf: (request: FastifyRequest) => Record<string, unknown>): NonNullable<RestRoute<never>["otherwise"]> {
  // A request judged once: its page parameters first (refused at once), then the body by the
  // service's own checks. Only a body that passes them can be typed; the graph judges its
  // categories, which need the taxonomy.
  const judgement = oncePerRequest((request): FieldProblem[] => {
    pageVariables(request.query as Record<string, unknown>);
    return judgeRecommendationDocument(bodyDocument(documentOf(request)));
  });
  return {
    when: (request) => judgement(request).length > 0,
    operation: /* GraphQL */ `query RestRecommendationCategories { taxonomy { slug children { slug } } }`,
    respond: ({ taxonomy }: { taxonomy: { slug: string; children: { slug: string }[] }[] }, request) => {
      const slugs = new Set(taxonomy.flatMap((node) => [node.slug, ...node.children.map((child) => child.slug)]));
      const categories = documentOf(request).categories;
      const unknown = (Array.isArray(categories) ? categories : []).flatMap((slug, index) =>
        slugs.has(slug) ? [] : [{ field: `categories[${index}]`, rule: "taxonomy", message: `${slug} is not a taxonomy slug` }],
      );
      const problems = [...judgement(request), ...unknown];
      throw restRejected("INVALID_RECOMMENDATION_REQUEST", problems.map((p) => p.message).join("; "), problems);
    },
  };
}
