import { z } from "zod";
import type { FieldProblem } from "../../../../core/errors.js";
import { isConvertible } from "../../../../core/exchange-rates.js";
import { isLanguageCode } from "../../../../core/iso-codes.js";

/**
 * The booking setup of a product sold through the built-in inventory engine: when it runs, how
 * many places a slot has, which options and tickets a buyer chooses, what the supplier asks, and
 * what a cancellation refunds. Set per product by content management (setProductBookingSetup);
 * docs/booking-setup.md describes every field with an example.
 */

const key = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "a key is 1 to 64 letters, digits, '_' or '-'");
const localTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "a local time is HH:MM");
/** Text in one language or a language-keyed object (ISO 639-1 codes, as the catalogue's texts and the graph's LanguageCode). */
const text = z.union([z.string().min(1).max(500), z.record(z.string().refine(isLanguageCode, "an ISO 639-1 language code in lower case"), z.string().min(1).max(500))]);
const money = z.number().finite().min(0).max(1_000_000);

export const optionDataTypes = ["OPTIONS", "TEXT", "BOOLEAN"] as const;

const optionSetup = z
  .object({
    key,
    label: text,
    dataType: z.enum(optionDataTypes),
    /** OPTIONS only: choice key to label. */
    choices: z.array(z.object({ key, label: text })).min(1).max(100).optional(),
    /**
     * Shown only once an earlier option has this choice (or, for BOOLEAN, "true"/"false"): how a
     * choice reveals the next level.
     */
    shownWhen: z.object({ option: key, equals: z.string().min(1).max(64) }).optional(),
  })
  .strict()
  .refine((o) => (o.dataType === "OPTIONS") === (o.choices !== undefined), {
    message: "choices are given exactly for OPTIONS options",
    path: ["choices"],
  });
export type OptionSetup = z.infer<typeof optionSetup>;

export const unitPriceTypes = ["PER_PERSON", "GROUP"] as const;

const unitSetup = z
  .object({
    key,
    label: text,
    description: text.optional(),
    minAge: z.number().int().min(0).max(120),
    maxAge: z.number().int().min(0).max(120).optional(),
    unitPriceType: z.enum(unitPriceTypes),
    /** PER_PERSON: price of one ticket; GROUP: price of the whole group. */
    price: money,
    minQuantity: z.number().int().min(0).max(1000).default(0),
    maxQuantity: z.number().int().min(1).max(1000),
    /** Keys of the units whose participants must accompany this one (e.g. adults for children). */
    accompaniedBy: z.array(key).max(10).default([]),
    /** With accompaniedBy: at most this many of this unit per accompanying participant. */
    maxPerCompanion: z.number().int().min(1).max(100).optional(),
    /** People one ticket admits (a family ticket for four): each counts as a participant, for party size and places. */
    paxCount: z.number().int().min(1).max(100).optional(),
    /** Offered only once an option has this choice: tickets that differ per option (a private tour's prices). */
    shownWhen: z.object({ option: key, equals: z.string().min(1).max(64) }).strict().optional(),
  })
  .strict()
  .refine((u) => u.maxQuantity >= u.minQuantity, { message: "maxQuantity is at least minQuantity", path: ["maxQuantity"] })
  .refine((u) => u.maxAge === undefined || u.maxAge >= u.minAge, { message: "maxAge is at least minAge", path: ["maxAge"] })
  // A GROUP unit's quantity already counts people.
  .refine((u) => u.paxCount === undefined || u.paxCount === 1 || u.unitPriceType === "PER_PERSON", { message: "paxCount above 1 applies to PER_PERSON units", path: ["paxCount"] });
export type UnitSetup = z.infer<typeof unitSetup>;

export const questionDataTypes = [
  "TEXT",
  "LONG_TEXT",
  "INT",
  "DOUBLE",
  "BOOLEAN",
  "DATE",
  "TIME",
  "DATE_AND_TIME",
  "CHECKBOX_TOGGLE",
  "ACCEPT",
  "OPTIONS",
] as const;
export type QuestionDataType = (typeof questionDataTypes)[number];
/** Follow-ups below a top-level question; clients (and the REST selection) read this deep. */
export const MAX_FOLLOW_UP_DEPTH = 5;

export const questionDataFormats = ["PHONE_NUMBER", "EMAIL_ADDRESS", "ADDRESS"] as const;
export type QuestionDataFormat = (typeof questionDataFormats)[number];

export interface QuestionSetup {
  key: string;
  question: string | Record<string, string>;
  dataType: QuestionDataType;
  dataFormat?: QuestionDataFormat;
  choices?: { key: string; label: string | Record<string, string> }[];
  /** Follow-ups asked only when this question's answer equals `equals`; nested to any depth. */
  followUps?: { equals: string; questions: QuestionSetup[] }[];
  // The three below are set by a remote engine's adapter for its supplier's questions (content
  // management's schema below has no place for them).
  /** A top-level question asked only once this option has this choice: a supplier option's own questions. */
  shownWhen?: { option: string; equals: string };
  /** A top-level participant question asked only of the participants holding a ticket of these units. */
  units?: string[];
  /** DOUBLE and TIME questions accept null unless this is false: the supplier needs a value. */
  nullAllowed?: boolean;
}

// z.lazy calls its getter on every parse: built once here, not once per question of every setup
// read (which was most of a booking step's validation time).
let questionSetupSchema: z.ZodType<QuestionSetup> | undefined;
const questionSetup: z.ZodType<QuestionSetup> = z.lazy(() => (questionSetupSchema ??= questionSetupOf()));
const questionSetupOf = (): z.ZodType<QuestionSetup> =>
  z
    .object({
      key,
      question: text,
      dataType: z.enum(questionDataTypes),
      dataFormat: z.enum(questionDataFormats).optional(),
      choices: z.array(z.object({ key, label: text })).min(1).max(100).optional(),
      followUps: z.array(z.object({ equals: z.string().min(1).max(255), questions: z.array(questionSetup).min(1).max(20) })).max(20).optional(),
    })
    .strict()
    .refine((q) => (q.dataType === "OPTIONS") === (q.choices !== undefined), {
      message: "choices are given exactly for OPTIONS questions",
      path: ["choices"],
    })
    .refine((q) => q.dataFormat === undefined || q.dataType === "TEXT", { message: "dataFormat applies to TEXT questions", path: ["dataFormat"] });

const cancellationTier = z
  .object({
    label: text,
    /** ISO 8601 duration before the start from which this tier applies; absent: until the start. */
    duration: z
      .string()
      .regex(/^P(?!$)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?)?$/, "an ISO 8601 duration of days, hours and minutes, e.g. P2D or PT12H")
      .optional(),
    // One message for REST's percentage and the graph's rate (0 to 1) alike.
    refundPercentage: z.number().min(0, "refunds 0 to 100 percent of the price").max(100, "refunds 0 to 100 percent of the price"),
  })
  .strict();
export type CancellationTier = z.infer<typeof cancellationTier>;

export const bookingSetupSchema = z
  .object({
    /** IANA zone of the activity's local times. */
    timeZone: z.string().refine(isTimeZone, "an IANA time zone such as Europe/Paris"),
    /**
     * Start times on the open days of the product's weekly periods. Absent: the day's opening
     * hours give one slot that starts when the day opens (or at 00:00 with no hours).
     */
    startTimes: z.array(localTime).max(48).optional(),
    capacityPerSlot: z.number().int().min(1).max(100_000),
    minParticipants: z.number().int().min(1).max(1000).default(1),
    maxParticipants: z.number().int().min(1).max(1000),
    /**
     * Product currency of the prices below (ISO 4217): one the service has an exchange rate for,
     * since every price answer converts from it (a setup in any other could never be priced).
     */
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "an ISO 4217 code such as EUR")
      .refine(isConvertible, "a currency the service has an exchange rate for (see the rates in core/exchange-rates.ts)"),
    /** Added once to every booking's total (fixed plus variable pricing). */
    fixedFee: money.default(0),
    options: z.array(optionSetup).max(20).default([]),
    units: z.array(unitSetup).min(1).max(20),
    questions: z
      .object({
        customer: z.array(questionSetup).max(30).default([]),
        booking: z.array(questionSetup).max(30).default([]),
        participant: z.array(questionSetup).max(30).default([]),
      })
      .strict()
      .default({}),
    cancellationTiers: z.array(cancellationTier).max(10).default([]),
    /**
     * Keys of the customer TEXT questions whose answers, joined by a space in this order, name the
     * lead traveller on the voucher (e.g. ["firstName", "lastName"]). Absent: the voucher names no one.
     */
    leadTravellerName: z.array(key).min(1).max(5).optional(),
    /** Seconds the simulated supplier takes to answer a confirmation. */
    confirmationDelaySeconds: z.number().int().min(0).max(600).default(2),
    /** How far ahead slots are sold. */
    bookingHorizonDays: z.number().int().min(1).max(730).default(365),
  })
  .strict()
  .superRefine((setup, ctx) => {
    if (setup.maxParticipants < setup.minParticipants) {
      ctx.addIssue({ code: "custom", path: ["maxParticipants"], message: "maxParticipants is at least minParticipants" });
    }
    const unitKeys = new Set<string>();
    setup.units.forEach((unit, index) => {
      if (unitKeys.has(unit.key)) ctx.addIssue({ code: "custom", path: ["units", index, "key"], message: "unit keys are unique" });
      unitKeys.add(unit.key);
    });
    setup.units.forEach((unit, index) =>
      unit.accompaniedBy.forEach((other, j) => {
        if (!unitKeys.has(other) || other === unit.key) {
          ctx.addIssue({ code: "custom", path: ["units", index, "accompaniedBy", j], message: "names another unit of this setup" });
        }
      }),
    );
    const optionKeys = new Set<string>();
    setup.units.forEach((unit, index) => {
      if (unit.shownWhen && !setup.options.some((option) => option.key === unit.shownWhen!.option)) {
        ctx.addIssue({ code: "custom", path: ["units", index, "shownWhen", "option"], message: "names an option of this setup" });
      }
    });
    setup.options.forEach((option, index) => {
      if (option.key.startsWith("__")) ctx.addIssue({ code: "custom", path: ["options", index, "key"], message: "keys starting with __ are reserved" });
      if (optionKeys.has(option.key)) ctx.addIssue({ code: "custom", path: ["options", index, "key"], message: "option keys are unique" });
      if (option.shownWhen && !optionKeys.has(option.shownWhen.option)) {
        ctx.addIssue({ code: "custom", path: ["options", index, "shownWhen", "option"], message: "names an earlier option" });
      }
      optionKeys.add(option.key);
    });
    const seen = new Set<string>();
    const walk = (questions: QuestionSetup[], path: (string | number)[], depth: number) =>
      questions.forEach((q, i) => {
        if (seen.has(q.key)) ctx.addIssue({ code: "custom", path: [...path, i, "key"], message: "question keys are unique within the setup" });
        seen.add(q.key);
        if (q.followUps?.length && depth >= MAX_FOLLOW_UP_DEPTH) {
          ctx.addIssue({ code: "custom", path: [...path, i, "followUps"], message: `follow-ups nest at most ${MAX_FOLLOW_UP_DEPTH} levels deep` });
        }
        q.followUps?.forEach((f, j) => walk(f.questions, [...path, i, "followUps", j, "questions"], depth + 1));
      });
    walk(setup.questions.customer, ["questions", "customer"], 0);
    walk(setup.questions.booking, ["questions", "booking"], 0);
    walk(setup.questions.participant, ["questions", "participant"], 0);
    // Top-level questions only: a follow-up is asked on some bookings and not others, so a name
    // built from one would vanish from vouchers depending on an unrelated answer.
    const customerQuestions = new Map(setup.questions.customer.map((q) => [q.key, q]));
    setup.leadTravellerName?.forEach((questionKey, index) => {
      const question = customerQuestions.get(questionKey);
      const path = ["leadTravellerName", index];
      if (setup.leadTravellerName!.indexOf(questionKey) !== index) ctx.addIssue({ code: "custom", path, message: "names each question once" });
      else if (!question) ctx.addIssue({ code: "custom", path, message: "names a top-level customer question of this setup" });
      else if (question.dataType !== "TEXT") ctx.addIssue({ code: "custom", path, message: "names a TEXT question" });
    });
  });

/**
 * What a supplier system calls the product a setup was built from (a remote engine's adapter
 * builds it; content management never sets it): its product id, and its options, either the one
 * option or the choices of `optionKey`, whose choice also picks the start times.
 */
export interface RemoteProduct {
  productId: string;
  optionIds: string[];
  optionKey?: string;
  /**
   * A product the supplier prices per booking (OCTO `pricingPer: BOOKING`): each option's price of
   * a booking, in the setup's currency; it is the booking's fixed fee once the option is chosen.
   */
  bookingPrices?: Record<string, number>;
  /** Each option's limits of a booking (OCTO `restrictions`): tickets (unit items) and people. */
  limits?: Record<string, BookingLimits>;
  /** The supplier's questions, by the key of the question the flow asks: its id, and the value each choice key stands for. */
  questions?: Record<string, RemoteQuestion>;
}

/** A supplier's limits of one booking; absent: none. */
export interface BookingLimits {
  /** Tickets: OCTO's unit items, whatever the people each admits. */
  minUnits?: number;
  maxUnits?: number;
  /** People. */
  minPax?: number;
  maxPax?: number;
}

export interface RemoteQuestion {
  id: string;
  /** OPTIONS questions: choice key to the supplier's value. */
  values?: Record<string, string>;
}

export type BookingSetup = z.infer<typeof bookingSetupSchema> & {
  remote?: RemoteProduct;
  /** Tickets of one booking, set by a remote engine's adapter for the chosen option and departure (content management has no such field). */
  ticketLimits?: { min?: number; max?: number };
};
/** A setup as a partner writes it: what `bookingSetupSchema` reads, before its defaults. */
export type BookingSetupDocument = z.input<typeof bookingSetupSchema>;

/**
 * A partner's setup document with its defaults filled in, or every fault of it, each named by its
 * path under `setup` (`setup.units.0.price`): the one judgement of a setup, whether it arrives
 * typed through the graph or as REST's JSON body.
 */
export function parseBookingSetup(document: unknown): { setup: BookingSetup; problems?: undefined } | { setup?: undefined; problems: FieldProblem[] } {
  const parsed = bookingSetupSchema.safeParse(document);
  if (parsed.success) return { setup: parsed.data };
  return { problems: parsed.error.issues.map((issue) => ({ field: ["setup", ...issue.path].join("."), rule: issue.code, message: issue.message })) };
}

/**
 * Zones found valid: building a DateTimeFormat to ask was a visible share of a booking flow's CPU,
 * since every read of a stored setup parses it again. Only valid zones are kept (a few hundred
 * exist), so whatever callers send, the set stays small.
 */
const knownTimeZones = new Set<string>();

function isTimeZone(zone: string): boolean {
  if (knownTimeZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
  } catch {
    return false;
  }
  knownTimeZones.add(zone);
  return true;
}

/** The text in the flow's language, else English, else the first one given. */
export function localized(value: string | Record<string, string> | undefined, language: string): string | undefined {
  if (value === undefined || typeof value === "string") return value;
  return value[language] ?? value.en ?? Object.values(value)[0];
}
