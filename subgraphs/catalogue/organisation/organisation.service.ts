import type { Caller } from "../../../core/caller.js";
import { hasAnyRole } from "../../../core/caller.js";
import { toGlobalId } from "../../../core/global-id.js";
import { platformRoles } from "../../../core/roles.js";
import type { Database } from "../../../drizzle/database.js";
import { organisationRepository, type OrganisationRow } from "./organisation.repository.js";
import type { CatalogueLoaders } from "../catalogue.loaders.js";
import { type Account, CommercialModel, Environment, type Organisation, type Role } from "./organisation.type.js";
import { bookingEngineRef } from "../booking-engine/booking-engine.type.js";
import { connectionFrom, CountPrecision, cursorCodec, pageRequest, type Connection, type PagingArguments } from "../../common/relay/relay.connection.js";

export const toOrganisation = (row: OrganisationRow): Organisation => ({
  id: toGlobalId("Organisation", row.id),
  legacyResourceId: row.id,
  name: row.name,
  countryCode: row.countryCode,
  commercialModel: row.commercialModel as CommercialModel,
  bookingEngine: row.bookingEngineId === null ? null : bookingEngineRef(row.bookingEngineId),
});

/** How many organisations one page holds at most. */
export const MAX_ORGANISATION_PAGE = 100;

/** A cursor's `[name, id]`, or null for anything this list did not give. */
function organisationPosition(cursor: string): { name: string; id: number } | null {
  const position = cursorCodec.decode(cursor);
  if (!Array.isArray(position) || position.length !== 2) return null;
  const [name, id] = position as unknown[];
  return typeof name === "string" && Number.isSafeInteger(id) && (id as number) > 0 ? { name, id: id as number } : null;
}

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

  /** Every organisation by name, a page at a time (the resolver admits platform roles only). */
  async page(ctx: { database: Database; loaders: CatalogueLoaders }, args: PagingArguments): Promise<Connection<Organisation>> {
    const request = pageRequest(args, MAX_ORGANISATION_PAGE, organisationPosition);
    const rows = request.size === 0 ? [] : await organisationRepository.page(ctx.database.db, request.size + 1, request.position, request.direction);
    for (const row of rows) ctx.loaders.organisation.prime(row.id, row);
    return connectionFrom(
      request,
      rows,
      toOrganisation,
      (row) => cursorCodec.encode([row.name, row.id]),
      async () => ({ count: await organisationRepository.count(ctx.database.db), precision: CountPrecision.EXACT }),
    );
  },
};
