import { Directive, Field, Int, ObjectType, registerEnumType } from "type-graphql";

export enum ReportingScope {
  OWN_ORGANISATION = "OWN_ORGANISATION",
  ALL_ORGANISATIONS = "ALL_ORGANISATIONS",
}
registerEnumType(ReportingScope, {
  name: "ReportingScope",
  description: "Whose bookings a caller's reports cover",
  valuesConfig: {
    OWN_ORGANISATION: { description: "Those of the caller's organisation, made by any of its accounts" },
    ALL_ORGANISATIONS: { description: "Every organisation's (platform roles)" },
  },
});

/** Owned by the catalogue subgraph; reporting only names it by key. */
@ObjectType("Organisation")
@Directive('@key(fields: "legacyResourceId", resolvable: false)')
export class OrganisationReference {
  @Field(() => Int)
  legacyResourceId!: number;
}

@ObjectType({ description: "Which bookings the caller's reports cover" })
export class ReportingAccess {
  @Field(() => ReportingScope, { description: "Whose bookings" })
  scope!: ReportingScope;

  @Field(() => OrganisationReference, { nullable: true, description: "The organisation reports are limited to, when scope is OWN_ORGANISATION" })
  organisation!: OrganisationReference | null;

  @Field(() => Boolean, { description: "True in the sandbox environment: only test bookings are reported there" })
  isTestOnly!: boolean;
}
