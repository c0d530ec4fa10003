import { Directive, Field, Int, ObjectType, registerEnumType } from "type-graphql";

export enum ReportingScope {
  OWN_ORGANISATION = "OWN_ORGANISATION",
  ALL_ORGANISATIONS = "ALL_ORGANISATIONS",
}
registerEnumType(ReportingScope, { name: "ReportingScope" });

/** Owned by the catalogue subgraph; reporting only names it by key. */
@ObjectType("Organisation")
@Directive('@key(fields: "legacyResourceId", resolvable: false)')
export class OrganisationReference {
  @Field(() => Int)
  legacyResourceId!: number;
}

@ObjectType({ description: "Which bookings the caller's reports cover" })
export class ReportingAccess {
  @Field(() => ReportingScope)
  scope!: ReportingScope;

  @Field(() => OrganisationReference, { nullable: true, description: "The organisation reports are limited to, when scope is OWN_ORGANISATION" })
  organisation!: OrganisationReference | null;

  @Field(() => Boolean, { description: "True in the sandbox environment: every booking reported there is a test booking" })
  testMode!: boolean;
}
