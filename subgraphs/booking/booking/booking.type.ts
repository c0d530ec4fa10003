import { Directive, Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { ProductReference } from "../../common/product.reference.js";
import { Money } from "../../common/money.type.js";
import { ExchangeRates } from "../../common/exchange-rates.type.js";
import { CurrencyCodeScalar, DateTimeScalar, DecimalScalar, UrlScalar, UuidScalar } from "../../common/common.scalars.js";
import { UserError } from "../../common/user.errors.js";
import { Availability, Choice } from "../availability/availability.type.js";

export enum BookingStatus {
  ON_HOLD = "ON_HOLD",
  PENDING_CONFIRM = "PENDING_CONFIRM",
  CONFIRMED = "CONFIRMED",
  REJECTED = "REJECTED",
  CANCELLED = "CANCELLED",
  EXPIRED = "EXPIRED",
}
registerEnumType(BookingStatus, {
  name: "BookingStatus",
  description: "Where a booking is in its life",
  valuesConfig: {
    ON_HOLD: { description: "Made and holding its places until holdExpiresAt; not paid" },
    PENDING_CONFIRM: { description: "Paid (confirmBooking); the supplier is being asked to confirm" },
    CONFIRMED: { description: "The supplier confirmed: the voucher is ready. Final" },
    REJECTED: { description: "The supplier refused (rejectionReason says why). Final" },
    CANCELLED: { description: "Cancelled by the client. Final" },
    EXPIRED: { description: "Not confirmed before its hold ran out. Final" },
  },
});

export enum PaymentStatus {
  ON_HOLD = "ON_HOLD",
  PAID = "PAID",
  REFUND = "REFUND",
}
registerEnumType(PaymentStatus, {
  name: "PaymentStatus",
  description: "What the client owes or is owed for a booking",
  valuesConfig: {
    ON_HOLD: { description: "Nothing paid yet" },
    PAID: { description: "Paid at confirmation" },
    REFUND: { description: "Cancelled after payment under a tier that refunds part or all of it" },
  },
});

export enum QuestionDataType {
  TEXT = "TEXT",
  LONG_TEXT = "LONG_TEXT",
  INT = "INT",
  DOUBLE = "DOUBLE",
  BOOLEAN = "BOOLEAN",
  DATE = "DATE",
  TIME = "TIME",
  DATE_AND_TIME = "DATE_AND_TIME",
  CHECKBOX_TOGGLE = "CHECKBOX_TOGGLE",
  ACCEPT = "ACCEPT",
  OPTIONS = "OPTIONS",
}
registerEnumType(QuestionDataType, {
  name: "QuestionDataType",
  description: "What kind of answer a question takes (spec 2, dataType)",
  valuesConfig: {
    TEXT: { description: "One line of text" },
    LONG_TEXT: { description: "Text of several lines" },
    INT: { description: "A whole number" },
    DOUBLE: { description: "A decimal number" },
    BOOLEAN: { description: "true or false" },
    DATE: { description: "A date, YYYY-MM-DD" },
    TIME: { description: "A time of day, HH:mm" },
    DATE_AND_TIME: { description: "A local date and time, YYYY-MM-DDTHH:mm" },
    CHECKBOX_TOGGLE: { description: "A box ticked or not: true or false" },
    ACCEPT: { description: "Terms to accept: true" },
    OPTIONS: { description: "One of its choices, by key" },
  },
});

export enum QuestionDataFormat {
  PHONE_NUMBER = "PHONE_NUMBER",
  EMAIL_ADDRESS = "EMAIL_ADDRESS",
  ADDRESS = "ADDRESS",
}
registerEnumType(QuestionDataFormat, {
  name: "QuestionDataFormat",
  description: "How a text answer is checked",
  valuesConfig: {
    PHONE_NUMBER: { description: "A phone number in international form (E.164)" },
    EMAIL_ADDRESS: { description: "An e-mail address" },
    ADDRESS: { description: "A postal address" },
  },
});

export enum QuestionRequirement {
  CONDITIONAL = "CONDITIONAL",
}
registerEnumType(QuestionRequirement, {
  name: "QuestionRequirement",
  description: "When a question must be answered",
  valuesConfig: { CONDITIONAL: { description: "A follow-up: asked because its parent's answer meets its conditions" } },
});

export enum ConditionOperator {
  EQUALS = "equals",
}
registerEnumType(ConditionOperator, {
  name: "ConditionOperator",
  description: "How a follow-up's condition compares its parent's answer",
  valuesConfig: { EQUALS: { description: "The parent's answer is this value" } },
});

@ObjectType({ description: "What a follow-up question's parent must be answered with" })
export class QuestionCondition {
  @Field(() => ConditionOperator, { description: "How the answer is compared" }) operator!: ConditionOperator;
  @Field(() => String, { description: "The value compared with" }) value!: string;
}

@ObjectType({ description: "A question to answer; follow-ups nest to any depth" })
export class Question {
  @Field(() => ID, { description: "The question's id, to answer it" }) id!: string;
  @Field(() => String, { description: "What is asked, in the flow's language" }) text!: string;
  @Field(() => String, { nullable: true, description: "The answer given, normalized; null until answered" }) value!: string | null;
  @Field(() => QuestionDataType, { description: "What kind of answer it takes" }) dataType!: QuestionDataType;
  @Field(() => QuestionDataFormat, { nullable: true, description: "How a text answer is checked; null for none" }) dataFormat!: QuestionDataFormat | null;
  @Field(() => [Choice], { nullable: true, description: "The choices of an OPTIONS question; null for the others" }) choices!: Choice[] | null;
  @Field(() => [Question], { description: "Follow-ups whose condition the current answer meets" }) followUpQuestions!: Question[];
  @Field(() => ID, { nullable: true, description: "The question this follows up; null at the top" }) parentId!: string | null;
  @Field(() => Int, { description: "0 at the top, 1 for follow-ups, and so on" }) level!: number;
  @Field(() => QuestionRequirement, { nullable: true, description: "CONDITIONAL for follow-ups; null at the top" }) requirementType!: QuestionRequirement | null;
  @Field(() => [QuestionCondition], { nullable: true, description: "What the parent's answer must be for this to be asked; null at the top" }) conditions!: QuestionCondition[] | null;
}

@ObjectType({ description: "The questions about one participant" })
export class ParticipantQuestions {
  @Field(() => ID, { description: "The participant's id" }) id!: string;
  @Field(() => [Question], { description: "What is asked about them" }) questions!: Question[];
}

@ObjectType({ description: "Every question of a booking, by whom it is about" })
export class BookingQuestions {
  @Field(() => [Question], { description: "About the customer (the lead traveller)" }) customer!: Question[];
  @Field(() => [Question], { description: "About the booking as a whole" }) booking!: Question[];
  @Field(() => [ParticipantQuestions], { description: "About each participant" }) participants!: ParticipantQuestions[];
}

@ObjectType({ description: "A refund tier: cancelled at least this long before the start, this share is refunded" })
export class CancellationPolicyTier {
  @Field(() => String, { description: "What to show, in the booking's language" }) label!: string;
  @Field(() => String, { nullable: true, description: "ISO 8601 duration before the start from which the tier applies; null: up to the start" }) duration!: string | null;
  @Field(() => DecimalScalar, { description: 'The share of the price refunded, 0 to 1: "0.5" is half' }) refundRate!: string;
}

@ObjectType({ description: "Whether and on which terms a booking can be cancelled now" })
export class Cancellation {
  @Field(() => Boolean, { description: "cancelBooking would be accepted now" }) isCancellable!: boolean;
  @Field(() => [CancellationPolicyTier], { description: "The refund tiers the booking was sold with" }) policy!: CancellationPolicyTier[];
}

@ObjectType({ description: "The booking in the supplier's system, once confirmed" })
export class SupplierBooking {
  @Field(() => String, { description: "The booking's id in the engine's system" }) externalId!: string;
  @Field(() => String, { description: "The booking engine's name" }) engineName!: string;
  @Field(() => String, { description: "The product's id in the engine's system" }) productExternalId!: string;
  @Field(() => String, { description: "For customer care with the supplier; the booking's id when the supplier gives none" }) bookingCode!: string;
}

@ObjectType({ description: "Who the booking is for, in the client's own terms" })
export class TravelerDetails {
  @Field(() => String, { nullable: true, description: "The client's id of the traveller; null when not given" }) externalClientId!: string | null;
}

@Directive('@key(fields: "id")')
@ObjectType({ description: "A booking of an availability: held, paid, confirmed by the supplier (steps 4 to 7 of the flow)" })
export class Booking {
  @Field(() => ID, { description: "The global id" }) id!: string;
  @Field(() => UuidScalar, { description: "The booking's id on the REST paths" }) legacyResourceId!: string;
  @Field(() => String, { description: "The start, as a local date-time with its offset and zone id: 2027-03-17T10:00:00+01:00[Europe/Zurich]" }) availabilityDateTime!: string;
  @Field(() => String, { description: "The client's reference of the booking" }) resellerRef!: string;
  @Field(() => BookingStatus, { description: "Where the booking is in its life" }) status!: BookingStatus;
  @Field(() => PaymentStatus, { description: "What is owed or paid" }) paymentStatus!: PaymentStatus;
  @Field(() => UrlScalar, { nullable: true, description: "Once confirmed: a signed link to the PDF voucher, valid 24 hours from this read; for an OCTO supplier that serves its own ticket, that ticket's address" }) voucherUrl!: string | null;
  @Field(() => DateTimeScalar, { description: "When it was made" }) createdAt!: Date;
  @Field(() => DateTimeScalar, { description: "When it last changed" }) updatedAt!: Date;
  @Field(() => Availability, { description: "What was booked: the date, options and tickets" }) availability!: Availability;
  @Field(() => BookingQuestions, { description: "What the traveller is asked, with the answers so far" }) questions!: BookingQuestions;
  @Field(() => Cancellation, { description: "Whether it can be cancelled now, and the refund tiers" }) cancellation!: Cancellation;
  @Field(() => Boolean, { description: "Every question that must be answered is" }) isQuestionStepComplete!: boolean;
  @Field(() => SupplierBooking, { nullable: true, description: "The booking in the supplier's system; null until confirmed" }) supplierBooking!: SupplierBooking | null;
  @Field(() => TravelerDetails, { description: "The client's own terms for the traveller" }) travelerDetails!: TravelerDetails;
  @Field(() => ProductReference, { description: "The product booked" }) product!: ProductReference;
  @Field(() => Money, { description: "What the booking costs" }) totalPrice!: Money;
  @Field(() => ExchangeRates, { nullable: true, description: "The rates its prices were converted at when it was made; they stay" }) exchangeRates!: ExchangeRates | null;
  @Field(() => DateTimeScalar, { nullable: true, description: "ON_HOLD: unconfirmed by then, it expires; null otherwise" }) holdExpiresAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true, description: "When the answers were erased for privacy; they must be given again before confirming" }) answersRedactedAt!: Date | null;
  @Field(() => String, { nullable: true, description: "REJECTED: why the supplier refused" }) rejectionReason!: string | null;
}

@ObjectType({ description: "What a cancellation did" })
export class CancellationInformation {
  @Field(() => Cancellation, { description: "The terms as they are after it" }) cancellation!: Cancellation;
  @Field(() => String, { description: "The reason recorded" }) reason!: string;
  @Field(() => DateTimeScalar, { description: "When it was asked for" }) requestedAt!: Date;
  @Field(() => DecimalScalar, { description: 'The share of the price refunded under the tier in force, 0 to 1: "0.5" is half' }) refundRate!: string;
  @Field(() => Booking, { description: "The booking, CANCELLED" }) booking!: Booking;
}

@InputType({ description: "The availability to book, and the client's references" })
export class CreateBookingInput {
  @Field(() => ID, { description: "The availability's global id" }) availabilityId!: string;
  @Field(() => String, { description: "Letters and digits, at most 255: the client's booking reference. The same reference and availability give the same booking" }) resellerRef!: string;
  @Field(() => String, { nullable: true, description: "Letters and digits, at most 255: ties the booking to a traveller" }) externalClientId?: string | null;
  @Field(() => CurrencyCodeScalar, { nullable: true, description: "When given, must be the flow's currency (CURRENCY_CHANGE otherwise)" }) currencyCode?: string | null;
}

@InputType({ description: "One answer" })
export class AnswerInput {
  @Field(() => ID, { description: "The question's id" }) questionId!: string;
  @Field(() => String, { nullable: true, description: "The answer; null clears it" }) value!: string | null;
}

@InputType({ description: "The answers known so far" })
export class AnswerBookingQuestionsInput {
  @Field(() => ID, { description: "The booking's global id" }) bookingId!: string;
  @Field(() => [AnswerInput], { description: "Every answer known so far: questions left out keep no answer" }) answers!: AnswerInput[];
}

@InputType({ description: "The booking paid for" })
export class ConfirmBookingInput {
  @Field(() => ID, { description: "The booking's global id" }) bookingId!: string;
  @Field(() => String, { nullable: true, description: "Letters and digits, at most 255: ties the booking to a traveller" }) externalClientId?: string | null;
}

@InputType({ description: "The booking to cancel" })
export class CancelBookingInput {
  @Field(() => ID, { description: "The booking's global id" }) bookingId!: string;
  @Field(() => String, { nullable: true, description: "Why, 1 to 500 characters; passed on to the supplier" }) reason?: string | null;
}

@ObjectType({ description: "The result of createBooking" })
export class CreateBookingPayload {
  @Field(() => Booking, { nullable: true, description: "The booking, ON_HOLD; null when refused" }) booking?: Booking | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of answerBookingQuestions" })
export class AnswerBookingQuestionsPayload {
  @Field(() => Booking, { nullable: true, description: "The booking with the answers; null when refused" }) booking?: Booking | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of confirmBooking" })
export class ConfirmBookingPayload {
  @Field(() => Booking, { nullable: true, description: "The booking, PENDING_CONFIRM and PAID; null when refused" }) booking?: Booking | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of cancelBooking" })
export class CancelBookingPayload {
  @Field(() => CancellationInformation, { nullable: true, description: "What the cancellation did; null when refused" }) cancellation?: CancellationInformation | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "A voucher PDF, for the signed voucher link" })
export class VoucherDocument {
  @Field(() => String, { description: "The file's name" }) fileName!: string;
  @Field(() => String, { description: "The PDF, base64" }) pdfBase64!: string;
}
