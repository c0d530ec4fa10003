import { hasAnyRole, hasScope, type Caller } from "./caller.js";
import { forbidden } from "./errors.js";
import { platformRoles } from "./roles.js";

export const REPORTING_SCOPE = "reporting";

/** Which bookings a caller's reports cover (docs/spec-decisions.md, "Booking reports"). */
export interface ReportingVisibility {
  /** Null: every organisation (platform roles). */
  organisationId: number | null;
  /** Sandbox credentials never see production bookings. */
  testModeOnly: boolean;
}

/**
 * Reports need the `reporting` scope. Platform roles see every organisation; any other holder
 * (CONSUMER) sees the bookings of its own organisation, made by any of its accounts.
 */
export function reportingVisibility(caller: Caller): ReportingVisibility {
  if (!hasScope(caller, REPORTING_SCOPE)) throw forbidden(`Booking reports need the ${REPORTING_SCOPE} scope (CONSUMER, OPERATOR and PLATFORM_CATALOG_MANAGEMENT accounts hold it)`);
  const testModeOnly = caller.environment === "sandbox";
  if (hasAnyRole(caller, platformRoles)) return { organisationId: null, testModeOnly };
  // An account outside any organisation has no bookings of its own to report on.
  if (caller.organisationId === null) throw forbidden("Booking reports need an account that belongs to an organisation");
  return { organisationId: caller.organisationId, testModeOnly };
}

export function canSeeReport(visibility: ReportingVisibility, booking: { organisationId: number | null; testMode: boolean }): boolean {
  if (visibility.testModeOnly && !booking.testMode) return false;
  return visibility.organisationId === null || booking.organisationId === visibility.organisationId;
}
