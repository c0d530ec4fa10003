import { Directive, Field, ObjectType } from "type-graphql";
import { minorUnitDigits } from "../../core/iso-codes.js";
import { CurrencyCodeScalar, DecimalScalar } from "./scalars.js";

@Directive("@shareable")
@ObjectType({ description: "An amount of money in a currency" })
export class Money {
  @Field(() => DecimalScalar, { description: 'The amount, exact, with the currency\'s decimals: "49.90", "5200" for JPY' }) amount!: string;
  @Field(() => CurrencyCodeScalar, { description: "The currency" }) currencyCode!: string;
}

/**
 * An amount the service holds as a number of the currency's major unit, already rounded to its
 * minor unit (prices are added up in cents), written with exactly the currency's decimals.
 */
export const moneyOf = (amount: number, currencyCode: string): Money => ({ amount: amount.toFixed(minorUnitDigits(currencyCode)), currencyCode });
