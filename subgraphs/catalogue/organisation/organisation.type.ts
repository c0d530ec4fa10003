import { Directive, Field, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { roles } from "../../../core/roles.js";
import { BookingEngine } from "../booking-engine/booking-engine.type.js";

export enum CommercialModel {
  AGENT = "AGENT",
  RESELLER = "RESELLER",
}
registerEnumType(CommercialModel, {
  name: "CommercialModel",
  description: "How the organisation earns: an agent takes a commission, a reseller buys at net price",
});

export enum Role {
  PLATFORM_CATALOG_MANAGEMENT = "PLATFORM_CATALOG_MANAGEMENT",
  CONTENT_PARTNER = "CONTENT_PARTNER",
  CONSUMER = "CONSUMER",
  OPERATOR = "OPERATOR",
}
registerEnumType(Role, { name: "Role" });
// The GraphQL enum and the token roles are one list; this fails to compile if they drift.
const _sameRoles: Record<(typeof roles)[number], Role> = Role;

export enum Environment {
  sandbox = "sandbox",
  production = "production",
}
registerEnumType(Environment, { name: "Environment" });

@ObjectType({ description: "A company using the API: content partner, consumer system or the platform itself" })
@Directive('@key(fields: "id")')
export class Organisation {
  @Field(() => Int)
  id!: number;

  @Field(() => String)
  name!: string;

  @Field(() => String, { description: "ISO 3166-1 alpha-2 country of the organisation" })
  countryCode!: string;

  @Field(() => CommercialModel)
  commercialModel!: CommercialModel;

  @Field(() => BookingEngine, { nullable: true, description: "The booking engine its content is booked through" })
  bookingEngine!: BookingEngine | null;
}

@ObjectType({ description: "An account that signs in with the password grant" })
export class Account {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  username!: string;

  @Field(() => [Role])
  roles!: Role[];

  @Field(() => Organisation, { nullable: true })
  organisation!: Organisation | null;

  @Field(() => Environment, { description: "The environment whose token the caller presented" })
  environment!: Environment;

  @Field(() => Date, { description: "When the current session's password grant happened" })
  authenticatedAt!: Date;

  @Field(() => Date, { description: "When the presented access token expires" })
  tokenExpiresAt!: Date;
}
