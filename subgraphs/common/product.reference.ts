import { Directive, Field, Int, ObjectType } from "type-graphql";

/**
 * The catalogue's Product as other subgraphs name it: by key only, for the gateway to resolve.
 * Bookings and booking reports refer to what was sold through it.
 */
@ObjectType("Product")
@Directive('@key(fields: "legacyResourceId", resolvable: false)')
export class ProductReference {
  @Field(() => Int) legacyResourceId!: number;
}
