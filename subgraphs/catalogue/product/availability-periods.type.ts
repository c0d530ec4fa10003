import { Field, InputType, ObjectType } from "type-graphql";
import { DateScalar } from "../../common/common.scalars.js";
import { membersHolding as present } from "../../common/document.members.js";

/**
 * When a product is open (spec 1's availabilityPeriods, whose shape docs/spec-decisions.md fixes):
 * weekly periods with a rule per weekday, and one-off events. The catalogue keeps spec 1's
 * document; the graph answers and takes it typed, `closedDays` and `eventStarts` being spec 1's
 * `closedDayList` and `eventDateList`.
 */

const HOURS = "Opening hours, each from start to end; null: open all day, or at the booking setup's start times";

@ObjectType({ description: "A span of a day when a product is open" })
export class OpeningHours {
  @Field(() => String, { description: "Local time HH:MM" }) start!: string;
  @Field(() => String, { description: "Local time HH:MM, after start; 24:00 for the day's end" }) end!: string;
}

@ObjectType({ description: "A weekday's rule in a weekly period" })
export class DayOpening {
  @Field(() => Boolean, { description: "Whether the product is open that day" }) open!: boolean;
  @Field(() => [OpeningHours], { nullable: true, description: HOURS }) hours!: OpeningHours[] | null;
}

@ObjectType({ description: "A span of dates with a rule per weekday" })
export class WeeklyPeriod {
  @Field(() => String, { nullable: true, description: "What the period is" }) description!: string | null;
  @Field(() => DateScalar, { nullable: true, description: "Its first day; null: open-ended" }) startDate!: string | null;
  @Field(() => DateScalar, { nullable: true, description: "Its last day; null: open-ended" }) endDate!: string | null;
  @Field(() => DayOpening, { nullable: true, description: "Mondays; null: no rule (open)" }) monday!: DayOpening | null;
  @Field(() => DayOpening, { nullable: true, description: "Tuesdays; null: no rule (open)" }) tuesday!: DayOpening | null;
  @Field(() => DayOpening, { nullable: true, description: "Wednesdays; null: no rule (open)" }) wednesday!: DayOpening | null;
  @Field(() => DayOpening, { nullable: true, description: "Thursdays; null: no rule (open)" }) thursday!: DayOpening | null;
  @Field(() => DayOpening, { nullable: true, description: "Fridays; null: no rule (open)" }) friday!: DayOpening | null;
  @Field(() => DayOpening, { nullable: true, description: "Saturdays; null: no rule (open)" }) saturday!: DayOpening | null;
  @Field(() => DayOpening, { nullable: true, description: "Sundays; null: no rule (open)" }) sunday!: DayOpening | null;
  @Field(() => [DateScalar], { description: "Days of the period it is closed" }) closedDays!: string[];
}

@ObjectType({ description: "One-off events outside the weekly periods" })
export class SpontaneousPeriod {
  @Field(() => String, { nullable: true, description: "What the events are" }) description!: string | null;
  @Field(() => [String], { description: "When each starts, as a local date-time without offset: 2027-07-21T21:00" }) eventStarts!: string[];
}

@ObjectType({ description: "When a product is open: weekly periods and one-off events; none of either: open every day" })
export class AvailabilityPeriods {
  @Field(() => [WeeklyPeriod], { description: "Weekly periods, in the partner's order" }) weeklyPeriods!: WeeklyPeriod[];
  @Field(() => SpontaneousPeriod, { nullable: true, description: "One-off events" }) spontaneousPeriod!: SpontaneousPeriod | null;
}

@InputType({ description: "A span of a day when a product is open" })
export class OpeningHoursInput {
  @Field(() => String, { description: "Local time HH:MM" }) start!: string;
  @Field(() => String, { description: "Local time HH:MM, after start; 24:00 for the day's end" }) end!: string;
}

@InputType({ description: "A weekday's rule in a weekly period" })
export class DayOpeningInput {
  @Field(() => Boolean, { description: "Whether the product is open that day" }) open!: boolean;
  @Field(() => [OpeningHoursInput], { nullable: true, description: HOURS }) hours?: OpeningHoursInput[] | null;
}

@InputType({ description: "A span of dates with a rule per weekday; a weekday not given has no rule (open)" })
export class WeeklyPeriodInput {
  @Field(() => String, { nullable: true, description: "What the period is (at most 1000 characters)" }) description?: string | null;
  @Field(() => DateScalar, { nullable: true, description: "Its first day; open-ended when not given" }) startDate?: string | null;
  @Field(() => DateScalar, { nullable: true, description: "Its last day, not before startDate; open-ended when not given" }) endDate?: string | null;
  @Field(() => DayOpeningInput, { nullable: true, description: "Mondays" }) monday?: DayOpeningInput | null;
  @Field(() => DayOpeningInput, { nullable: true, description: "Tuesdays" }) tuesday?: DayOpeningInput | null;
  @Field(() => DayOpeningInput, { nullable: true, description: "Wednesdays" }) wednesday?: DayOpeningInput | null;
  @Field(() => DayOpeningInput, { nullable: true, description: "Thursdays" }) thursday?: DayOpeningInput | null;
  @Field(() => DayOpeningInput, { nullable: true, description: "Fridays" }) friday?: DayOpeningInput | null;
  @Field(() => DayOpeningInput, { nullable: true, description: "Saturdays" }) saturday?: DayOpeningInput | null;
  @Field(() => DayOpeningInput, { nullable: true, description: "Sundays" }) sunday?: DayOpeningInput | null;
  @Field(() => [DateScalar], { nullable: true, description: "Days of the period it is closed" }) closedDays?: string[] | null;
}

@InputType({ description: "One-off events outside the weekly periods" })
export class SpontaneousPeriodInput {
  @Field(() => String, { nullable: true, description: "What the events are (at most 1000 characters)" }) description?: string | null;
  @Field(() => [String], { nullable: true, description: "When each starts, as a local date-time without offset (at most 5000)" }) eventStarts?: string[] | null;
}

@InputType({ description: "When a product is open (at most 100 weekly periods); none of either: open every day" })
export class AvailabilityPeriodsInput {
  @Field(() => [WeeklyPeriodInput], { nullable: true, description: "Weekly periods" }) weeklyPeriods?: WeeklyPeriodInput[] | null;
  @Field(() => SpontaneousPeriodInput, { nullable: true, description: "One-off events" }) spontaneousPeriod?: SpontaneousPeriodInput | null;
}

/** Spec 1's names of the members the graph names otherwise. */
export const PERIOD_MEMBER_NAMES = { closedDayList: "closedDays", eventDateList: "eventStarts" } as const;

type Document = Record<string, unknown>;
const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

/** The kept document (the rules passed it) as the graph answers it; members the graph does not know are left out. */
export function typedPeriodsOf(document: Document | null): AvailabilityPeriods | null {
  if (!document) return null;
  const day = (rule: unknown): DayOpening | null => {
    if (!rule) return null;
    const { open, hours } = rule as { open: boolean; hours?: OpeningHours[] | null };
    return { open, hours: hours?.map(({ start, end }) => ({ start, end })) ?? null };
  };
  const weekly = ((document.weeklyPeriods as Document[] | null | undefined) ?? []).map((period) => {
    const typed = {
      description: (period.description as string | null | undefined) ?? null,
      startDate: (period.startDate as string | null | undefined) ?? null,
      endDate: (period.endDate as string | null | undefined) ?? null,
      closedDays: (period.closedDayList as string[] | null | undefined) ?? [],
    } as WeeklyPeriod;
    for (const weekday of WEEKDAYS) typed[weekday] = day(period[weekday]);
    return typed;
  });
  const spontaneous = document.spontaneousPeriod as Document | null | undefined;
  return {
    weeklyPeriods: weekly,
    spontaneousPeriod: spontaneous ? { description: (spontaneous.description as string | null | undefined) ?? null, eventStarts: (spontaneous.eventDateList as string[] | null | undefined) ?? [] } : null,
  };
}

/** A document's members renamed one way or the other, at any depth; what was given, and only that, stays given. */
function renamed(value: unknown, names: Record<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => renamed(item, names));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined).map(([key, member]) => [names[key] ?? key, renamed(member, names)]));
}

const fromContract: Record<string, string> = PERIOD_MEMBER_NAMES;
const toContract: Record<string, string> = Object.fromEntries(Object.entries(PERIOD_MEMBER_NAMES).map(([contract, graph]) => [graph, contract]));

/** The typed input as spec 1's document, to judge and keep. */
export const periodsDocumentOf = (input: AvailabilityPeriodsInput | null | undefined) => renamed(input, toContract) as Document | null | undefined;

/** Spec 1's document (the rules passed it) as the typed input. */
export const periodsInputOf = (document: Document | null | undefined) => renamed(document, fromContract) as AvailabilityPeriodsInput | null | undefined;

/** The graph's answer as spec 1's document: what is null or empty is left out, but a day's hours, whose null says something. */
export function periodsDocumentOfAnswer(answer: AvailabilityPeriods | null): Document | null {
  if (!answer) return null;
  const document: Document = {};
  if (answer.weeklyPeriods.length) {
    document.weeklyPeriods = answer.weeklyPeriods.map((period) => {
      const { closedDays, ...rest } = period;
      const days = Object.fromEntries(WEEKDAYS.flatMap((weekday) => (rest[weekday] ? [[weekday, { open: rest[weekday]!.open, hours: rest[weekday]!.hours }]] : [])));
      return { ...present({ description: rest.description, startDate: rest.startDate, endDate: rest.endDate }), ...days, ...present({ closedDayList: closedDays }) };
    });
  }
  if (answer.spontaneousPeriod) document.spontaneousPeriod = present({ description: answer.spontaneousPeriod.description, eventDateList: answer.spontaneousPeriod.eventStarts });
  return document;
}
