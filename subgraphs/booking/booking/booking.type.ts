import { Directive, Field, Float, ID, InputType, Int, ObjectType } from "type-graphql";
import { ProductReference } from "../../common/product-reference.js";
import { JSONObjectScalar } from "../../common/json-scalars.js";
import { Availability } from "../availability/availability.type.js";
import { Money } from "../../common/money.type.js";
import { ExchangeRates } from "../../common/exchange-rates.type.js";

@ObjectType({ description: "A question to answer (spec 2, Question); follow-ups nest to any depth" })
export class Question {
  @Field(() => String) id!: string;
  @Field(() => String) question!: string;
  @Field(() => String, { nullable: true, description: "Present once answered" }) value?: string;
  @Field(() => String) dataType!: string;
  @Field(() => String, { nullable: true }) dataFormat?: string;
  @Field(() => JSONObjectScalar, { nullable: true, description: "Choice key to label (OPTIONS)" }) questionChoices?: Record<string, string>;
  @Field(() => [Question], { description: "Follow-ups whose condition the current answer satisfies" }) followUpQuestions!: Question[];
  @Field(() => String, { nullable: true }) parentId?: string;
  @Field(() => String) level!: string;
  @Field(() => String, { nullable: true, description: "CONDITIONAL for follow-ups" }) requirementType?: string;
  @Field(() => [QuestionCondition], { nullable: true }) conditions?: QuestionCondition[];
}

@ObjectType()
export class QuestionCondition {
  @Field(() => String, { description: "equals" }) op!: string;
  @Field(() => String) value!: string;
}

@ObjectType()
export class ParticipantQuestions {
  @Field(() => String) id!: string;
  @Field(() => [Question]) questions!: Question[];
}

@ObjectType()
export class BookingQuestions {
  @Field(() => [Question]) customer!: Question[];
  @Field(() => [Question]) booking!: Question[];
  @Field(() => [ParticipantQuestions]) participants!: ParticipantQuestions[];
}

@ObjectType()
export class CancellationPolicyTier {
  @Field(() => String) label!: string;
  @Field(() => String, { nullable: true, description: "ISO 8601 duration before the start from which the tier applies" }) duration?: string;
  @Field(() => Float) refundPercentage!: number;
}

@ObjectType()
export class Cancellation {
  @Field(() => Boolean) isCancellable!: boolean;
  @Field(() => [CancellationPolicyTier]) cancellationPolicy!: CancellationPolicyTier[];
}

@ObjectType()
export class BookingEngineDetails {
  @Field(() => String) bookingExternalId!: string;
  @Field(() => String) bookingEngineName!: string;
  @Field(() => String) productExternalId!: string;
  @Field(() => String, { description: "For customer care with the supplier; the booking id when the supplier gives none" }) bookingCode!: string;
}

@ObjectType()
export class TravelerDetails {
  @Field(() => String, { nullable: true }) externalClientId?: string;
}

@ObjectType({ description: "A booking (spec 2, Booking)" })
@Directive('@key(fields: "id")')
export class Booking {
  @Field(() => String) id!: string;
  @Field(() => String, { description: "Start as a local date-time with offset and zone id" }) availabilityDateTime!: string;
  @Field(() => String) resellerRef!: string;
  @Field(() => String, { description: "ON_HOLD, PENDING_CONFIRM, CONFIRMED, REJECTED, CANCELLED, EXPIRED, …" }) status!: string;
  @Field(() => String, { description: "ON_HOLD, PAID, REFUND, …" }) paymentStatus!: string;
  @Field(() => String, { nullable: true, description: "After confirmation: a signed link to the PDF voucher, valid 24 hours from this read; for a booking in an OCTO supplier's system that serves its own PDF ticket, that ticket's address" }) voucherUrl?: string;
  @Field(() => Date) creationDate!: Date;
  @Field(() => Date) updateDate!: Date;
  @Field(() => Availability) availability!: Availability;
  @Field(() => BookingQuestions) questions!: BookingQuestions;
  @Field(() => Cancellation) cancellation!: Cancellation;
  @Field(() => Boolean) isQuestionStepComplete!: boolean;
  @Field(() => BookingEngineDetails, { nullable: true, description: "After confirmation" }) bookingEngineDetails?: BookingEngineDetails;
  @Field(() => TravelerDetails) travelerDetails!: TravelerDetails;
  @Field(() => ProductReference) product!: ProductReference;
  @Field(() => Money, { description: "The price of the booking (extension)" }) totalPrice!: Money;
  @Field(() => ExchangeRates, { nullable: true, description: "The rates its prices were converted at when it was made; they stay (extension)" })
  exchangeRates?: ExchangeRates;
  @Field(() => Date, { nullable: true, description: "An ON_HOLD booking not confirmed by then expires (extension)" }) holdExpiresAt?: Date;
  @Field(() => Date, { nullable: true, description: "When the answers were erased for privacy; they must be given again before confirming (extension)" })
  answersRedactedAt?: Date;
  @Field(() => String, { nullable: true, description: "Why the supplier refused (REJECTED, extension)" }) rejectionReason?: string;
}

@ObjectType({ description: "What a cancellation did (spec 2, Cancel booking)" })
export class CancellationInformation {
  @Field(() => Cancellation) cancellation!: Cancellation;
  @Field(() => String) cancellationReason!: string;
  @Field(() => Date) cancellationRequestDateTime!: Date;
  @Field(() => Float, { description: "Share of the price to refund under the tier in force (extension)" }) refundPercentage!: number;
  @Field(() => Booking) booking!: Booking;
}

@ObjectType()
export class CancelBookingResult {
  @Field(() => CancellationInformation) cancellationInformation!: CancellationInformation;
}

@InputType()
export class CreateBookingInput {
  @Field(() => ID, { description: "The availability's global id" }) availabilityId!: string;
  @Field(() => String, { description: "Alphanumeric, at most 255: the client's booking identifier" }) resellerRef!: string;
  @Field(() => String, { nullable: true, description: "Alphanumeric, at most 255: ties the booking to a traveller" }) externalClientId?: string | null;
  @Field(() => String, { nullable: true, description: "When given, must be the flow's currency (9548 otherwise)" }) currencyCode?: string | null;
}

@InputType()
export class AnswerInput {
  @Field(() => String) id!: string;
  @Field(() => String, { nullable: true }) value!: string | null;
}

@ObjectType({ description: "A voucher PDF, for the signed voucher link" })
export class VoucherDocument {
  @Field(() => String) fileName!: string;
  @Field(() => String, { description: "The PDF, base64" }) pdfBase64!: string;
}
