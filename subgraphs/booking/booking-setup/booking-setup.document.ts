import type { FieldProblem } from "../../../core/errors.js";
import { MAX_DUPLICATES_NAMED, repeatedLanguages, translationsOf } from "../../common/translation.type.js";
import { decimalOf } from "../../../core/decimal.js";
import { percentageOfRate, rateOfPercentage } from "../contract.bodies.js";
import { parseBookingSetup, type BookingSetup, type CancellationTier, type OptionSetup, type QuestionSetup, type UnitSetup } from "../engines/inventory/booking-setup.schema.js";
import type {
  BookingSetupCancellationTierInput,
  BookingSetupChoiceInput,
  BookingSetupConditionInput,
  BookingSetupInput,
  BookingSetupOptionInput,
  BookingSetupQuestionInput,
  BookingSetupText,
  BookingSetupTextInput,
  BookingSetupUnitInput,
} from "./booking-setup.type.js";

/*
 * The forms of a booking setup: the partner's document (docs/booking-setup.md, what
 * `bookingSetupSchema` judges and the inventory keeps) and the graph's typed form, whose input
 * nests follow-up questions as the document does and whose answer lists them flat (a selection
 * as deep as the nesting would pass the graph's depth limit). The graph reads its input with
 * `setupDocumentOf` and answers `setupAnswerOf`; REST, whose bodies are documents, sends
 * `typedSetupOf` and reads an answer back with `typedSetupOfAnswer`.
 */

type Text = string | Record<string, string>;
type Choice = { key: string; label: Text };
type Condition = { option: string; equals: string };

/** The typed form of a stored setup: every field the document has, null where it has none. */
export function typedSetupOf(setup: BookingSetup) {
  return {
    timeZone: setup.timeZone,
    startTimes: setup.startTimes ?? null,
    capacityPerSlot: setup.capacityPerSlot,
    minParticipants: setup.minParticipants,
    maxParticipants: setup.maxParticipants,
    currency: setup.currency,
    fixedFee: decimalOf(setup.fixedFee),
    options: setup.options.map(typedOption),
    units: setup.units.map(typedUnit),
    questions: { customer: setup.questions.customer.map(typedQuestion), booking: setup.questions.booking.map(typedQuestion), participant: setup.questions.participant.map(typedQuestion) },
    cancellationTiers: setup.cancellationTiers.map(typedTier),
    leadTravellerName: setup.leadTravellerName ?? null,
    confirmationDelaySeconds: setup.confirmationDelaySeconds,
    bookingHorizonDays: setup.bookingHorizonDays,
  };
}

const typedText = (text: Text): BookingSetupText => (typeof text === "string" ? { text, translations: null } : { text: null, translations: translationsOf(text) });
const typedChoice = (choice: Choice) => ({ key: choice.key, label: typedText(choice.label) });
const typedCondition = (condition: Condition | undefined) => (condition ? { option: condition.option, equals: condition.equals } : null);

const typedOption = (option: OptionSetup) => ({
  key: option.key,
  label: typedText(option.label),
  dataType: option.dataType,
  choices: option.choices?.map(typedChoice) ?? null,
  shownWhen: typedCondition(option.shownWhen),
});

const typedUnit = (unit: UnitSetup) => ({
  key: unit.key,
  label: typedText(unit.label),
  description: unit.description === undefined ? null : typedText(unit.description),
  minAge: unit.minAge,
  maxAge: unit.maxAge ?? null,
  unitPriceType: unit.unitPriceType,
  price: decimalOf(unit.price),
  minQuantity: unit.minQuantity,
  maxQuantity: unit.maxQuantity,
  accompaniedBy: unit.accompaniedBy,
  maxPerCompanion: unit.maxPerCompanion ?? null,
  paxCount: unit.paxCount ?? null,
  shownWhen: typedCondition(unit.shownWhen),
});

type TypedQuestion = {
  key: string;
  question: BookingSetupText;
  dataType: QuestionSetup["dataType"];
  dataFormat: QuestionSetup["dataFormat"] | null;
  choices: { key: string; label: BookingSetupText }[] | null;
  followUps: { equals: string; questions: TypedQuestion[] }[] | null;
};

// What a remote engine's adapter adds to its questions (shownWhen, units, nullAllowed) is its own:
// a setup managed here has none of it.
const typedQuestion = (question: QuestionSetup): TypedQuestion => ({
  key: question.key,
  question: typedText(question.question),
  dataType: question.dataType,
  dataFormat: question.dataFormat ?? null,
  choices: question.choices?.map(typedChoice) ?? null,
  followUps: question.followUps?.map((followUp) => ({ equals: followUp.equals, questions: followUp.questions.map(typedQuestion) })) ?? null,
});

type FlatQuestion = Omit<TypedQuestion, "followUps"> & { followUpOf: { question: string; equals: string } | null };

/** A stored setup as the graph answers it: its questions flat. */
export function setupAnswerOf(setup: BookingSetup) {
  const typed = typedSetupOf(setup);
  const { customer, booking, participant } = typed.questions;
  return { ...typed, questions: { customer: flatQuestions(customer), booking: flatQuestions(booking), participant: flatQuestions(participant) } };
}

/** Each question followed by its follow-ups, depth first: the order the document gives them in. */
function flatQuestions(questions: TypedQuestion[], followUpOf: FlatQuestion["followUpOf"] = null): FlatQuestion[] {
  return questions.flatMap(({ followUps, ...question }) => [
    { ...question, followUpOf },
    ...(followUps ?? []).flatMap((group) => flatQuestions(group.questions, { question: question.key, equals: group.equals })),
  ]);
}

/**
 * The typed input an answer stands for: follow-ups nested again under the question they follow,
 * one group per answer that brings them (keys are unique in a setup, so the parent is found).
 */
export function typedSetupOfAnswer<T extends { questions: Record<"customer" | "booking" | "participant", FlatQuestion[]> }>(answer: T) {
  const { customer, booking, participant } = answer.questions;
  return { ...answer, questions: { customer: nestedQuestions(customer), booking: nestedQuestions(booking), participant: nestedQuestions(participant) } };
}

function nestedQuestions(flat: FlatQuestion[]): TypedQuestion[] {
  const byKey = new Map<string, TypedQuestion>();
  const roots: TypedQuestion[] = [];
  for (const { followUpOf, ...fields } of flat) {
    const question: TypedQuestion = { ...fields, followUps: null };
    byKey.set(question.key, question);
    const parent = followUpOf && byKey.get(followUpOf.question);
    if (!parent) {
      roots.push(question);
      continue;
    }
    const groups = (parent.followUps ??= []);
    const group = groups.find((candidate) => candidate.equals === followUpOf.equals);
    if (group) group.questions.push(question);
    else groups.push({ equals: followUpOf.equals, questions: [question] });
  }
  return roots;
}

const typedTier = (tier: CancellationTier) => ({ label: typedText(tier.label), duration: tier.duration ?? null, refundRate: rateOfPercentage(tier.refundPercentage) });

/**
 * The document a typed setup stands for, for `bookingSetupSchema` to judge: a field given as null
 * is left out (its default applies), amounts become numbers, rates percentages, translations
 * language objects. A text given both ways, neither, or with a language twice is a problem of its
 * own, named as the schema names fields (`setup.units.0.label`), and is left out (`withheld`);
 * `places` names each translation's text as the input has it (`setup.units.0.label.de` is
 * `setup.units.0.label.translations.1.text`).
 */
export function setupDocumentOf(input: BookingSetupInput) {
  const reader = new SetupDocumentReader();
  const document = reader.document(input);
  return { document, problems: reader.problems, withheld: reader.withheld, places: reader.places };
}

type Path = (string | number)[];
const condition = (value: BookingSetupConditionInput | null | undefined) => (value == null ? undefined : { option: value.option, equals: value.equals });

/** Reads a typed setup into the document's shape, keeping what it finds wrong with its texts. */
class SetupDocumentReader {
  readonly problems: FieldProblem[] = [];
  readonly withheld = new Set<string>();
  readonly places = new Map<string, string>();
  private duplicates = 0;

  document(input: BookingSetupInput) {
    return given({
      timeZone: input.timeZone,
      startTimes: input.startTimes,
      capacityPerSlot: input.capacityPerSlot,
      minParticipants: input.minParticipants,
      maxParticipants: input.maxParticipants,
      currency: input.currency,
      fixedFee: input.fixedFee == null ? undefined : Number(input.fixedFee),
      options: input.options?.map((o, i) => this.option(o, ["options", i])),
      units: input.units.map((u, i) => this.unit(u, ["units", i])),
      questions:
        input.questions == null
          ? undefined
          : given({ customer: this.questions(input.questions.customer, "customer"), booking: this.questions(input.questions.booking, "booking"), participant: this.questions(input.questions.participant, "participant") }),
      cancellationTiers: input.cancellationTiers?.map((t, i) => this.tier(t, ["cancellationTiers", i])),
      leadTravellerName: input.leadTravellerName,
      confirmationDelaySeconds: input.confirmationDelaySeconds,
      bookingHorizonDays: input.bookingHorizonDays,
    });
  }

  private text(value: BookingSetupTextInput, path: Path): Text | undefined {
    const field = ["setup", ...path].join(".");
    if ((value.text == null) === (value.translations == null)) {
      this.problems.push({ field, rule: "custom", message: value.text == null ? "give text or translations" : "give text or translations, not both" });
      this.withheld.add(field);
      return undefined;
    }
    if (value.translations == null) return value.text!;
    // A language given twice leaves its text unknown. One problem a list, and a few in all.
    const [repeated] = repeatedLanguages(value.translations);
    if (repeated !== undefined) {
      if (this.duplicates++ < MAX_DUPLICATES_NAMED) this.problems.push({ field: `${field}.translations.${repeated}.language`, rule: "uniqueLanguage", message: `${value.translations[repeated].language} is given twice` });
      this.withheld.add(field);
      return undefined;
    }
    value.translations.forEach(({ language }, index) => this.places.set(`${field}.${language}`, `${field}.translations.${index}.text`));
    return Object.fromEntries(value.translations.map((translation) => [translation.language, translation.text]));
  }

  private choice(value: BookingSetupChoiceInput, path: Path) {
    return { key: value.key, label: this.text(value.label, [...path, "label"]) };
  }

  private option(value: BookingSetupOptionInput, path: Path) {
    const choices = value.choices?.map((c, i) => this.choice(c, [...path, "choices", i]));
    return given({ key: value.key, label: this.text(value.label, [...path, "label"]), dataType: value.dataType, choices, shownWhen: condition(value.shownWhen) });
  }

  private unit(value: BookingSetupUnitInput, path: Path) {
    return given({
      key: value.key,
      label: this.text(value.label, [...path, "label"]),
      description: value.description == null ? undefined : this.text(value.description, [...path, "description"]),
      minAge: value.minAge,
      maxAge: value.maxAge,
      unitPriceType: value.unitPriceType,
      price: Number(value.price),
      minQuantity: value.minQuantity,
      maxQuantity: value.maxQuantity,
      accompaniedBy: value.accompaniedBy,
      maxPerCompanion: value.maxPerCompanion,
      paxCount: value.paxCount,
      shownWhen: condition(value.shownWhen),
    });
  }

  private question(value: BookingSetupQuestionInput, path: Path): Record<string, unknown> {
    return given({
      key: value.key,
      question: this.text(value.question, [...path, "question"]),
      dataType: value.dataType,
      dataFormat: value.dataFormat,
      choices: value.choices?.map((c, i) => this.choice(c, [...path, "choices", i])),
      followUps: value.followUps?.map((f, i) => ({ equals: f.equals, questions: f.questions.map((q, j) => this.question(q, [...path, "followUps", i, "questions", j])) })),
    });
  }

  private questions(list: BookingSetupQuestionInput[] | null | undefined, group: string) {
    return list?.map((q, i) => this.question(q, ["questions", group, i]));
  }

  private tier(value: BookingSetupCancellationTierInput, path: Path) {
    return given({ label: this.text(value.label, [...path, "label"]), duration: value.duration, refundPercentage: percentageOfRate(value.refundRate) });
  }
}

/** A typed setup judged by the setup's rules: the setup, or every problem named by the input's own fields. */
export function judgeTypedSetup(input: BookingSetupInput): { setup: BookingSetup; problems?: undefined } | { setup?: undefined; problems: FieldProblem[] } {
  const { document, problems, withheld, places } = setupDocumentOf(input);
  const parsed = parseBookingSetup(document);
  if (!problems.length && parsed.setup) return { setup: parsed.setup };
  // What was withheld has its problem already: the schema's "Required" for it would say less.
  const ruled = (parsed.problems ?? []).filter((problem) => !withheld.has(problem.field)).map((problem) => ({ ...problem, field: places.get(problem.field) ?? problem.field }));
  return { problems: [...problems, ...ruled] };
}

/** The members given: null and undefined members are left out, as a document leaves them out. */
function given(members: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(members).filter(([, value]) => value != null));
}
