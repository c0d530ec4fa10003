import { Directive, Field, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { ConnectionOf, EdgeOf } from "../../common/relay/relay.connection.js";
import { CountryCodeScalar, DateTimeScalar, UuidScalar } from "../../common/common.scalars.js";
import { roles } from "../../../core/roles.js";
import { BookingEngine } from "../booking-engine/booking-engine.type.js";

export enum CommercialModel {
  AGENT = "AGENT",
  RESELLER = "RESELLER",
}
registerEnumType(CommercialModel, {
  name: "CommercialModel",
  description: "How the organisation earns: an agent takes a commission, a reseller buys at net price",
  valuesConfig: {
    AGENT: { description: "Sells in the supplier's name and takes a commission" },
    RESELLER: { description: "Buys at the net price and sells at its own" },
  },
});

export enum Role {
  PLATFORM_CATALOG_MANAGEMENT = "PLATFORM_CATALOG_MANAGEMENT",
  CONTENT_PARTNER = "CONTENT_PARTNER",
  CONSUMER = "CONSUMER",
  OPERATOR = "OPERATOR",
}
registerEnumType(Role, {
  name: "Role",
  description: "What an account may do",
  valuesConfig: {
    PLATFORM_CATALOG_MANAGEMENT: { description: "Manages every booking engine's content and the booking engines themselves" },
    CONTENT_PARTNER: { description: "Manages its booking engine's suppliers and products" },
    CONSUMER: { description: "Reads the catalogue and books (a travel site or app)" },
    OPERATOR: { description: "Runs the service: accounts, keys, diagnostics" },
  },
});
// The GraphQL enum and the token roles are one list; this fails to compile if they drift.
const _sameRoles: Record<(typeof roles)[number], Role> = Role;

/** The values are the tokens' own (`sandbox`, `production`); the graph names them in upper case. */
export enum Environment {
  SANDBOX = "sandbox",
  PRODUCTION = "production",
}
registerEnumType(Environment, {
  name: "Environment",
  description: "Which of the service's environments issued the token",
  valuesConfig: {
    SANDBOX: { description: "Test bookings, a supplier simulator, relaxed outbound targets" },
    PRODUCTION: { description: "Real bookings" },
  },
});

@ObjectType({ description: "A company using the API: content partner, consumer system or the platform itself" })
@Directive('@key(fields: "id")')
// The other subgraphs' references carry the number they hold.
@Directive('@key(fields: "legacyResourceId")')
export class Organisation {
  @Field(() => ID, { description: "The global id" })
  id!: string;

  @Field(() => Int, { description: "The organisation's number on the REST paths" })
  legacyResourceId!: number;

  @Field(() => String, { description: "Its name" })
  name!: string;

  @Field(() => CountryCodeScalar, { description: "The organisation's country" })
  countryCode!: string;

  @Field(() => CommercialModel, { description: "How it earns" })
  commercialModel!: CommercialModel;

  @Field(() => BookingEngine, { nullable: true, description: "The booking engine its content is booked through" })
  bookingEngine!: BookingEngine | null;
}

@ObjectType({ description: "An organisation with its place in the list" })
export class OrganisationEdge extends EdgeOf(Organisation) {}

@ObjectType({ description: "Organisations by name" })
export class OrganisationConnection extends ConnectionOf(Organisation, OrganisationEdge) {}

@ObjectType({ description: "An account that signs in with the password grant" })
@Directive('@key(fields: "id")')
export class Account {
  @Field(() => ID, { description: "The global id" })
  id!: string;

  @Field(() => UuidScalar, { description: "The account's id on the REST paths (GET /api/me)" })
  legacyResourceId!: string;

  @Field(() => String, { description: "The name it signs in with" })
  username!: string;

  @Field(() => [Role], { description: "What it may do" })
  roles!: Role[];

  @Field(() => Organisation, { nullable: true, description: "Its organisation; null for platform accounts" })
  organisation!: Organisation | null;

  @Field(() => Environment, { description: "The environment whose token the caller presented" })
  environment!: Environment;

  @Field(() => DateTimeScalar, { description: "When the current session's password grant happened" })
  authenticatedAt!: Date;

  @Field(() => DateTimeScalar, { description: "When the presented access token expires" })
  tokenExpiresAt!: Date;
}
