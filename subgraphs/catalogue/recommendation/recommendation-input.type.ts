import { Field, Float, InputType, Int, registerEnumType } from "type-graphql";
import { CountryCodeScalar, CurrencyCodeScalar, DateScalar } from "../../common/common.scalars.js";
import type { FieldProblem } from "../../../core/errors.js";
import { rejected } from "../../../core/refusals.js";
import { continentCodes } from "./recommendation.places.js";
import { closedSet } from "../../common/closed-set.enum.js";
import type { RecommendationRequest } from "./recommendation.rules.js";

/**
 * The closed sets of a recommendation request. Spec 3 spells their values in title case
 * ("Business"); the graph's enums are upper case, and `contractWord` is the one conversion.
 */
export enum ActivityContext {
  BUSINESS = "BUSINESS",
  LEISURE = "LEISURE",
  STAYCATION = "STAYCATION",
}
registerEnumType(ActivityContext, {
  name: "ActivityContext",
  description: "Why the traveller is there",
  valuesConfig: {
    BUSINESS: { description: "A business trip: activities of at most 4 hours, none for families or nightlife" },
    LEISURE: { description: "A holiday: nothing left out" },
    STAYCATION: { description: "At home: no transfers or city passes" },
  },
});

export enum GroupType {
  SOLO = "SOLO",
  COUPLE = "COUPLE",
  FAMILY = "FAMILY",
  GROUP = "GROUP",
}
registerEnumType(GroupType, {
  name: "GroupType",
  description: "Who the traveller is with",
  valuesConfig: {
    SOLO: { description: "Alone: no group, family or boat prices" },
    COUPLE: { description: "Two: no family prices or children's activities" },
    FAMILY: { description: "With children: no nightlife or drinking" },
    GROUP: { description: "A group: nothing left out" },
  },
});

export enum RiskTolerance {
  SAFE = "SAFE",
  MODERATE = "MODERATE",
  DANGEROUS = "DANGEROUS",
}
registerEnumType(RiskTolerance, {
  name: "RiskTolerance",
  description: "The most risk the traveller accepts",
  valuesConfig: {
    SAFE: { description: "No climbing, paragliding, diving, skiing or safaris" },
    MODERATE: { description: "No paragliding" },
    DANGEROUS: { description: "Nothing left out" },
  },
});

export enum VarietyLevel {
  LOW = "LOW",
  MEDIUM = "MEDIUM",
  HIGH = "HIGH",
}
registerEnumType(VarietyLevel, {
  name: "VarietyLevel",
  description: "How varied a page of recommendations is",
  valuesConfig: {
    LOW: { description: "No limit per subcategory" },
    MEDIUM: { description: "At most 4 of one subcategory in a page" },
    HIGH: { description: "At most 2 of one subcategory in a page" },
  },
});

export type ContinentCode = (typeof continentCodes)[number];
export const ContinentCode = closedSet(continentCodes);
registerEnumType(ContinentCode, {
  name: "ContinentCode",
  description: "A continent, by the two-letter code of countries-list",
  valuesConfig: {
    AF: { description: "Africa" },
    AN: { description: "Antarctica" },
    AS: { description: "Asia" },
    EU: { description: "Europe" },
    NA: { description: "North America" },
    OC: { description: "Oceania" },
    SA: { description: "South America" },
  },
});

@InputType({ description: "A point on the globe" })
export class GeoPointInput {
  @Field(() => Float, { description: "-90 to 90" }) latitude!: number;
  @Field(() => Float, { description: "-180 to 180" }) longitude!: number;
}

/** The ways of saying where, each a field of the location input: exactly one is given. */
const PLACES = ["continentCodes", "countryCodes", "cityName", "iataCode", "geoPoint"] as const;

@InputType({ description: "Where the activities are: exactly one of continentCodes, countryCodes, cityName, iataCode or geoPoint, with a radius for the last two" })
export class RecommendationLocationInput {
  @Field(() => [ContinentCode], { nullable: true, description: "Activities in these continents" }) continentCodes?: ContinentCode[] | null;
  @Field(() => [CountryCodeScalar], { nullable: true, description: "Activities in these countries" }) countryCodes?: string[] | null;
  @Field(() => String, { nullable: true, description: "Activities in this city, by name (any case)" }) cityName?: string | null;
  @Field(() => String, { nullable: true, description: "Activities within the radius of this airport, by IATA code" }) iataCode?: string | null;
  @Field(() => GeoPointInput, { nullable: true, description: "Activities within the radius of this point" }) geoPoint?: GeoPointInput | null;
  @Field(() => Int, { nullable: true, description: "Kilometres around iataCode or geoPoint, 1 to 500 (50 when not given)" }) radius?: number | null;
}

@InputType({ description: "Booking engines, by name, to take products from or to leave out" })
export class BookingEngineSelection {
  @Field(() => [String], { nullable: true, description: "Only products of these booking engines, by name" }) include?: string[] | null;
  @Field(() => [String], { nullable: true, description: "No products of these booking engines, by name" }) exclude?: string[] | null;
}

@InputType({ description: "What a traveller is after (spec 3's Recommendations v2 body); every field narrows the recommendations" })
export class RecommendationInput {
  @Field(() => RecommendationLocationInput, { nullable: true, description: "Where the activities are" }) location?: RecommendationLocationInput | null;
  @Field(() => [String], { nullable: true, description: "Taxonomy slugs: an activity matches any" }) categories?: string[] | null;
  @Field(() => [String], { nullable: true, description: "Free words the traveller is interested in, matched against the products' texts (at most 10)" }) interests?: string[] | null;
  @Field(() => Int, { nullable: true, description: "The lowest price, in whole units of currencyCode" }) minPrice?: number | null;
  @Field(() => Int, { nullable: true, description: "The highest price, in whole units of currencyCode" }) maxPrice?: number | null;
  @Field(() => CurrencyCodeScalar, { nullable: true, description: "The currency of minPrice, maxPrice and the display prices (EUR when not given)" }) currencyCode?: string | null;
  @Field(() => ActivityContext, { nullable: true, description: "Leaves out what does not suit the trip" }) activityContext?: ActivityContext | null;
  @Field(() => GroupType, { nullable: true, description: "Leaves out what does not suit the party" }) groupType?: GroupType | null;
  @Field(() => DateScalar, { nullable: true, description: "The day of the trip: only what is open that day (not with countryCodes)" }) travelDate?: string | null;
  @Field(() => RiskTolerance, { nullable: true, description: "Leaves out what is riskier" }) risk?: RiskTolerance | null;
  @Field(() => VarietyLevel, { nullable: true, description: "How many results of one subcategory a page may hold" }) varietyLevel?: VarietyLevel | null;
  @Field(() => BookingEngineSelection, { nullable: true, description: "Which booking engines' products may be recommended" }) bookingEngines?: BookingEngineSelection | null;
}

/** An upper-case enum value as spec 3 spells it: BUSINESS is "Business". */
export const contractWord = (value: string) => value.charAt(0) + value.slice(1).toLowerCase();

/** The body of spec 3's request that a typed input stands for, in the form the service judges. */
export type RecommendationDocument = Omit<RecommendationRequest, "paging" | "orderBy" | "excludeRestaurants" | "alsoInCity">;

/**
 * The typed input as spec 3's body: the location's one given field becomes `{type, value,
 * radius}`, and its faults are named by that field ("location.countryCodes"). More than one way
 * of saying where, or none, is refused alone, as GraphQL refuses an input of the wrong shape.
 */
export function documentOfInput(input: RecommendationInput): RecommendationDocument {
  const { location, activityContext, groupType, risk, varietyLevel, ...rest } = input;
  const word = (value: string | null | undefined) => (value == null ? null : contractWord(value));
  return { ...rest, location: location ? locationDocumentOf(location) : null, activityContext: word(activityContext), groupType: word(groupType), risk: word(risk), varietyLevel: word(varietyLevel) };
}

function locationDocumentOf(location: RecommendationLocationInput): NonNullable<RecommendationRequest["location"]> {
  const given = PLACES.filter((place) => location[place] != null);
  const problems: FieldProblem[] = [];
  if (given.length !== 1) {
    problems.push({ field: "location", rule: "exactlyOne", message: `location takes exactly one of ${PLACES.join(", ")}${given.length ? `; ${given.join(" and ")} were given` : ""}` });
  }
  const [place] = given;
  // A radius is around a point: a city, a country or a continent has its own bounds.
  if (location.radius != null && given.length === 1 && place !== "iataCode" && place !== "geoPoint") {
    problems.push({ field: "location.radius", rule: "notWithPlace", message: `location.radius goes with iataCode or geoPoint, not ${place}` });
  }
  if (problems.length) throw rejected("INVALID_RECOMMENDATION_REQUEST", problems.map((p) => p.message).join("; "), problems);
  const radius = location.radius ?? undefined;
  const valueField = `location.${place}`;
  switch (place) {
    case "continentCodes":
      return { type: "continentCode", value: location.continentCodes, radius, valueField };
    case "countryCodes":
      return { type: "countryCode", value: location.countryCodes, radius, valueField };
    case "cityName":
      return { type: "cityName", value: [location.cityName], radius, valueField };
    case "iataCode":
      return { type: "iataCode", value: [location.iataCode], radius, valueField };
    case "geoPoint":
      return { type: "geoPoint", value: location.geoPoint, radius, valueField };
  }
}

/**
 * Spec 3's body as the typed input, for a body the service's checks passed
 * (`judgeRecommendationDocument`): REST sends its requests typed.
 */
export function inputOfDocument(document: RecommendationDocument): RecommendationInput {
  const { location, activityContext, groupType, risk, varietyLevel, ...rest } = document;
  const upper = <E>(value: string | null | undefined) => (value == null ? value : (value.toUpperCase() as E));
  const input: RecommendationInput = {
    ...rest,
    activityContext: upper<ActivityContext>(activityContext),
    groupType: upper<GroupType>(groupType),
    risk: upper<RiskTolerance>(risk),
    varietyLevel: upper<VarietyLevel>(varietyLevel),
  };
  // Spec 3 takes a radius with any location and uses it around a point only; the graph takes it there only.
  const aroundPoint = location?.type === "iataCode" || location?.type === "geoPoint";
  if (location) input.location = { ...typedPlaceOf(location), ...(aroundPoint && location.radius != null ? { radius: location.radius as number } : {}) };
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as RecommendationInput;
}

function typedPlaceOf({ type, value }: NonNullable<RecommendationRequest["location"]>): RecommendationLocationInput {
  const values = value as string[];
  switch (type) {
    case "continentCode":
      return { continentCodes: values as ContinentCode[] };
    case "countryCode":
      return { countryCodes: values };
    case "cityName":
      return { cityName: values[0] };
    case "iataCode":
      return { iataCode: values[0] };
    default: {
      // Only the point's two members: spec 3's value is a free object.
      const { latitude, longitude } = value as GeoPointInput;
      return { geoPoint: { latitude, longitude } };
    }
  }
}
