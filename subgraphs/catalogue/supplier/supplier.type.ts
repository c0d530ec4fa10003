import { Directive, Field, Float, InputType, Int, ObjectType } from "type-graphql";
import { BookingEngine } from "../booking-engine/booking-engine.type.js";

@ObjectType()
export class SupplierContact {
  @Field(() => String, { nullable: true }) website!: string | null;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => String, { nullable: true }) telephone!: string | null;
  @Field(() => String, { nullable: true }) address!: string | null;
}

@ObjectType()
export class GeoLocation {
  @Field(() => Float, { nullable: true }) latitude!: number | null;
  @Field(() => Float, { nullable: true }) longitude!: number | null;
  @Field(() => String, { nullable: true }) geoHash!: string | null;
}

@ObjectType({ description: "A company whose activities are in the catalogue" })
@Directive('@key(fields: "id")')
export class Supplier {
  @Field(() => Int) id!: number;
  @Field(() => String) externalId!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) channel!: string | null;
  @Field(() => String, { nullable: true }) endpoint!: string | null;
  @Field(() => String, { nullable: true }) logo!: string | null;
  @Field(() => String, { description: "ISO 3166-1 alpha-2" }) country!: string;
  @Field(() => BookingEngine) bookingEngine!: BookingEngine;
  @Field(() => SupplierContact, { nullable: true }) supplierContact!: SupplierContact | null;
  @Field(() => GeoLocation, { nullable: true }) geoLocation!: GeoLocation | null;
  @Field(() => Date) creationDate!: Date;
  @Field(() => Date) updateDate!: Date;
  // onlineBookable and products are resolved by field resolvers.
}

@ObjectType()
export class SupplierPage {
  @Field(() => Int) pageNumber!: number;
  @Field(() => Int) resultsPerPage!: number;
  @Field(() => Int) totalResults!: number;
  @Field(() => [Supplier]) items!: Supplier[];
}

@ObjectType()
export class DeletedSupplier {
  @Field(() => Int) id!: number;
  @Field(() => Int, { description: "Products that left the catalogue with it" }) deletedProducts!: number;
}

@InputType()
export class SupplierContactInput {
  @Field(() => String, { nullable: true }) website?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) telephone?: string | null;
  @Field(() => String, { nullable: true }) address?: string | null;
}

@InputType()
export class GeoLocationInput {
  @Field(() => Float, { nullable: true }) latitude?: number | null;
  @Field(() => Float, { nullable: true }) longitude?: number | null;
  @Field(() => String, { nullable: true }) geoHash?: string | null;
}

@InputType({ description: "Supplier request fields (spec 1); bookingEngine is the engine id" })
export class SupplierInput {
  @Field(() => String) externalId!: string;
  @Field(() => String) country!: string;
  @Field(() => Int, { nullable: true, description: "Required for PLATFORM_CATALOG_MANAGEMENT callers; a content partner's own engine otherwise" })
  bookingEngine?: number | null;
  @Field(() => String, { nullable: true }) channel?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) endpoint?: string | null;
  @Field(() => String, { nullable: true }) logo?: string | null;
  @Field(() => SupplierContactInput, { nullable: true }) supplierContact?: SupplierContactInput | null;
  @Field(() => GeoLocationInput, { nullable: true }) geoLocation?: GeoLocationInput | null;
}
