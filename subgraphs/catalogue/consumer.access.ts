import { hasScope } from "../../core/caller.js";
import { forbidden } from "../../core/errors.js";
import type { CatalogueContext } from "./catalogue.loaders.js";

export const READ_SCOPE = "catalogue:read";

/** Catalogue consumption needs the catalogue:read scope, which every role may hold; returns the caller's organisation country. */
export async function consumerAccess(ctx: CatalogueContext): Promise<{ country: string | null }> {
  if (!hasScope(ctx.caller, READ_SCOPE)) throw forbidden(`The access token lacks the ${READ_SCOPE} scope`);
  const organisation = ctx.caller.organisationId === null ? undefined : await ctx.loaders.organisation.load(ctx.caller.organisationId);
  return { country: organisation?.countryCode ?? null };
}
