import { isCalendarDay } from "../../../core/calendar-date.js";
import { parsePhoneNumberFromString } from "libphonenumber-js";
import type { FieldProblem } from "../../../core/errors.js";
import { derivedUuid } from "../booking.ids.js";
import {
  localized,
  type BookingSetup,
  type QuestionDataFormat,
  type QuestionDataType,
  type QuestionSetup,
} from "../engines/inventory/booking-setup.schema.js";

/**
 * The booking flow's question step, without storage: which questions a booking shows (with their
 * conditional follow-ups), how a submitted answer is checked and normalized, and when the step is
 * complete. Spec: document 2, "Question" and "5b. Answer questions".
 */

export interface QuestionView {
  id: string;
  question: string;
  /** Present once answered, in normalized form. */
  value?: string;
  dataType: QuestionDataType;
  dataFormat?: QuestionDataFormat;
  /** OPTIONS only: choice key to localized label. */
  questionChoices?: Record<string, string>;
  /** Only the follow-ups whose condition the stored answer satisfies. */
  followUpQuestions: QuestionView[];
  parentId?: string;
  /** "0" for top-level questions, "1" for their follow-ups, and so on. */
  level: string;
  requirementType?: "CONDITIONAL";
  conditions?: { op: "equals"; value: string }[];
}

export interface QuestionGroups {
  customer: QuestionView[];
  booking: QuestionView[];
  participants: { id: string; questions: QuestionView[] }[];
}

export interface QuestionContext {
  bookingId: string;
  participantCount: number;
  language: string;
  /** The booking's options: a question with `shownWhen` is asked only for its choice. */
  selections?: Record<string, string>;
  /** Per participant, the unit of the ticket they hold (undefined for the others a ticket admits): for questions with `units`. */
  ticketUnits?: (string | undefined)[];
}

type QuestionsSetup = BookingSetup["questions"];

/**
 * Ids are derived rather than stored so that GET and PUT agree without persisting the question
 * tree: the same booking and path always give the same UUID, and the booking id in the hash keeps
 * ids from different bookings apart.
 */
export function questionId(bookingId: string, path: string): string {
  return derivedUuid("question", bookingId, path);
}

/** The stored answer to a top-level customer question, by the question's key in the setup. */
export function customerAnswer(bookingId: string, answers: Record<string, string>, key: string): string | undefined {
  const id = questionId(bookingId, `customer/${key}`);
  return Object.hasOwn(answers, id) ? answers[id] : undefined;
}

export function participantId(bookingId: string, index: number): string {
  return derivedUuid("participant", bookingId, String(index));
}

/** One question of one booking, with every follow-up it could reveal, active or not. */
interface Slot {
  id: string;
  setup: QuestionSetup;
  level: number;
  parentId?: string;
  /** Normalized value the parent's answer must equal; absent on top-level questions. */
  condition?: string;
  followUps: Slot[];
}

interface SlotGroups {
  customer: Slot[];
  booking: Slot[];
  participants: { id: string; slots: Slot[] }[];
}

function slotsFor(bookingId: string, questions: QuestionSetup[], basePath: string, level: number, parent?: Slot, condition?: string): Slot[] {
  return questions.map((setup) => {
    const path = `${basePath}/${setup.key}`;
    const slot: Slot = { id: questionId(bookingId, path), setup, level, parentId: parent?.id, condition, followUps: [] };
    for (const branch of setup.followUps ?? []) {
      slot.followUps.push(...slotsFor(bookingId, branch.questions, path, level + 1, slot, conditionValue(setup, branch.equals)));
    }
    return slot;
  });
}

function slotGroups(setup: QuestionsSetup, context: QuestionContext): SlotGroups {
  const count = Math.max(0, Math.floor(context.participantCount));
  const forOptions = (q: QuestionSetup) => !q.shownWhen || context.selections?.[q.shownWhen.option] === q.shownWhen.equals;
  const forTicketOf = (index: number) => (q: QuestionSetup) => !q.units || q.units.includes(context.ticketUnits?.[index] ?? "");
  const participantQuestions = setup.participant.filter(forOptions);
  return {
    customer: slotsFor(context.bookingId, setup.customer.filter(forOptions), "customer", 0),
    booking: slotsFor(context.bookingId, setup.booking.filter(forOptions), "booking", 0),
    participants: Array.from({ length: count }, (_, index) => ({
      id: participantId(context.bookingId, index),
      slots: slotsFor(context.bookingId, participantQuestions.filter(forTicketOf(index)), `participant/${index}`, 0),
    })),
  };
}

/** The answer to each top-level question asked, by group: what a supplier is sent with the confirmation. */
export function topLevelAnswers(setup: QuestionsSetup, context: QuestionContext, answers: Record<string, string>): { booking: Map<string, string>; participants: Map<string, string>[] } {
  const groups = slotGroups(setup, context);
  const answered = (slots: Slot[]) => new Map(slots.filter((slot) => Object.hasOwn(answers, slot.id)).map((slot) => [slot.setup.key, answers[slot.id]]));
  return { booking: answered(groups.booking), participants: groups.participants.map((p) => answered(p.slots)) };
}

function allSlots(groups: SlotGroups): Slot[] {
  return [...groups.customer, ...groups.booking, ...groups.participants.flatMap((p) => p.slots)];
}

/**
 * Conditions are written by content managers in free form ("yes", "TRUE", "05"); putting them in
 * the form answers are stored in lets a plain string comparison decide activation.
 */
function conditionValue(parent: QuestionSetup, equals: string): string {
  const checked = checkValue(parent, equals);
  return checked.ok ? checked.value : equals;
}

function isActive(slot: Slot, parentAnswer: string | undefined): boolean {
  return slot.condition === undefined || parentAnswer === slot.condition;
}

export function questionGroups(setup: QuestionsSetup, context: QuestionContext, answers: Record<string, string>): QuestionGroups {
  const view = (slot: Slot): QuestionView => {
    const value = Object.hasOwn(answers, slot.id) ? answers[slot.id] : undefined;
    const q = slot.setup;
    const shown: QuestionView = {
      id: slot.id,
      question: localized(q.question, context.language) ?? q.key,
      ...(value !== undefined ? { value } : {}),
      dataType: q.dataType,
      ...(q.dataFormat ? { dataFormat: q.dataFormat } : {}),
      ...(q.choices
        ? { questionChoices: Object.fromEntries(q.choices.map((c) => [c.key, localized(c.label, context.language) ?? c.key])) }
        : {}),
      followUpQuestions: slot.followUps.filter((f) => isActive(f, value)).map(view),
      level: String(slot.level),
    };
    if (slot.condition !== undefined) {
      shown.parentId = slot.parentId;
      shown.requirementType = "CONDITIONAL";
      shown.conditions = [{ op: "equals", value: slot.condition }];
    }
    return shown;
  };
  const groups = slotGroups(setup, context);
  return {
    customer: groups.customer.map(view),
    booking: groups.booking.map(view),
    participants: groups.participants.map((p) => ({ id: p.id, questions: p.slots.map(view) })),
  };
}

export function validateAnswers(
  setup: QuestionsSetup,
  context: QuestionContext,
  answers: { id: string; value: string | null }[],
): { answers: Record<string, string>; problems: FieldProblem[] } {
  const groups = slotGroups(setup, context);
  const known = new Set<string>();
  const collect = (slot: Slot): void => {
    known.add(slot.id);
    slot.followUps.forEach(collect);
  };
  allSlots(groups).forEach(collect);

  const problems: FieldProblem[] = [];
  const submitted = new Map<string, { index: number; value: string | null }>();
  answers.forEach((answer, index) => {
    if (typeof answer.id !== "string" || !known.has(answer.id)) {
      problems.push({ field: `answers[${index}].id`, rule: "unknownQuestion", message: "Expected the id of a question of this booking." });
    } else if (submitted.has(answer.id)) {
      problems.push({
        field: `answers[${index}].id`,
        rule: "duplicateAnswer",
        message: `Expected each question to be answered once; question ${answer.id} was already answered at answers[${submitted.get(answer.id)?.index}].`,
      });
    } else {
      submitted.set(answer.id, { index, value: answer.value });
    }
  });

  // Activation follows the submitted answers top-down, so answers to follow-ups under a parent
  // that is unanswered, invalid or answered otherwise are never reached and drop out silently.
  const accepted: Record<string, string> = {};
  const visit = (slot: Slot, parentAnswer: string | undefined): void => {
    if (!isActive(slot, parentAnswer)) return;
    const answer = submitted.get(slot.id);
    let value: string | undefined;
    if (answer) {
      const checked = checkValue(slot.setup, answer.value);
      if (checked.ok) {
        value = checked.value;
        accepted[slot.id] = value;
      } else {
        problems.push({ field: `answers[${answer.index}].value`, rule: checked.rule, message: checked.message });
      }
    }
    slot.followUps.forEach((f) => visit(f, value));
  };
  allSlots(groups).forEach((slot) => visit(slot, undefined));

  // Problems in the order of the submitted list, however the tree walk found them.
  problems.sort((a, b) => answerIndex(a.field) - answerIndex(b.field));
  return { answers: accepted, problems };
}

function answerIndex(field: string): number {
  return Number(/^answers\[(\d+)\]/.exec(field)?.[1] ?? 0);
}

export function isQuestionStepComplete(groups: QuestionGroups): boolean {
  const answered = (q: QuestionView): boolean => q.value !== undefined && q.followUpQuestions.every(answered);
  return [...groups.customer, ...groups.booking, ...groups.participants.flatMap((p) => p.questions)].every(answered);
}

// ---------------------------------------------------------------------------------------------
// Value checks (spec table "dataType / dataFormat / Validation")

type Checked = { ok: true; value: string } | { ok: false; rule: string; message: string };

const ok = (value: string): Checked => ({ ok: true, value });
const refused = (rule: string, message: string): Checked => ({ ok: false, rule, message });

const MAX_TEXT = 2000;
const MAX_EMAIL = 254;
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * DOUBLE and TIME may be answered with null. The answer is stored as the string "null" (values
 * are strings throughout), and the string "null" is accepted on input too, so a client that sends
 * back the values it was shown gets the same answers again.
 */
const NULL_ANSWER = "null";

const messages = {
  required: "Expected an answer; null is accepted only for DOUBLE and TIME questions.",
  supplierNeedsValue: "Expected an answer: the supplier needs a value for this question, so null is not accepted.",
  minLength: "Expected a text of at least one character other than spaces.",
  maxLength: `Expected a text of at most ${MAX_TEXT} characters.`,
  e164PhoneNumber:
    "Expected a phone number in international E.164 form: '+', the country code and the number, without spaces or a leading 0 (e.g. +33612345678).",
  emailAddress: `Expected a full e-mail address such as name@example.com (at most ${MAX_EMAIL} characters).`,
  integer: "Expected a whole number such as 42 or -7.",
  range: `Expected a number between -${SAFE} and ${SAFE}.`,
  double: "Expected a decimal number such as 3.5 or -1.2e3, or null.",
  boolean: "Expected true or false (yes/no and 1/0 are accepted too).",
  isoDate: "Expected a calendar date written YYYY-MM-DD, such as 2026-07-14.",
  time: "Expected a time written HH:MM:SS with an optional fraction of a second, such as 09:30:00 or 09:30:00.250, or null.",
  isoDateTime: "Expected an ISO 8601 date and time such as 2026-07-14T09:30:00Z, 2026-07-14T09:30:00.5+02:00 or 2026-07-14T09:30.",
} as const;

function checkValue(setup: QuestionSetup, raw: string | null): Checked {
  const nullable = (setup.dataType === "DOUBLE" || setup.dataType === "TIME") && setup.nullAllowed !== false;
  if (raw === null) return nullable ? ok(NULL_ANSWER) : refused("required", setup.nullAllowed === false ? messages.supplierNeedsValue : messages.required);
  const value = raw.trim();
  if (nullable && value === NULL_ANSWER) return ok(NULL_ANSWER);
  switch (setup.dataType) {
    case "TEXT":
      if (setup.dataFormat === "PHONE_NUMBER") return checkPhone(value);
      if (setup.dataFormat === "EMAIL_ADDRESS") return checkEmail(value);
      return checkText(value);
    case "LONG_TEXT":
      return checkText(value);
    case "INT":
      return checkInt(value);
    case "DOUBLE":
      return checkDouble(value);
    case "BOOLEAN":
    case "CHECKBOX_TOGGLE":
    case "ACCEPT":
      // ACCEPT is only "boolean" in the spec: refusing false here would be a rule of our own.
      return checkBoolean(value);
    case "DATE":
      return checkDate(value);
    case "TIME":
      return checkTime(value);
    case "DATE_AND_TIME":
      return checkDateTime(value);
    case "OPTIONS": {
      const keys = (setup.choices ?? []).map((c) => c.key);
      return keys.includes(value) ? ok(value) : refused("optionChoice", `Expected one of the choice keys: ${keys.join(", ")}.`);
    }
  }
}

function checkText(value: string): Checked {
  if (value.length < 1) return refused("minLength", messages.minLength);
  if (value.length > MAX_TEXT) return refused("maxLength", messages.maxLength);
  return ok(value);
}

const E164 = /^\+[1-9]\d{1,14}$/;

function checkPhone(value: string): Checked {
  // Only the canonical form is accepted: libphonenumber also reads "+330612345678" (trunk 0 kept)
  // as the French number +33612345678, but that input is not E.164 and the spec refuses others.
  const parsed = E164.test(value) ? parsePhoneNumberFromString(value) : undefined;
  return parsed?.isValid() && parsed.number === value ? ok(value) : refused("e164PhoneNumber", messages.e164PhoneNumber);
}

// RFC 5322 dot-atom local part and an ASCII host name with a top-level domain; quoted local parts
// and IP-literal domains, legal but unusable for contacting a customer, are refused.
const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TOP_LEVEL = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

function checkEmail(value: string): Checked {
  const at = value.lastIndexOf("@");
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split(".");
  const valid =
    at > 0 &&
    value.length <= MAX_EMAIL &&
    local.length <= 64 &&
    EMAIL_LOCAL.test(local) &&
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label)) &&
    TOP_LEVEL.test(labels[labels.length - 1]);
  return valid ? ok(value) : refused("emailAddress", messages.emailAddress);
}

function checkInt(value: string): Checked {
  if (!/^-?\d+$/.test(value)) return refused("integer", messages.integer);
  const n = Number(value);
  // Normalizing through Number turns "-0" into "0" and drops leading zeros.
  return Math.abs(n) <= SAFE ? ok(String(n === 0 ? 0 : n)) : refused("range", messages.range);
}

function checkDouble(value: string): Checked {
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(value)) return refused("double", messages.double);
  const n = Number(value);
  if (!Number.isFinite(n) || Math.abs(n) > SAFE) return refused("range", messages.range);
  return ok(String(n === 0 ? 0 : n));
}

const TRUE_WORDS = new Set(["true", "1", "yes"]);
const FALSE_WORDS = new Set(["false", "0", "no"]);

function checkBoolean(value: string): Checked {
  const word = value.toLowerCase();
  if (TRUE_WORDS.has(word)) return ok("true");
  if (FALSE_WORDS.has(word)) return ok("false");
  return refused("boolean", messages.boolean);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?$/;

function hasCalendarDate(match: RegExpExecArray | null): boolean {
  return match !== null && isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

function checkDate(value: string): Checked {
  return hasCalendarDate(DATE.exec(value)) ? ok(value) : refused("isoDate", messages.isoDate);
}

function checkTime(value: string): Checked {
  return TIME.test(value) ? ok(value) : refused("time", messages.time);
}

function checkDateTime(value: string): Checked {
  return hasCalendarDate(DATE_TIME.exec(value)) ? ok(value) : refused("isoDateTime", messages.isoDateTime);
}
