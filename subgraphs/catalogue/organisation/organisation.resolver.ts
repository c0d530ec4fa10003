import { type Connection, PagingArgsOf, type PagingArguments } from "../../common/relay/relay.connection.js";
import { Arg, Args, Authorized, Ctx, ID, Query, Resolver } from "type-graphql";
import { serialKeyOfGlobalId } from "../../../core/global-id.js";
import { platformRoles } from "../../../core/roles.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { MAX_ORGANISATION_PAGE, organisationService } from "./organisation.service.js";
import { Account, Organisation, OrganisationConnection } from "./organisation.type.js";

/** The number a global id names (0, which no row has, for anything else). */
export const organisationKey = (id: string): number => serialKeyOfGlobalId(id, "Organisation") ?? 0;

/** The paging arguments of a list of organisations. */
const OrganisationsPaging = PagingArgsOf("organisations");

@Resolver()
export class OrganisationResolver {
  @Query(() => Account, { description: "The caller's own account and organisation" })
  me(@Ctx() ctx: CatalogueContext): Promise<Account> {
    return organisationService.me(ctx);
  }

  @Query(() => Organisation, { nullable: true, description: "One organisation: the caller's own, or any for platform roles; null for an id that names none the caller may see" })
  organisation(@Arg("id", () => ID, { description: "The organisation's global id" }) id: string, @Ctx() ctx: CatalogueContext): Promise<Organisation | null> {
    return organisationService.visible(ctx, organisationKey(id));
  }

  @Authorized(...platformRoles)
  @Query(() => OrganisationConnection, { description: `Every organisation, by name (platform roles only); at most ${MAX_ORGANISATION_PAGE} a page (20 unless asked)` })
  organisations(
    @Ctx() ctx: CatalogueContext,
    @Args(() => OrganisationsPaging) paging: PagingArguments,
  ): Promise<Connection<Organisation>> {
    return organisationService.page(ctx, paging);
  }
}
