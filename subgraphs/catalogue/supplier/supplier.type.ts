import { Directive, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { serialKeyOfGlobalId, toGlobalId } from "../../../core/global-id.js";
import { ConnectionOf, EdgeOf, OrderDirection } from "../../common/relay/relay.connection.js";
import { CountryCodeScalar, DateTimeScalar, EmailAddressScalar, PhoneNumberScalar, UrlScalar } from "../../common/common.scalars.js";
import { UserError } from "../../common/user.errors.js";
import { BookingEngine } from "../booking-engine/booking-engine.type.js";

@ObjectType({ description: "How a supplier is reached; each part as the content partner gave it" })
export class SupplierContact {
  @Field(() => UrlScalar, { nullable: true, description: "Its website" }) website!: string | null;
  @Field(() => EmailAddressScalar, { nullable: true, description: "Its e-mail address" }) email!: string | null;
  @Field(() => PhoneNumberScalar, { nullable: true, description: "Its telephone number" }) telephone!: string | null;
  @Field(() => String, { nullable: true, description: "Its postal address, on one line" }) address!: string | null;
}

@ObjectType({ description: "Where a supplier is" })
export class GeoLocation {
  @Field(() => Float, { nullable: true, description: "Degrees north (negative: south), -90 to 90" }) latitude!: number | null;
  @Field(() => Float, { nullable: true, description: "Degrees east (negative: west), -180 to 180" }) longitude!: number | null;
  @Field(() => String, { nullable: true, description: "The geohash of the coordinates (9 characters when the service computed it)" }) geoHash!: string | null;
}

@ObjectType({ description: "A company whose activities are in the catalogue, loaded by the content partners of its booking engine" })
@Directive('@key(fields: "id")')
export class Supplier {
  @Field(() => ID, { description: "The global id" })
  id!: string;

  @Field(() => Int, { description: "The supplier's number on the REST paths (/api/supplier/{supplierId})" })
  legacyResourceId!: number;

  @Field(() => String, { description: "The content partner's own identifier of the supplier, unique in its booking engine" })
  externalId!: string;

  @Field(() => String, { nullable: true, description: "Its name" })
  name!: string | null;

  @Field(() => String, { nullable: true, description: "The channel its content was uploaded through" })
  channel!: string | null;

  @Field(() => String, { nullable: true, description: "The supplier's own endpoint, as the content partner gave it" })
  endpoint!: string | null;

  @Field(() => String, { nullable: true, description: "Its logo, as the content partner gave it" })
  logo!: string | null;

  @Field(() => CountryCodeScalar, { description: "The country it is in" })
  countryCode!: string;

  @Field(() => BookingEngine, { description: "The booking engine its products are booked through" })
  bookingEngine!: BookingEngine;

  @Field(() => SupplierContact, { nullable: true, description: "How it is reached; null when no part was given" })
  contact!: SupplierContact | null;

  @Field(() => GeoLocation, { nullable: true, description: "Where it is; null when not given" })
  geoLocation!: GeoLocation | null;

  @Field(() => DateTimeScalar, { description: "When it was created" })
  createdAt!: Date;

  @Field(() => DateTimeScalar, { description: "When it last changed" })
  updatedAt!: Date;
  // countryName, isOnlineBookable and products are resolved by field resolvers.
}

/** A supplier as its readers name it: both ids. */
export const supplierId = (legacyResourceId: number): string => toGlobalId("Supplier", legacyResourceId);

/** The number a supplier's global id names, or null. */
export const supplierKey = (id: string): number | null => serialKeyOfGlobalId(id, "Supplier");

@ObjectType({ description: "A supplier with its place in the list" })
export class SupplierEdge extends EdgeOf(Supplier) {}

@ObjectType({ description: "Suppliers of a booking engine, in the order asked for" })
export class SupplierConnection extends ConnectionOf(Supplier, SupplierEdge) {}

export enum SupplierOrderField {
  ID = "ID",
}
registerEnumType(SupplierOrderField, {
  name: "SupplierOrderField",
  description: "What suppliers can be ordered by",
  valuesConfig: { ID: { description: "Their number (legacyResourceId), which follows the order they were added in" } },
});

@InputType({ description: "An order of suppliers" })
export class SupplierOrder {
  @Field(() => SupplierOrderField, { description: "What to order by" }) field!: SupplierOrderField;
  @Field(() => OrderDirection, { description: "Which way" }) direction!: OrderDirection;
}

@InputType({ description: "How a supplier is reached (spec 1's supplierContact)" })
export class SupplierContactInput {
  @Field(() => String, { nullable: true, description: "Its website: an absolute http or https URL, at most 512 characters" }) website?: string | null;
  @Field(() => String, { nullable: true, description: "Its e-mail address, at most 255 characters" }) email?: string | null;
  @Field(() => String, { nullable: true, description: "Its telephone number: an optional leading +, 5 to 15 digits grouped by spaces, hyphens, dots, slashes or parentheses, an optional extension; at most 255 characters" }) telephone?: string | null;
  @Field(() => String, { nullable: true, description: "Its postal address, at most 255 characters" }) address?: string | null;
}

@InputType({ description: "Where a supplier is" })
export class GeoLocationInput {
  @Field(() => Float, { nullable: true, description: "-90 to 90" }) latitude?: number | null;
  @Field(() => Float, { nullable: true, description: "-180 to 180" }) longitude?: number | null;
  @Field(() => String, { nullable: true, description: "Computed from the coordinates when not given" }) geoHash?: string | null;
}

/** The fields a supplier is created with, and replaced with by an update. */
@InputType()
abstract class SupplierFields {
  @Field(() => String, { description: "The content partner's own identifier of the supplier (at most 255 characters), unique in the booking engine" })
  externalId!: string;

  @Field(() => CountryCodeScalar, { description: "The country it is in" })
  countryCode!: string;

  @Field(() => ID, { nullable: true, description: "The booking engine's global id: required for PLATFORM_CATALOG_MANAGEMENT callers; a content partner's own engine otherwise" })
  bookingEngineId?: string | null;

  @Field(() => String, { nullable: true, description: "The channel its content is uploaded through (at most 32 characters)" })
  channel?: string | null;

  @Field(() => String, { nullable: true, description: "Its name (at most 255 characters)" })
  name?: string | null;

  @Field(() => String, { nullable: true, description: "The supplier's own endpoint (at most 255 characters)" })
  endpoint?: string | null;

  @Field(() => String, { nullable: true, description: "Its logo (at most 255 characters)" })
  logo?: string | null;

  @Field(() => SupplierContactInput, { nullable: true, description: "How it is reached" })
  contact?: SupplierContactInput | null;

  @Field(() => GeoLocationInput, { nullable: true, description: "Where it is" })
  geoLocation?: GeoLocationInput | null;
}

@InputType({ description: "A new supplier" })
export class CreateSupplierInput extends SupplierFields {}

@InputType({ description: "A supplier's new fields: every field is replaced, and one not given becomes unset" })
export class UpdateSupplierInput extends SupplierFields {
  @Field(() => ID, { description: "The supplier's global id" })
  supplierId!: string;
}

@InputType({ description: "The supplier to delete" })
export class DeleteSupplierInput {
  @Field(() => ID, { description: "The supplier's global id" })
  supplierId!: string;
}

@ObjectType({ description: "The result of createSupplier" })
export class CreateSupplierPayload {
  @Field(() => Supplier, { nullable: true, description: "The supplier as created; null when refused" }) supplier?: Supplier | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of updateSupplier" })
export class UpdateSupplierPayload {
  @Field(() => Supplier, { nullable: true, description: "The supplier as it is now; null when refused" }) supplier?: Supplier | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of deleteSupplier" })
export class DeleteSupplierPayload {
  @Field(() => ID, { nullable: true, description: "The deleted supplier's global id; null when refused" }) deletedSupplierId?: string | null;
  @Field(() => Int, { nullable: true, description: "How many of its products left the catalogue with it; null when refused" }) deletedProductCount?: number | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}
