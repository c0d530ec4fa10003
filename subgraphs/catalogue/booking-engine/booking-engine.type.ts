import { Directive, Field, Int, ObjectType, registerEnumType } from "type-graphql";

/** Only the adapters that exist: a kind is added with the adapter that books through it (OCTO next). */
export enum BookingEngineKind {
  INVENTORY = "INVENTORY",
}
registerEnumType(BookingEngineKind, { name: "BookingEngineKind", description: "The adapter that books through the engine" });

/**
 * Products, suppliers and organisations hold an engine by id; its name and kind are read (batched)
 * when asked for, so every holder answers with the same fields.
 */
@ObjectType({ description: "An upstream system products are booked through, named by the product's bookingEngine" })
@Directive('@key(fields: "id")')
export class BookingEngine {
  @Field(() => Int)
  id!: number;
}
