import { Directive, Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { ExchangeRates } from "../../common/exchange-rates.type.js";
import { Money } from "../../common/money.type.js";
import { CurrencyCodeScalar, DateScalar, DateTimeScalar, UuidScalar } from "../../common/common.scalars.js";
import { UserError } from "../../common/user.errors.js";

export enum OptionDataType {
  OPTIONS = "OPTIONS",
  TEXT = "TEXT",
  BOOLEAN = "BOOLEAN",
}
registerEnumType(OptionDataType, {
  name: "OptionDataType",
  description: "What kind of value an option or a question takes",
  valuesConfig: {
    OPTIONS: { description: "One of its choices, by key" },
    TEXT: { description: "Free text" },
    BOOLEAN: { description: "true or false" },
  },
});

export enum UnitPriceType {
  PER_PERSON = "PER_PERSON",
  GROUP = "GROUP",
}
registerEnumType(UnitPriceType, {
  name: "UnitPriceType",
  description: "What one unit's price pays for",
  valuesConfig: { PER_PERSON: { description: "One ticket, for one person (with its share of a fixed fee)" }, GROUP: { description: "The whole group, whatever its size" } },
});

@Directive("@shareable")
@ObjectType({ description: "One choice of an option or a question" })
export class Choice {
  @Field(() => String, { description: "What to send as the value" }) key!: string;
  @Field(() => String, { description: "What to show, in the flow's language" }) label!: string;
}

@ObjectType({ description: "One option level of an availability: the client sets each in turn" })
export class AvailabilityOption {
  @Field(() => ID, { description: "The option's id, to set it with setAvailabilityOption" }) id!: string;
  @Field(() => String, { description: "What to show, in the flow's language" }) label!: string;
  @Field(() => Int, { description: "Its place in the order options are set: 0 is the first" }) level!: number;
  @Field(() => OptionDataType, { description: "What kind of value it takes" }) dataType!: OptionDataType;
  @Field(() => [Choice], { nullable: true, description: "The choices of an OPTIONS option; null for the others" }) choices!: Choice[] | null;
  @Field(() => String, { nullable: true, description: "The value set: a choice's key, the text, or true/false; null until set" }) selectedValue!: string | null;
  @Field(() => String, { nullable: true, description: "The chosen choice's label, or the value set; null until set" }) selectedLabel!: string | null;
}

@ObjectType({ description: "How many of a unit may be chosen" })
export class UnitRestrictions {
  @Field(() => Int, { description: "The least quantity, when any is chosen" }) minQuantity!: number;
  @Field(() => Int, { description: "The most" }) maxQuantity!: number;
  @Field(() => [ID], { description: "The units whose participants must accompany this one's" }) accompaniedBy!: string[];
}

@ObjectType({ description: "A ticket type of an availability, priced in the flow's currency" })
export class UnitOption {
  @Field(() => ID, { description: "The unit's id, to choose a quantity of it" }) id!: string;
  @Field(() => String, { description: "What to show, in the flow's language" }) label!: string;
  @Field(() => String, { nullable: true, description: "More about it, in the flow's language" }) description!: string | null;
  @Field(() => UnitRestrictions, { description: "How many may be chosen" }) restrictions!: UnitRestrictions;
  @Field(() => Money, { description: "PER_PERSON: one ticket (with its share of a fixed fee); GROUP: the whole group" }) price!: Money;
  @Field(() => Int, { description: "The quantity chosen so far" }) quantity!: number;
  @Field(() => Int, { description: "The youngest age it admits" }) minAge!: number;
  @Field(() => Int, { nullable: true, description: "The oldest age it admits; null for no limit" }) maxAge!: number | null;
  @Field(() => UnitPriceType, { description: "What its price pays for" }) priceType!: UnitPriceType;
}

@ObjectType({ description: "Why the quantities chosen are not bookable yet" })
export class PricingIssue {
  @Field(() => ID, { nullable: true, description: "The unit it is about; null when it is about the whole choice" }) unitId!: string | null;
  @Field(() => String, { description: "The rule not met, stable for programs (minQuantity, accompaniedBy, minParticipants…)" }) rule!: string;
  @Field(() => String, { description: "What to change, in English" }) message!: string;
}

@Directive('@key(fields: "id")')
@ObjectType({ description: "A date of a product being booked: its options, then its tickets, then a booking is made from it (step 2 and 3 of the flow)" })
export class Availability {
  @Field(() => ID, { description: "The global id" }) id!: string;
  @Field(() => UuidScalar, { description: "The availability's id on the REST paths" }) legacyResourceId!: string;
  @Field(() => DateScalar, { description: "The date booked" }) date!: string;
  @Field(() => [AvailabilityOption], { description: "The options set so far and the next one to set" }) options!: AvailabilityOption[];
  @Field(() => [UnitOption], { nullable: true, description: "The ticket types; null until priceAvailability chose a currency" }) units!: UnitOption[] | null;
  @Field(() => Int, { description: "The fewest participants one booking takes" }) minParticipants!: number;
  @Field(() => Int, { description: "The most participants one booking takes" }) maxParticipants!: number;
  @Field(() => Boolean, { description: "Every option is set" }) isOptionStepCompleted!: boolean;
  @Field(() => Boolean, { description: "The quantities chosen can be booked" }) isPricingStepCompleted!: boolean;
  @Field(() => Money, { nullable: true, description: "The exact total of the quantities chosen: what the booking costs; null until priced" }) totalPrice!: Money | null;
  @Field(() => ExchangeRates, { nullable: true, description: "The rates the prices are converted at; null until priced" }) exchangeRates!: ExchangeRates | null;
  @Field(() => Int, { nullable: true, description: "The participants the quantities chosen admit; null until priced" }) participantCount!: number | null;
  @Field(() => [PricingIssue], { nullable: true, description: "Why isPricingStepCompleted is false; null until priced" }) pricingIssues!: PricingIssue[] | null;
  @Field(() => DateTimeScalar, { description: "After this the availability is refused (AVAILABILITY_EXPIRED): start again with a new one" }) expiresAt!: Date;
}

@InputType({ description: "The product and date to book" })
export class CreateAvailabilityInput {
  @Field(() => ID, { description: "The product's global id" }) productId!: string;
  @Field(() => DateScalar, { description: "The day, in the product's time zone" }) date!: string;
}

@InputType({ description: "One option's value" })
export class SetAvailabilityOptionInput {
  @Field(() => ID, { description: "The availability's global id" }) availabilityId!: string;
  @Field(() => ID, { nullable: true, description: "The product's global id: when given, the availability must be of this product (NOT_FOUND otherwise): REST's paths name both" }) productId?: string | null;
  @Field(() => ID, { description: "An option the availability has offered (the next one, or one already set)" }) optionId!: string;
  @Field(() => String, { description: "A choice's key (OPTIONS), the text (TEXT) or true/false (BOOLEAN)" }) value!: string;
}

@InputType({ description: "The currency the availability is priced in" })
export class PriceAvailabilityInput {
  @Field(() => ID, { description: "The availability's global id" }) availabilityId!: string;
  @Field(() => ID, { nullable: true, description: "The product's global id: when given, the availability must be of this product (NOT_FOUND otherwise)" }) productId?: string | null;
  @Field(() => CurrencyCodeScalar, { nullable: true, description: "One of the accepted currencies (UNSUPPORTED_CURRENCY otherwise); EUR when not given. It holds to the end of the flow" })
  currencyCode?: string | null;
}

@InputType({ description: "The quantity of one unit" })
export class UnitQuantityInput {
  @Field(() => ID, { description: "The unit's id" }) unitId!: string;
  @Field(() => Int, { description: "Its new quantity (absolute, not a change)" }) quantity!: number;
}

@InputType({ description: "New quantities of some of the availability's units" })
export class SetAvailabilityQuantitiesInput {
  @Field(() => ID, { description: "The availability's global id" }) availabilityId!: string;
  @Field(() => ID, { nullable: true, description: "The product's global id: when given, the availability must be of this product (NOT_FOUND otherwise)" }) productId?: string | null;
  @Field(() => CurrencyCodeScalar, { nullable: true, description: "When given, must be the flow's currency (CURRENCY_CHANGE otherwise)" }) currencyCode?: string | null;
  @Field(() => [UnitQuantityInput], { description: "The units whose quantity changes; the others keep theirs" }) quantities!: UnitQuantityInput[];
}

@ObjectType({ description: "The result of createAvailability" })
export class CreateAvailabilityPayload {
  @Field(() => Availability, { nullable: true, description: "The new availability with its first option level; null when refused" }) availability?: Availability | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of setAvailabilityOption" })
export class SetAvailabilityOptionPayload {
  @Field(() => Availability, { nullable: true, description: "The availability with the option set and the next level, if any; null when refused" }) availability?: Availability | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of priceAvailability" })
export class PriceAvailabilityPayload {
  @Field(() => Availability, { nullable: true, description: "The availability with its ticket types; null when refused" }) availability?: Availability | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of setAvailabilityQuantities" })
export class SetAvailabilityQuantitiesPayload {
  @Field(() => Availability, { nullable: true, description: "The availability with the quantities, limits and prices; null when refused" }) availability?: Availability | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}
