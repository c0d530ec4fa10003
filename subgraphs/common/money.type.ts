import { Directive, Field, ObjectType } from "type-graphql";
import { decimalOf } from "../../core/decimal.js";
import { minorUnitDigits } from "../../core/iso-codes.js";
import { CurrencyCodeScalar, DecimalScalar } from "./common.scalars.js";

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

/**
 * An amount a partner stated (a product's prices and commission), as Money: exact, never rounded,
 * with at least the currency's decimals ("22.00", "12.345"); null without an amount or a currency.
 */
export function statedMoney(amount: number | null, currencyCode: string | null): Money | null {
  if (amount === null || currencyCode === null) return null;
  const written = decimalOf(amount);
  const decimals = written.split(".")[1]?.length ?? 0;
  const digits = minorUnitDigits(currencyCode);
  return { amount: decimals >= digits ? written : amount.toFixed(digits), currencyCode };
}
