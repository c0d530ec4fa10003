import { decimalOf } from "../../core/decimal.js";

/**
 * Spec 2's bodies (Availability, Booking, Cancel booking) built from the graph's answer. The REST
 * layer answers with them (rest-compat/routes/booking-flow/), and a webhook's booking is one: one
 * mapping, so the two cannot drift. The inputs are the graph's shapes as plain data, whether a
 * resolver built them or an operation's answer carried them (dates as Date or as text).
 */

type Instant = Date | string;

export interface MoneyData {
  amount: string;
  currencyCode: string;
}

export interface ChoiceData {
  key: string;
  label: string;
}

export interface AvailabilityOptionData {
  id: string;
  label: string;
  level: number;
  dataType: string;
  choices: ChoiceData[] | null;
  selectedValue: string | null;
  selectedLabel: string | null;
}

export interface AvailabilityData {
  legacyResourceId: string;
  date: string;
  options: AvailabilityOptionData[];
  units:
    | {
        id: string;
        label: string;
        description: string | null;
        quantity: number;
        minAge: number;
        maxAge: number | null;
        priceType: string;
        restrictions: { minQuantity: number; maxQuantity: number; accompaniedBy: string[] };
        price: MoneyData;
      }[]
    | null;
  maxParticipants: number;
  minParticipants: number;
  isOptionStepCompleted: boolean;
  isPricingStepCompleted: boolean;
  totalPrice: MoneyData | null;
  exchangeRates: { date: string; source: string } | null;
  participantCount: number | null;
  pricingIssues: { unitId: string | null; rule: string; message: string }[] | null;
  expiresAt: Instant;
}

export interface QuestionData {
  id: string;
  text: string;
  value: string | null;
  dataType: string;
  dataFormat: string | null;
  choices: ChoiceData[] | null;
  followUpQuestions?: QuestionData[];
  parentId: string | null;
  level: number;
  requirementType: string | null;
  conditions: { operator: string; value: string }[] | null;
}

export interface CancellationTierData {
  label: string;
  duration: string | null;
  refundRate: string;
}

export interface CancellationData {
  isCancellable: boolean;
  policy: CancellationTierData[];
}

export interface BookingData {
  legacyResourceId: string;
  availabilityDateTime: string;
  resellerRef: string;
  status: string;
  paymentStatus: string;
  voucherUrl: string | null;
  createdAt: Instant;
  updatedAt: Instant;
  isQuestionStepComplete: boolean;
  holdExpiresAt: Instant | null;
  answersRedactedAt: Instant | null;
  rejectionReason: string | null;
  availability: AvailabilityData;
  questions: { customer: QuestionData[]; booking: QuestionData[]; participants: { id: string; questions: QuestionData[] }[] };
  cancellation: CancellationData;
  supplierBooking: { externalId: string; engineName: string; productExternalId: string; bookingCode: string } | null;
  travelerDetails: { externalClientId: string | null };
  totalPrice: MoneyData;
  exchangeRates: { date: string; source: string } | null;
}

/** Drops null members at every depth: the contract's optional fields are absent when unset. */
export function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNulls) as T;
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    // A plain loop: every booking step's answer passes through here, and the entries-filter-map
    // chain allocated three arrays an object.
    const kept: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      if (v === null || v === undefined) continue;
      // Keys can be a partner's (option choices): "__proto__" must stay a key, as fromEntries kept it.
      if (key === "__proto__") Object.defineProperty(kept, key, { value: withoutNulls(v), enumerable: true, writable: true, configurable: true });
      else kept[key] = withoutNulls(v);
    }
    return kept as T;
  }
  return value;
}

/** The graph's Money as the contract writes it: `{ retail, currency }`, the amount a number. */
export const contractMoney = (money: MoneyData) => ({ retail: Number(money.amount), currency: money.currencyCode });

/** Choice key → label, as the contract's `optionChoices` and `questionChoices` are. */
export function choiceMap(choices: ChoiceData[]): Record<string, string> {
  const map: Record<string, string> = {};
  // Keys are a partner's: "__proto__" must stay a key, not set the object's prototype.
  for (const { key, label } of choices) Object.defineProperty(map, key, { value: label, enumerable: true, writable: true, configurable: true });
  return map;
}

/** A share of 0 to 1 written exactly ("0.125") from a percentage (12.5), and back: decimal text, never float arithmetic. */
export const rateOfPercentage = (percentage: number): string => shiftDecimal(decimalOf(percentage), -2);
export const percentageOfRate = (rate: string): number => Number(shiftDecimal(rate, 2));

/** Moves a decimal number's point `places` to the right (left when negative), in its text. */
function shiftDecimal(value: string, places: number): string {
  const negative = value.startsWith("-");
  const [whole, fraction = ""] = (negative ? value.slice(1) : value).split(".");
  const digits = whole + fraction;
  const point = whole.length + places;
  const padded = point <= 0 ? "0".repeat(1 - point) + digits : digits.padEnd(point, "0");
  const at = Math.max(point, 1);
  const integer = padded.slice(0, at).replace(/^0+(?=\d)/, "");
  const decimals = padded.slice(at).replace(/0+$/, "");
  return `${negative ? "-" : ""}${integer}${decimals ? `.${decimals}` : ""}`;
}

export const contractAvailabilityOption = (option: AvailabilityOptionData) => ({
  id: option.id,
  label: option.label,
  level: String(option.level),
  dataType: option.dataType,
  optionChoices: option.choices ? choiceMap(option.choices) : null,
  selectedOptionId: option.selectedValue,
  selectedOptionValue: option.selectedLabel,
});

/** Spec 2's Availability. */
export const contractAvailability = (availability: AvailabilityData) => ({
  id: availability.legacyResourceId,
  availabilityDate: availability.date,
  availabilityOptions: availability.options.map(contractAvailabilityOption),
  unitOptions: availability.units?.map((unit) => ({
    id: unit.id,
    label: unit.label,
    description: unit.description,
    restrictions: { minQuantity: unit.restrictions.minQuantity, maxQuantity: unit.restrictions.maxQuantity, accompagniedBy: unit.restrictions.accompaniedBy },
    price: contractMoney(unit.price),
    unitQuantity: unit.quantity,
    minAge: unit.minAge,
    maxAge: unit.maxAge,
    unitPriceType: unit.priceType,
  })),
  maxParticipants: availability.maxParticipants,
  minParticipants: availability.minParticipants,
  isOptionStepCompleted: availability.isOptionStepCompleted,
  isPricingStepCompleted: availability.isPricingStepCompleted,
  totalPrice: availability.totalPrice && contractMoney(availability.totalPrice),
  exchangeRates: availability.exchangeRates,
  participants: availability.participantCount,
  pricingIssues: availability.pricingIssues,
  expiresAt: availability.expiresAt,
});

/** Spec 2's Question, its follow-ups as deep as they were read. */
export const contractQuestion = (question: QuestionData): Record<string, unknown> => ({
  id: question.id,
  question: question.text,
  value: question.value,
  dataType: question.dataType,
  dataFormat: question.dataFormat,
  questionChoices: question.choices ? choiceMap(question.choices) : null,
  followUpQuestions: question.followUpQuestions?.map(contractQuestion),
  parentId: question.parentId,
  level: String(question.level),
  requirementType: question.requirementType,
  conditions: question.conditions?.map(({ operator, value }) => ({ op: operator, value })) ?? null,
});

export const contractCancellationTier = (tier: CancellationTierData) => ({ label: tier.label, duration: tier.duration, refundPercentage: percentageOfRate(tier.refundRate) });

export const contractCancellation = (cancellation: CancellationData) => ({ isCancellable: cancellation.isCancellable, cancellationPolicy: cancellation.policy.map(contractCancellationTier) });

/** Spec 2's Booking. */
export const contractBooking = (booking: BookingData) => ({
  id: booking.legacyResourceId,
  availabilityDateTime: booking.availabilityDateTime,
  resellerRef: booking.resellerRef,
  status: booking.status,
  paymentStatus: booking.paymentStatus,
  voucherUrl: booking.voucherUrl,
  creationDate: booking.createdAt,
  updateDate: booking.updatedAt,
  availability: contractAvailability(booking.availability),
  questions: {
    customer: booking.questions.customer.map(contractQuestion),
    booking: booking.questions.booking.map(contractQuestion),
    participants: booking.questions.participants.map((participant) => ({ id: participant.id, questions: participant.questions.map(contractQuestion) })),
  },
  cancellation: contractCancellation(booking.cancellation),
  isQuestionStepComplete: booking.isQuestionStepComplete,
  bookingEngineDetails: booking.supplierBooking && {
    bookingExternalId: booking.supplierBooking.externalId,
    bookingEngineName: booking.supplierBooking.engineName,
    productExternalId: booking.supplierBooking.productExternalId,
    bookingCode: booking.supplierBooking.bookingCode,
  },
  travelerDetails: booking.travelerDetails,
  totalPrice: contractMoney(booking.totalPrice),
  exchangeRates: booking.exchangeRates,
  holdExpiresAt: booking.holdExpiresAt,
  answersRedactedAt: booking.answersRedactedAt,
  rejectionReason: booking.rejectionReason,
});
