import { hasScope, type Caller } from "../../core/caller.js";
import { bookingRefusal } from "./booking.errors.js";

export const BOOKING_SCOPE = "booking";

export interface Owner {
  organisationId: number | null;
  accountId: string;
}

/** The booking flow needs the `booking` scope (CONSUMER accounts hold it): 403 with 6501 otherwise. */
export function bookingAccess(caller: Caller): Owner {
  if (!hasScope(caller, BOOKING_SCOPE)) throw bookingRefusal("FORBIDDEN", `The access token lacks the ${BOOKING_SCOPE} scope: only consumer accounts book`);
  return { organisationId: caller.organisationId, accountId: caller.accountId };
}

/** Availabilities and bookings belong to the caller's organisation (to the account, for accounts without one). */
export function owns(caller: Caller, resource: Owner): boolean {
  return resource.organisationId !== null ? resource.organisationId === caller.organisationId : resource.accountId === caller.accountId;
}
