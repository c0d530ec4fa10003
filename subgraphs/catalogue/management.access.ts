import { hasAnyRole, hasScope, type Caller } from "../../core/caller.js";
import { forbidden } from "../../core/errors.js";
import { rejected } from "../../core/refusals.js";
import { MANAGE_SCOPE, managementRoles } from "../../core/roles.js";
import type { BookingEngineRow } from "./booking-engine/booking-engine.repository.js";
import type { CatalogueContext } from "./catalogue.loaders.js";


export interface ManagementAccess {
  caller: Caller;
  isPlatform: boolean;
  /** The booking engine of a content partner's organisation; platform callers have none of their own. */
  ownEngine: BookingEngineRow | null;
}

/**
 * Who may manage content, checked in the order the contract's statuses suggest: a role that
 * never manages content is 403; a token without the management scope, an account that no
 * longer exists, or a content partner without a booking engine is a 400 with its own reason.
 */
export async function managementAccess(ctx: CatalogueContext): Promise<ManagementAccess> {
  const { caller } = ctx;
  if (!hasAnyRole(caller, managementRoles)) throw forbidden(`Content management needs one of the roles ${managementRoles.join(", ")}`);
  if (!hasScope(caller, MANAGE_SCOPE)) {
    throw rejected("INSUFFICIENT_SCOPE", `The access token lacks the ${MANAGE_SCOPE} scope needed for content management`);
  }
  if (!(await ctx.accountExists())) throw rejected("ACCOUNT_NOT_FOUND", "The caller's account does not exist");
  const isPlatform = caller.roles.includes("PLATFORM_CATALOG_MANAGEMENT");
  if (isPlatform) return { caller, isPlatform, ownEngine: null };
  const organisation = caller.organisationId === null ? undefined : await ctx.loaders.organisation.load(caller.organisationId);
  const ownEngine = organisation?.bookingEngineId ? ((await ctx.loaders.bookingEngine.load(organisation.bookingEngineId)) ?? null) : null;
  if (!ownEngine) throw rejected("NO_BOOKING_ENGINE", "The caller's account is not set up with a booking engine");
  return { caller, isPlatform, ownEngine };
}

/**
 * The booking engine a supplier request acts on. A platform caller must name an existing one;
 * a content partner gets its own, and may name only that one.
 */
export async function engineForRequest(ctx: CatalogueContext, access: ManagementAccess, requestedId: number | null | undefined): Promise<BookingEngineRow> {
  const requested = access.isPlatform && requestedId != null ? ((await ctx.loaders.bookingEngine.load(requestedId)) ?? null) : null;
  const refusal = engineRequestRefusal(access, requestedId, requested !== null);
  if (refusal) throw refusal;
  return requested ?? access.ownEngine!;
}

/**
 * Why a supplier request naming `requestedId` may not act on it, or null when it may: what
 * `engineForRequest` decides, from facts REST can also ask the graph for (who the caller is,
 * whether the engine exists), so a body the rules refuse is answered in the same order.
 */
export function engineRequestRefusal(caller: { isPlatform: boolean; ownEngine: { id: number; name: string } | null }, requestedId: number | null | undefined, requestedExists: boolean) {
  if (caller.isPlatform) {
    if (requestedId === null || requestedId === undefined) {
      return rejected("MISSING_BOOKING_ENGINE", "bookingEngine is required for a PLATFORM_CATALOG_MANAGEMENT caller", [
        { field: "bookingEngine", rule: "required", message: "bookingEngine is required for a PLATFORM_CATALOG_MANAGEMENT caller" },
      ]);
    }
    if (requestedExists) return null;
    // 0 stands for an id that names no row (a global id of something else).
    const named = requestedId > 0 ? `booking engine ${requestedId}` : "the booking engine named";
    return rejected("UNKNOWN_BOOKING_ENGINE", `${named[0].toUpperCase()}${named.slice(1)} does not exist`, [{ field: "bookingEngine", rule: "exists", message: `${named} does not exist` }]);
  }
  const own = caller.ownEngine!;
  if (requestedId !== null && requestedId !== undefined && requestedId !== own.id) {
    return rejected("WRONG_BOOKING_ENGINE", `The caller manages booking engine ${own.id} (${own.name}) only`, [
      { field: "bookingEngine", rule: "ownEngine", message: `bookingEngine must be the caller's own engine, ${own.id}` },
    ]);
  }
  return null;
}

/** Content partners see only their own engine's suppliers; others read as unknown. */
export const canManageEngine = (access: ManagementAccess, engineId: number): boolean => access.isPlatform || access.ownEngine?.id === engineId;
