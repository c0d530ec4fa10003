import { Field, Float, InputType, ObjectType, registerEnumType } from "type-graphql";
import type { LanguageText } from "../../../drizzle/schema.js";
import { eachText, withContractSeparators, withLineBreaks } from "../../../core/line-breaks.js";
import { TranslationInput } from "../../common/translation.type.js";
import { translationsOfObject } from "../language/translation.input.js";
import { LocalizedText, localized } from "../language/localized-text.type.js";
import { itineraryTypes, itineraryUnitTypes } from "./product.rules.js";
import { closedSet } from "../../common/closed-set.enum.js";
import { membersHolding as present } from "../../common/document.members.js";

/**
 * A product's route (spec 1's itinerary, whose shape docs/spec-decisions.md fixes): units (stops,
 * days or legs) of items, or one free text. The catalogue keeps spec 1's document, the free text
 * with "/n" between lines; the graph answers and takes it typed, with real line breaks.
 */

export const ItineraryType = closedSet(itineraryTypes);
registerEnumType(ItineraryType, {
  name: "ItineraryType",
  description: "What kind of route an itinerary is",
  valuesConfig: {
    STANDARD: { description: "Stops in order, in a day" },
    MULTIDAY: { description: "Several days" },
    HOP_ON_HOP_OFF: { description: "Stops to get on and off at will" },
    UNSTRUCTURED: { description: "A free text (unstructuredItinerary)" },
  },
});

export const ItineraryUnitType = closedSet(itineraryUnitTypes);
registerEnumType(ItineraryUnitType, {
  name: "ItineraryUnitType",
  description: "What an itinerary's units are",
  valuesConfig: { ITEM: { description: "Stops" }, DAY: { description: "Days" }, ROUTE: { description: "Legs of a route" } },
});

@ObjectType({ description: "Where an itinerary's item takes place" })
export class ItineraryLocation {
  @Field(() => String, { nullable: true, description: "The place's name" }) name!: string | null;
  @Field(() => String, { nullable: true, description: "Its address" }) address!: string | null;
  @Field(() => String, { nullable: true, description: "A map provider's place identifier" }) placeId!: string | null;
  @Field(() => Float, { nullable: true, description: "-90 to 90" }) latitude!: number | null;
  @Field(() => Float, { nullable: true, description: "-180 to 180" }) longitude!: number | null;
}

@ObjectType({ description: "A stop, a day's part or a leg of an itinerary" })
export class ItineraryItem {
  @Field(() => LocalizedText, { nullable: true, description: "What it is" }) title!: LocalizedText | null;
  @Field(() => ItineraryLocation, { nullable: true, description: "Where it is" }) location!: ItineraryLocation | null;
}

@ObjectType({ description: "A unit of an itinerary: a stop, a day or a leg, with its items" })
export class ItineraryUnit {
  @Field(() => LocalizedText, { nullable: true, description: "What it is" }) title!: LocalizedText | null;
  @Field(() => [ItineraryItem], { description: "Its items, in order" }) items!: ItineraryItem[];
}

@ObjectType({ description: "A product's route" })
export class Itinerary {
  @Field(() => ItineraryType, { description: "What kind of route it is" }) type!: string;
  @Field(() => ItineraryUnitType, { nullable: true, description: "What its units are" }) unitType!: string | null;
  @Field(() => LocalizedText, { nullable: true, description: "The route as a free text, one a line (UNSTRUCTURED)" }) unstructuredItinerary!: LocalizedText | null;
  @Field(() => [ItineraryUnit], { description: "Its units, in order" }) units!: ItineraryUnit[];
}

@InputType({ description: "Where an itinerary's item takes place" })
export class ItineraryLocationInput {
  @Field(() => String, { nullable: true, description: "The place's name (at most 255 characters)" }) name?: string | null;
  @Field(() => String, { nullable: true, description: "Its address (at most 512 characters)" }) address?: string | null;
  @Field(() => String, { nullable: true, description: "A map provider's place identifier (at most 255 characters)" }) placeId?: string | null;
  @Field(() => Float, { nullable: true, description: "-90 to 90, with longitude" }) latitude?: number | null;
  @Field(() => Float, { nullable: true, description: "-180 to 180, with latitude" }) longitude?: number | null;
}

@InputType({ description: "A stop, a day's part or a leg of an itinerary" })
export class ItineraryItemInput {
  @Field(() => [TranslationInput], { nullable: true, description: "What it is, per language (at most 255 characters each)" }) title?: TranslationInput[] | null;
  @Field(() => ItineraryLocationInput, { nullable: true, description: "Where it is" }) location?: ItineraryLocationInput | null;
}

@InputType({ description: "A unit of an itinerary, with its items (at most 200)" })
export class ItineraryUnitInput {
  @Field(() => [TranslationInput], { nullable: true, description: "What it is, per language (at most 255 characters each)" }) title?: TranslationInput[] | null;
  @Field(() => [ItineraryItemInput], { nullable: true, description: "Its items, in order" }) items?: ItineraryItemInput[] | null;
}

@InputType({ description: "A product's route (at most 100 units)" })
export class ItineraryInput {
  @Field(() => ItineraryType, { description: "What kind of route it is" }) type!: string;
  @Field(() => ItineraryUnitType, { nullable: true, description: "What its units are" }) unitType?: string | null;
  @Field(() => [TranslationInput], { nullable: true, description: "The route as a free text per language, one a line; required for UNSTRUCTURED" }) unstructuredItinerary?: TranslationInput[] | null;
  @Field(() => [ItineraryUnitInput], { nullable: true, description: "Its units, in order" }) units?: ItineraryUnitInput[] | null;
}

type Document = Record<string, unknown>;

/** The kept document (the rules passed it) as the graph answers it. */
export function typedItineraryOf(document: Document | null): Itinerary | null {
  if (!document) return null;
  const text = (value: unknown) => localized(value as LanguageText | null | undefined);
  const location = (place: Document | null | undefined): ItineraryLocation | null =>
    place
      ? { name: (place.name as string | undefined) ?? null, address: (place.address as string | undefined) ?? null, placeId: (place.placeId as string | undefined) ?? null, latitude: (place.latitude as number | undefined) ?? null, longitude: (place.longitude as number | undefined) ?? null }
      : null;
  return {
    type: document.type as string,
    unitType: (document.unitType as string | undefined) ?? null,
    unstructuredItinerary: localized(eachText(document.unstructuredItinerary as LanguageText | null | undefined, withLineBreaks)),
    units: ((document.units as Document[] | null | undefined) ?? []).map((unit) => ({
      title: text(unit.title),
      items: ((unit.items as Document[] | null | undefined) ?? []).map((item) => ({ title: text(item.title), location: location(item.location as Document | null | undefined) })),
    })),
  };
}

/** Given members only: what the input left out stays out of the document. */
const given = (members: Document) => Object.fromEntries(Object.entries(members).filter(([, value]) => value !== undefined));

/** Reads an input's translations at a path of spec 1's document into a language object. */
export type TranslationReader = (translations: TranslationInput[] | null | undefined, path: string, convert?: (text: string) => string) => LanguageText | null | undefined;

/** The typed input as spec 1's document, to judge and keep: the free text with "/n" between lines. */
export function itineraryDocumentOf(input: ItineraryInput | null | undefined, read: TranslationReader): Document | null | undefined {
  if (!input) return input;
  const { unstructuredItinerary, units, ...rest } = input;
  return given({
    ...rest,
    unstructuredItinerary: read(unstructuredItinerary, "itinerary.unstructuredItinerary", withContractSeparators),
    units: units?.map((unit, u) =>
      given({
        title: read(unit.title, `itinerary.units[${u}].title`),
        items: unit.items?.map((item, i) => given({ title: read(item.title, `itinerary.units[${u}].items[${i}].title`), location: item.location ? given({ ...item.location }) : item.location })),
      }),
    ),
  });
}

/** Spec 1's document (the rules passed it) as the typed input: texts as translations, the free text with real line breaks. */
export function itineraryInputOf(document: Document | null | undefined): ItineraryInput | null | undefined {
  if (!document) return document as null | undefined;
  const texts = (value: unknown, convert?: (text: string) => string) => translationsOfObject(value as LanguageText | null | undefined, convert);
  const units = document.units as Document[] | null | undefined;
  return {
    ...(document as unknown as ItineraryInput),
    unstructuredItinerary: texts(document.unstructuredItinerary, withLineBreaks),
    units: units?.map((unit) => ({
      ...unit,
      title: texts(unit.title),
      items: (unit.items as Document[] | null | undefined)?.map((item) => ({ ...item, title: texts(item.title) })),
    })),
  } as ItineraryInput;
}

/** An itinerary as an answer carries it, whatever form its texts take there. */
export interface ItineraryAnswer<T> {
  type: string;
  unitType: string | null;
  unstructuredItinerary: T | null;
  units: { title: T | null; items: { title: T | null; location: ItineraryLocation | null }[] }[];
}

/**
 * The graph's answer as spec 1's document, each text read by `languageObject` (the answer's
 * translations as a language object): what is null or empty is left out, the free text with "/n"
 * between lines.
 */
export function itineraryDocumentOfAnswer<T>(answer: ItineraryAnswer<T> | null, languageObject: (text: T) => LanguageText): Document | null {
  if (!answer) return null;
  const texts = (value: T | null) => (value === null ? null : languageObject(value));
  return present({
    type: answer.type,
    unitType: answer.unitType,
    unstructuredItinerary: eachText(texts(answer.unstructuredItinerary), withContractSeparators),
    units: answer.units.map((unit) => present({ title: texts(unit.title), items: unit.items.map((item) => present({ title: texts(item.title), location: item.location && present({ ...item.location }) })) })),
  });
}
