import { Arg, Authorized, Ctx, ID, Query, Resolver } from "type-graphql";
import { keyOfGlobalId } from "../../../core/global-id.js";
import { platformRoles } from "../../../core/roles.js";
import type { CatalogueContext } from "../loaders.js";
import { organisationService } from "./organisation.service.js";
import { Account, Organisation } from "./organisation.type.js";

/** The number a global id names (0, which no row has, for anything else). */
export const organisationKey = (id: string): number => {
  const key = Number(keyOfGlobalId(id, "Organisation"));
  return Number.isSafeInteger(key) && key > 0 ? key : 0;
};

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
  @Query(() => [Organisation], { description: "Every organisation (platform roles only)" })
  organisations(@Ctx() ctx: CatalogueContext): Promise<Organisation[]> {
    return organisationService.all(ctx.database);
  }
}
