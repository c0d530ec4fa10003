import { Ctx, Query, Resolver } from "type-graphql";
import { hasAnyRole } from "../../../core/caller.js";
import { forbidden } from "../../../core/errors.js";
import { platformRoles } from "../../../core/roles.js";
import type { SubgraphContext } from "../../common/context.js";
import { ReportingAccess, ReportingScope } from "./reporting-access.type.js";

@Resolver()
export class ReportingAccessResolver {
  @Query(() => ReportingAccess, { description: "The scope of the caller's booking reports" })
  reportingAccess(@Ctx() ctx: SubgraphContext): ReportingAccess {
    const { caller } = ctx;
    const testMode = caller.environment === "sandbox";
    if (hasAnyRole(caller, platformRoles)) {
      return { scope: ReportingScope.ALL_ORGANISATIONS, organisation: null, testMode };
    }
    // An account outside any organisation has no bookings of its own to report on.
    if (caller.organisationId === null) throw forbidden("Booking reports need an account that belongs to an organisation");
    return { scope: ReportingScope.OWN_ORGANISATION, organisation: { id: caller.organisationId }, testMode };
  }
}
