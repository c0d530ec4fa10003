import { Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { BookingEngineKind } from "../../common/booking-engine.kind.js";
import { ProductReference } from "../../common/product.reference.js";
import { CurrencyCodeScalar, DecimalScalar } from "../../common/common.scalars.js";
import { Translation, TranslationInput } from "../../common/translation.type.js";
import { UserError } from "../../common/user.errors.js";
import { OptionDataType, UnitPriceType } from "../availability/availability.type.js";
import { QuestionDataFormat, QuestionDataType } from "../booking/booking.type.js";

/*
 * A product's booking setup for the built-in inventory (docs/booking-setup.md), as the graph types
 * it: the same document the partner writes, field for field, with money as Decimal and a refund as
 * a rate (docs/graph-design.md). The answer types and the input types mirror each other, so that
 * what is read back can be sent again.
 */

@ObjectType({ description: "A label or question text of a booking setup, as its partner gave it: one text for every language, or one per language" })
export class BookingSetupText {
  @Field(() => String, { nullable: true, description: "The one text, shown in every language; null when given per language" }) text!: string | null;
  @Field(() => [Translation], { nullable: true, description: "The text per language, by language code; null when one text is given for all" })
  translations!: Translation[] | null;
}

@InputType({ description: "A label or question text: `text` for every language, or `translations` per language (exactly one of the two)" })
export class BookingSetupTextInput {
  @Field(() => String, { nullable: true, description: "One text for every language (1 to 500 characters)" }) text?: string | null;
  @Field(() => [TranslationInput], { nullable: true, description: "The text per language (ISO 639-1), each language once and each text 1 to 500 characters" })
  translations?: TranslationInput[] | null;
}

@ObjectType({ description: "One choice of an OPTIONS option or question" })
export class BookingSetupChoice {
  @Field(() => String, { description: "Its key: what the flow sends as the value" }) key!: string;
  @Field(() => BookingSetupText, { description: "What the flow shows" }) label!: BookingSetupText;
}

@InputType({ description: "One choice of an OPTIONS option or question" })
export class BookingSetupChoiceInput {
  @Field(() => String, { description: "Its key (1 to 64 letters, digits, '_' or '-')" }) key!: string;
  @Field(() => BookingSetupTextInput, { description: "What the flow shows" }) label!: BookingSetupTextInput;
}

@ObjectType({ description: "Offered only once an earlier option has a given value: how a choice reveals what follows it" })
export class BookingSetupCondition {
  @Field(() => String, { description: "The option's key" }) option!: string;
  @Field(() => String, { description: "The value it must have: a choice's key, or true/false" }) equals!: string;
}

@InputType({ description: "Offered only once an earlier option has a given value" })
export class BookingSetupConditionInput {
  @Field(() => String, { description: "The option's key" }) option!: string;
  @Field(() => String, { description: "The value it must have: a choice's key, or true/false (1 to 64 characters)" }) equals!: string;
}

@ObjectType({ description: "An option the buyer sets, one level at a time, before choosing tickets" })
export class BookingSetupOption {
  @Field(() => String, { description: "Its key, unique in the setup" }) key!: string;
  @Field(() => BookingSetupText, { description: "What the flow shows" }) label!: BookingSetupText;
  @Field(() => OptionDataType, { description: "What kind of value it takes" }) dataType!: OptionDataType;
  @Field(() => [BookingSetupChoice], { nullable: true, description: "The choices of an OPTIONS option; null for the others" }) choices!: BookingSetupChoice[] | null;
  @Field(() => BookingSetupCondition, { nullable: true, description: "Offered only once an earlier option has this value; null: always" }) shownWhen!: BookingSetupCondition | null;
}

@InputType({ description: "An option the buyer sets before choosing tickets" })
export class BookingSetupOptionInput {
  @Field(() => String, { description: "Its key, unique in the setup (not starting with __)" }) key!: string;
  @Field(() => BookingSetupTextInput, { description: "What the flow shows" }) label!: BookingSetupTextInput;
  @Field(() => OptionDataType, { description: "What kind of value it takes" }) dataType!: OptionDataType;
  @Field(() => [BookingSetupChoiceInput], { nullable: true, description: "OPTIONS only, and required for them: 1 to 100 choices" }) choices?: BookingSetupChoiceInput[] | null;
  @Field(() => BookingSetupConditionInput, { nullable: true, description: "Offered only once an earlier option has this value" }) shownWhen?: BookingSetupConditionInput | null;
}

@ObjectType({ description: "A ticket type of the setup, priced in the setup's currency" })
export class BookingSetupUnit {
  @Field(() => String, { description: "Its key, unique in the setup" }) key!: string;
  @Field(() => BookingSetupText, { description: "What the flow shows" }) label!: BookingSetupText;
  @Field(() => BookingSetupText, { nullable: true, description: "More about it; null when none is given" }) description!: BookingSetupText | null;
  @Field(() => Int, { description: "The youngest age it admits" }) minAge!: number;
  @Field(() => Int, { nullable: true, description: "The oldest age it admits; null: no limit" }) maxAge!: number | null;
  @Field(() => UnitPriceType, { description: "What its price pays for" }) unitPriceType!: UnitPriceType;
  @Field(() => DecimalScalar, { description: "PER_PERSON: one ticket's price; GROUP: the whole group's" }) price!: string;
  @Field(() => Int, { description: "The least quantity, when any is chosen" }) minQuantity!: number;
  @Field(() => Int, { description: "The most" }) maxQuantity!: number;
  @Field(() => [String], { description: "Keys of the units whose participants must accompany this one's (adults for children)" }) accompaniedBy!: string[];
  @Field(() => Int, { nullable: true, description: "With accompaniedBy: at most this many per accompanying participant" }) maxPerCompanion!: number | null;
  @Field(() => Int, { nullable: true, description: "People one ticket admits (a family ticket for four); null: one" }) paxCount!: number | null;
  @Field(() => BookingSetupCondition, { nullable: true, description: "Offered only once this option has this choice (tickets priced per option); null: always" })
  shownWhen!: BookingSetupCondition | null;
}

@InputType({ description: "A ticket type of the setup" })
export class BookingSetupUnitInput {
  @Field(() => String, { description: "Its key, unique in the setup" }) key!: string;
  @Field(() => BookingSetupTextInput, { description: "What the flow shows" }) label!: BookingSetupTextInput;
  @Field(() => BookingSetupTextInput, { nullable: true, description: "More about it" }) description?: BookingSetupTextInput | null;
  @Field(() => Int, { description: "The youngest age it admits, 0 to 120" }) minAge!: number;
  @Field(() => Int, { nullable: true, description: "The oldest age it admits, at least minAge" }) maxAge?: number | null;
  @Field(() => UnitPriceType, { description: "What its price pays for" }) unitPriceType!: UnitPriceType;
  @Field(() => DecimalScalar, { description: "PER_PERSON: one ticket's price; GROUP: the whole group's; 0 to 1,000,000 in the setup's currency" }) price!: string;
  @Field(() => Int, { nullable: true, description: "The least quantity, when any is chosen (0 to 1000); 0 when not given" }) minQuantity?: number | null;
  @Field(() => Int, { description: "The most, 1 to 1000 and at least minQuantity" }) maxQuantity!: number;
  @Field(() => [String], { nullable: true, description: "Keys of other units whose participants must accompany this one's (at most 10)" }) accompaniedBy?: string[] | null;
  @Field(() => Int, { nullable: true, description: "With accompaniedBy: at most this many per accompanying participant (1 to 100)" }) maxPerCompanion?: number | null;
  @Field(() => Int, { nullable: true, description: "PER_PERSON only: the people one ticket admits (1 to 100); one when not given" }) paxCount?: number | null;
  @Field(() => BookingSetupConditionInput, { nullable: true, description: "Offered only once this option of the setup has this choice" }) shownWhen?: BookingSetupConditionInput | null;
}

@ObjectType({ description: "Asked only when the answer to an earlier question of the setup equals a value: a follow-up" })
export class BookingSetupQuestionCondition {
  @Field(() => String, { description: "The key of the question it follows" }) question!: string;
  @Field(() => String, { description: "The answer that brings it" }) equals!: string;
}

@ObjectType({ description: "A question the supplier asks: of the customer, of the booking, or of each participant" })
export class BookingSetupQuestion {
  @Field(() => String, { description: "Its key, unique in the setup" }) key!: string;
  @Field(() => BookingSetupText, { description: "The question as the flow shows it" }) question!: BookingSetupText;
  @Field(() => QuestionDataType, { description: "What kind of answer it takes" }) dataType!: QuestionDataType;
  @Field(() => QuestionDataFormat, { nullable: true, description: "How a TEXT answer is checked; null: not checked" }) dataFormat!: QuestionDataFormat | null;
  @Field(() => [BookingSetupChoice], { nullable: true, description: "The choices of an OPTIONS question; null for the others" }) choices!: BookingSetupChoice[] | null;
  @Field(() => BookingSetupQuestionCondition, { nullable: true, description: "For a follow-up, the question it follows and the answer that brings it; null for a question always asked" })
  followUpOf!: BookingSetupQuestionCondition | null;
}

@InputType({ description: "A question the supplier asks" })
export class BookingSetupQuestionInput {
  @Field(() => String, { description: "Its key, unique in the setup" }) key!: string;
  @Field(() => BookingSetupTextInput, { description: "The question as the flow shows it" }) question!: BookingSetupTextInput;
  @Field(() => QuestionDataType, { description: "What kind of answer it takes" }) dataType!: QuestionDataType;
  @Field(() => QuestionDataFormat, { nullable: true, description: "TEXT only: how the answer is checked" }) dataFormat?: QuestionDataFormat | null;
  @Field(() => [BookingSetupChoiceInput], { nullable: true, description: "OPTIONS only, and required for them: 1 to 100 choices" }) choices?: BookingSetupChoiceInput[] | null;
  @Field(() => [BookingSetupFollowUpInput], { nullable: true, description: "Questions asked only for some answers (at most 20 groups, nested at most 5 levels)" })
  followUps?: BookingSetupFollowUpInput[] | null;
}

@InputType({ description: "Questions asked when the answer to the question above them equals a value" })
export class BookingSetupFollowUpInput {
  @Field(() => String, { description: "The answer that brings them (1 to 255 characters)" }) equals!: string;
  @Field(() => [BookingSetupQuestionInput], { description: "1 to 20 questions" }) questions!: BookingSetupQuestionInput[];
}

@ObjectType({
  description:
    "The setup's questions, by whom they are asked of. Each list holds follow-ups too, each right after the question it follows (depth first, in the order given), so that a client reads the tree without nesting selections",
})
export class BookingSetupQuestions {
  @Field(() => [BookingSetupQuestion], { description: "Asked once, of the customer" }) customer!: BookingSetupQuestion[];
  @Field(() => [BookingSetupQuestion], { description: "Asked once, of the booking" }) booking!: BookingSetupQuestion[];
  @Field(() => [BookingSetupQuestion], { description: "Asked of each participant" }) participant!: BookingSetupQuestion[];
}

@InputType({ description: "The setup's questions, by whom they are asked of (at most 30 each)" })
export class BookingSetupQuestionsInput {
  @Field(() => [BookingSetupQuestionInput], { nullable: true, description: "Asked once, of the customer" }) customer?: BookingSetupQuestionInput[] | null;
  @Field(() => [BookingSetupQuestionInput], { nullable: true, description: "Asked once, of the booking" }) booking?: BookingSetupQuestionInput[] | null;
  @Field(() => [BookingSetupQuestionInput], { nullable: true, description: "Asked of each participant" }) participant?: BookingSetupQuestionInput[] | null;
}

@ObjectType({ description: "A share of the price refunded on cancellation until some time before the start" })
export class BookingSetupCancellationTier {
  @Field(() => BookingSetupText, { description: "What the flow shows" }) label!: BookingSetupText;
  @Field(() => String, { nullable: true, description: "ISO 8601 duration before the start until which it applies (P2D, PT12H); null: until the start" }) duration!: string | null;
  @Field(() => DecimalScalar, { description: 'The share refunded, 0 to 1: "0.5" is half' }) refundRate!: string;
}

@InputType({ description: "A share of the price refunded on cancellation" })
export class BookingSetupCancellationTierInput {
  @Field(() => BookingSetupTextInput, { description: "What the flow shows" }) label!: BookingSetupTextInput;
  @Field(() => String, { nullable: true, description: "ISO 8601 duration of days, hours and minutes before the start until which it applies (P2D, PT12H); until the start when not given" })
  duration?: string | null;
  @Field(() => DecimalScalar, { description: 'The share refunded, 0 to 1: "0.5" is half' }) refundRate!: string;
}

@ObjectType({ description: "What the built-in inventory sells of a product: start times, places, options, tickets, questions and cancellation terms (docs/booking-setup.md)" })
export class BookingSetup {
  @Field(() => String, { description: "The IANA time zone of the local times (Europe/Zurich)" }) timeZone!: string;
  @Field(() => [String], { nullable: true, description: "HH:MM starts on open days; null: one slot when the day opens" }) startTimes!: string[] | null;
  @Field(() => Int, { description: "Places per start" }) capacityPerSlot!: number;
  @Field(() => Int, { description: "The smallest party" }) minParticipants!: number;
  @Field(() => Int, { description: "The largest party" }) maxParticipants!: number;
  @Field(() => CurrencyCodeScalar, { description: "The currency of the prices below" }) currency!: string;
  @Field(() => DecimalScalar, { description: "Added once to every booking's total" }) fixedFee!: string;
  @Field(() => [BookingSetupOption], { description: "Options set before tickets, in order" }) options!: BookingSetupOption[];
  @Field(() => [BookingSetupUnit], { description: "The ticket types" }) units!: BookingSetupUnit[];
  @Field(() => BookingSetupQuestions, { description: "What the supplier asks" }) questions!: BookingSetupQuestions;
  @Field(() => [BookingSetupCancellationTier], { description: "Refunds on cancellation; none: not cancellable once confirmed" }) cancellationTiers!: BookingSetupCancellationTier[];
  @Field(() => [String], { nullable: true, description: "Keys of the customer TEXT questions whose answers, joined by a space, name the lead traveller on the voucher; null: no one" })
  leadTravellerName!: string[] | null;
  @Field(() => Int, { description: "Seconds the simulated supplier takes to confirm" }) confirmationDelaySeconds!: number;
  @Field(() => Int, { description: "How many days ahead starts are sold" }) bookingHorizonDays!: number;
}

@InputType({ description: "A booking setup: replaces the product's whole setup (docs/booking-setup.md gives every rule)" })
export class BookingSetupInput {
  @Field(() => String, { description: "The IANA time zone of the local times (Europe/Zurich)" }) timeZone!: string;
  @Field(() => [String], { nullable: true, description: "HH:MM starts on open days (at most 48); one slot when the day opens when not given" }) startTimes?: string[] | null;
  @Field(() => Int, { description: "Places per start, 1 to 100,000" }) capacityPerSlot!: number;
  @Field(() => Int, { nullable: true, description: "The smallest party, 1 to 1000; 1 when not given" }) minParticipants?: number | null;
  @Field(() => Int, { description: "The largest party, 1 to 1000 and at least minParticipants" }) maxParticipants!: number;
  @Field(() => CurrencyCodeScalar, { description: "The currency of the prices: one the service has an exchange rate for" }) currency!: string;
  @Field(() => DecimalScalar, { nullable: true, description: "Added once to every booking's total; 0 when not given" }) fixedFee?: string | null;
  @Field(() => [BookingSetupOptionInput], { nullable: true, description: "Options set before tickets, in order (at most 20)" }) options?: BookingSetupOptionInput[] | null;
  @Field(() => [BookingSetupUnitInput], { description: "The ticket types, 1 to 20" }) units!: BookingSetupUnitInput[];
  @Field(() => BookingSetupQuestionsInput, { nullable: true, description: "What the supplier asks; nothing when not given" }) questions?: BookingSetupQuestionsInput | null;
  @Field(() => [BookingSetupCancellationTierInput], { nullable: true, description: "Refunds on cancellation (at most 10); none: not cancellable once confirmed" })
  cancellationTiers?: BookingSetupCancellationTierInput[] | null;
  @Field(() => [String], { nullable: true, description: "1 to 5 keys of top-level customer TEXT questions that name the lead traveller on the voucher" }) leadTravellerName?: string[] | null;
  @Field(() => Int, { nullable: true, description: "Seconds the simulated supplier takes to confirm, 0 to 600; 2 when not given" }) confirmationDelaySeconds?: number | null;
  @Field(() => Int, { nullable: true, description: "How many days ahead starts are sold, 1 to 730; 365 when not given" }) bookingHorizonDays?: number | null;
}

@ObjectType({ description: "A product as its booking setup is managed: which engine sells it, and the setup it has" })
export class ProductBookingSetup {
  @Field(() => ProductReference, { description: "The product" }) product!: ProductReference;
  @Field(() => BookingEngineKind, { description: "INVENTORY: sold through the setup given here; OCTO: sold by its supplier's own system, which takes no setup" })
  bookingEngineKind!: BookingEngineKind;
  @Field(() => BookingSetup, { nullable: true, description: "The setup; null while the product has none" }) setup!: BookingSetup | null;
}

@InputType({ description: "A product's new booking setup" })
export class SetProductBookingSetupInput {
  @Field(() => ID, { description: "The product's global id" }) productId!: string;
  @Field(() => ID, { nullable: true, description: "The product's supplier, as a precondition: another supplier's product is NOT_FOUND" }) supplierId?: string | null;
  @Field(() => BookingSetupInput, { description: "The setup, replacing any earlier one; bookings already made keep theirs" }) setup!: BookingSetupInput;
}

@ObjectType({ description: "The result of setProductBookingSetup" })
export class SetProductBookingSetupPayload {
  @Field(() => ProductBookingSetup, { nullable: true, description: "The product with its setup as kept, defaults filled in; null when refused" }) productBookingSetup?: ProductBookingSetup | null;
  @Field(() => [UserError], { description: "Why the setup was refused: INVALID_SETUP for each field at fault, SETUP_NOT_FOR_ENGINE, NOT_FOUND; empty on success" }) userErrors!: UserError[];
}

@InputType({ description: "The product to take out of the booking flow" })
export class RemoveProductBookingSetupInput {
  @Field(() => ID, { description: "The product's global id" }) productId!: string;
  @Field(() => ID, { nullable: true, description: "The product's supplier, as a precondition: another supplier's product is NOT_FOUND" }) supplierId?: string | null;
}

@ObjectType({ description: "The result of removeProductBookingSetup" })
export class RemoveProductBookingSetupPayload {
  @Field(() => ProductBookingSetup, { nullable: true, description: "The product, now without a setup; null when refused" }) productBookingSetup?: ProductBookingSetup | null;
  @Field(() => [UserError], { description: "NOT_FOUND for an unknown product or one without a setup; empty on success" }) userErrors!: UserError[];
}
