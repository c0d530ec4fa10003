import type { Caller } from "../../../core/caller.js";
import { hasAnyRole } from "../../../core/caller.js";
import { toGlobalId } from "../../../core/global-id.js";
import { platformRoles } from "../../../core/roles.js";
import type { Database } from "../../../drizzle/database.js";
import { organisationRepository, type OrganisationRow } from "./organisation.repository.js";
import type { CatalogueLoaders } from "../loaders.js";
import { type Account, CommercialModel, Environment, type Organisation, type Role } from "./organisation.type.js";
import { bookingEngineRef } from "../booking-engine/booking-engine.type.js";

export const toOrganisation = (row: OrganisationRow): Organisation => ({
  id: toGlobalId("Organisation", row.id),
  legacyResourceId: row.id,
  name: row.name,
  countryCode: row.countryCode,
  commercialModel: row.commercialModel as CommercialModel,
  bookingEngine: row.bookingEngineId === null ? null : bookingEngineRef(row.bookingEngineId),
});

/** Who may see an organisation: its own accounts, and platform roles any. */
export const maySeeOrganisation = (caller: Caller, id: number): boolean => hasAnyRole(caller, platformRoles) || caller.organisationId === id;

/** Rules on who may see which organisation: the caller's own, or all for platform roles. */
export const organisationService = {
  async me(ctx: { caller: Caller; loaders: CatalogueLoaders }): Promise<Account> {
    const { caller } = ctx;
    const organisation = caller.organisationId === null ? undefined : await ctx.loaders.organisation.load(caller.organisationId);
    return {
      id: toGlobalId("Account", caller.accountId),
      legacyResourceId: caller.accountId,
      username: caller.username,
      roles: caller.roles as Role[],
      organisation: organisation ? toOrganisation(organisation) : null,
      environment: caller.environment as Environment,
      authenticatedAt: caller.authTime,
      tokenExpiresAt: caller.expiresAt,
    };
  },

  /** The organisation when the caller may see it (its own, or any for platform roles), else null: another's reads as unknown, so ids cannot be probed. */
  async visible(ctx: { caller: Caller; loaders: CatalogueLoaders }, id: number): Promise<Organisation | null> {
    const row = maySeeOrganisation(ctx.caller, id) ? await ctx.loaders.organisation.load(id) : undefined;
    return row ? toOrganisation(row) : null;
  },

  async all(database: Database): Promise<Organisation[]> {
    return (await organisationRepository.all(database.db)).map(toOrganisation);
  },
};
