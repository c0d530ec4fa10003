import type { Caller } from "../../../core/caller.js";
import { hasAnyRole } from "../../../core/caller.js";
import { notFound } from "../../../core/errors.js";
import { platformRoles } from "../../../core/roles.js";
import type { Database } from "../../../drizzle/database.js";
import { organisationRepository, type OrganisationRow } from "./organisation.repository.js";
import type { CatalogueLoaders } from "../loaders.js";
import { type Account, CommercialModel, Environment, type Organisation, type Role } from "./organisation.type.js";

export const toOrganisation = (row: OrganisationRow): Organisation => ({
  id: row.id,
  name: row.name,
  countryCode: row.countryCode,
  commercialModel: row.commercialModel as CommercialModel,
  bookingEngine: row.bookingEngineId === null ? null : { id: row.bookingEngineId },
});

/** Rules on who may see which organisation: the caller's own, or all for platform roles. */
export const organisationService = {
  async me(ctx: { caller: Caller; loaders: CatalogueLoaders }): Promise<Account> {
    const { caller } = ctx;
    const organisation = caller.organisationId === null ? undefined : await ctx.loaders.organisation.load(caller.organisationId);
    return {
      id: caller.accountId,
      username: caller.username,
      roles: caller.roles as Role[],
      organisation: organisation ? toOrganisation(organisation) : null,
      environment: caller.environment as Environment,
      authenticatedAt: caller.authTime,
      tokenExpiresAt: caller.expiresAt,
    };
  },

  async one(ctx: { caller: Caller; loaders: CatalogueLoaders }, id: number): Promise<Organisation> {
    const visible = hasAnyRole(ctx.caller, platformRoles) || ctx.caller.organisationId === id;
    const row = visible ? await ctx.loaders.organisation.load(id) : undefined;
    // Another organisation's id reads as unknown, so ids cannot be probed.
    if (!row) throw notFound(`Organisation ${id} not found`);
    return toOrganisation(row);
  },

  async all(database: Database): Promise<Organisation[]> {
    return (await organisationRepository.all(database.db)).map(toOrganisation);
  },
};
