import { Field, Float, InputType, Int, ObjectType } from "type-graphql";
import { ExchangeRates } from "../../common/exchange-rates.type.js";
import { JSONObjectScalar } from "../../common/json-scalars.js";

@ObjectType({ description: "One option level of an availability (spec 2, Option)" })
export class AvailabilityOption {
  @Field(() => String) id!: string;
  @Field(() => String) label!: string;
  @Field(() => String, { description: "'0' is the first level" }) level!: string;
  @Field(() => String, { description: "OPTIONS, TEXT or BOOLEAN" }) dataType!: string;
  @Field(() => JSONObjectScalar, { nullable: true, description: "Choice key to label (OPTIONS)" }) optionChoices?: Record<string, string>;
  @Field(() => String, { nullable: true, description: "The chosen choice key, text or boolean; absent until set" }) selectedOptionId?: string;
  @Field(() => String, { nullable: true, description: "The chosen choice's label, or the value given" }) selectedOptionValue?: string;
}

@ObjectType()
export class Money {
  @Field(() => Float) retail!: number;
  @Field(() => String) currency!: string;
}

@ObjectType()
export class UnitRestrictions {
  @Field(() => Int) minQuantity!: number;
  @Field(() => Int) maxQuantity!: number;
  @Field(() => [String], { description: "Ids of the unit options whose participants must accompany this one (spelled as in the contract)" })
  accompagniedBy!: string[];
}

@ObjectType({ description: "A ticket type (spec 2, Unit option)" })
export class UnitOption {
  @Field(() => String) id!: string;
  @Field(() => String) label!: string;
  @Field(() => String, { nullable: true }) description?: string;
  @Field(() => UnitRestrictions) restrictions!: UnitRestrictions;
  @Field(() => Money, { description: "PER_PERSON: one ticket (with its share of a fixed fee); GROUP: the whole group" }) price!: Money;
  @Field(() => Int) unitQuantity!: number;
  @Field(() => Int) minAge!: number;
  @Field(() => Int, { nullable: true }) maxAge?: number;
  @Field(() => String, { description: "PER_PERSON or GROUP" }) unitPriceType!: string;
}

@ObjectType({ description: "Why the chosen quantities are not bookable yet" })
export class PricingIssue {
  @Field(() => String, { nullable: true }) unitId?: string;
  @Field(() => String) rule!: string;
  @Field(() => String) message!: string;
}

@ObjectType({ description: "An availability: date, options and quantities a booking is made from (spec 2)" })
export class Availability {
  @Field(() => String) id!: string;
  @Field(() => String, { description: "YYYY-MM-DD" }) availabilityDate!: string;
  @Field(() => [AvailabilityOption]) availabilityOptions!: AvailabilityOption[];
  @Field(() => [UnitOption], { nullable: true, description: "Present from the prices step" }) unitOptions?: UnitOption[];
  @Field(() => Int) maxParticipants!: number;
  @Field(() => Int) minParticipants!: number;
  @Field(() => Boolean) isOptionStepCompleted!: boolean;
  @Field(() => Boolean) isPricingStepCompleted!: boolean;
  @Field(() => Money, { nullable: true, description: "The exact total of the chosen quantities (extension): what the booking costs" }) totalPrice?: Money;
  @Field(() => ExchangeRates, { nullable: true, description: "The rates the prices are converted at, from the prices step (extension)" }) exchangeRates?: ExchangeRates;
  @Field(() => Int, { nullable: true, description: "Participants chosen so far (extension)" }) participants?: number;
  @Field(() => [PricingIssue], { nullable: true, description: "Why isPricingStepCompleted is false (extension)" }) pricingIssues?: PricingIssue[];
  @Field(() => Date, { description: "After this the availability is refused: start again with a new one (extension)" }) expiresAt!: Date;
}

@ObjectType()
export class AvailabilityDates {
  @Field(() => [String], { description: "YYYY-MM-DD, ascending" }) availabilityDates!: string[];
}

@InputType()
export class UnitQuantityInput {
  @Field(() => String) unitId!: string;
  @Field(() => Int, { description: "The unit's new quantity (absolute, not a change)" }) value!: number;
}
