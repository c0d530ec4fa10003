import { Directive, Field, ObjectType } from "type-graphql";
import { DateScalar } from "./common.scalars.js";

/** Shareable: the booking flow's prices and the catalogue's recommendations both say which rates they used. */
@ObjectType({ description: "The exchange rates prices were converted at (extension): their day and where they came from" })
@Directive("@shareable")
export class ExchangeRates {
  @Field(() => DateScalar, { description: "The day the rates were fixed (the older of the pair's)" }) date!: string;
  @Field(() => String, { description: "For example 'ECB reference rates (…)' or 'bundled reference rates'" }) source!: string;
}
