import { Directive, Field, Int, ObjectType } from "type-graphql";

@ObjectType({ description: "An upstream system products are booked through, named by the product's bookingEngine" })
@Directive('@key(fields: "id")')
export class BookingEngine {
  @Field(() => Int)
  id!: number;

  @Field(() => String, { description: "Upper-case identifier shown in catalogue responses" })
  name!: string;

  @Field(() => String, { description: "Adapter that talks to it: INVENTORY (built in) or OCTO" })
  kind!: string;
}
