import { Directive, Field, Int, ObjectType, registerEnumType } from "type-graphql";

/** Only the adapters that exist: a kind is added with the adapter that books through it (OCTO next). */
export enum BookingEngineKind {
  INVENTORY = "INVENTORY",
}
registerEnumType(BookingEngineKind, { name: "BookingEngineKind", description: "The adapter that books through the engine" });

@ObjectType({ description: "An upstream system products are booked through, named by the product's bookingEngine" })
@Directive('@key(fields: "id")')
export class BookingEngine {
  @Field(() => Int)
  id!: number;

  @Field(() => String, { description: "Upper-case identifier shown in catalogue responses" })
  name!: string;

  @Field(() => BookingEngineKind, { description: "Adapter that talks to it: INVENTORY (the built-in inventory engine)" })
  kind!: string;

}
