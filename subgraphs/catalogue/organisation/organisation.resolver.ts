import { Arg, Authorized, Ctx, Int, Query, Resolver } from "type-graphql";
import { platformRoles } from "../../../core/roles.js";
import type { CatalogueContext } from "../loaders.js";
import { organisationService } from "./organisation.service.js";
import { Account, Organisation } from "./organisation.type.js";

@Resolver()
export class OrganisationResolver {
  @Query(() => Account, { description: "The caller's own account and organisation" })
  me(@Ctx() ctx: CatalogueContext): Promise<Account> {
    return organisationService.me(ctx);
  }

  @Query(() => Organisation, { description: "One organisation: the caller's own, or any for platform roles" })
  organisation(@Arg("id", () => Int) id: number, @Ctx() ctx: CatalogueContext): Promise<Organisation> {
    return organisationService.one(ctx, id);
  }

  @Authorized(...platformRoles)
  @Query(() => [Organisation], { description: "Every organisation (platform roles only)" })
  organisations(@Ctx() ctx: CatalogueContext): Promise<Organisation[]> {
    return organisationService.all(ctx.database);
  }
}
