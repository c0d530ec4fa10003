import { Ctx, Query, Resolver } from "type-graphql";
import { reportingVisibility } from "../../../core/reporting-visibility.js";
import type { SubgraphContext } from "../../common/subgraph.context.js";
import { ReportingAccess, ReportingScope } from "./reporting-access.type.js";

@Resolver()
export class ReportingAccessResolver {
  @Query(() => ReportingAccess, { description: "The scope of the caller's booking reports; FORBIDDEN without the reporting scope" })
  reportingAccess(@Ctx() ctx: SubgraphContext): ReportingAccess {
    const { organisationId, testModeOnly } = reportingVisibility(ctx.caller);
    return organisationId === null
      ? { scope: ReportingScope.ALL_ORGANISATIONS, organisation: null, isTestOnly: testModeOnly }
      : { scope: ReportingScope.OWN_ORGANISATION, organisation: { legacyResourceId: organisationId }, isTestOnly: testModeOnly };
  }
}
