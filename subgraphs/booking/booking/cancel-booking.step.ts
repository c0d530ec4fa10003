import { badInput } from "../../../core/errors.js";
import type { Executor } from "../../../drizzle/database.js";
import type { AvailabilitySetup } from "../availability/availability.view.js";
import { bookingAccess } from "../booking.access.js";
import { bookingRefusal, viaEngine } from "../booking.errors.js";
import { rateOfPercentage } from "../contract.bodies.js";
import type { BookingContext } from "../booking.loaders.js";
import { engineBooking, engineOfBooking, lockOwned, ownedUnlocked, releasePlaces, view } from "./booking.steps.js";
import type { BookingRow } from "./booking.repository.js";
import type { CancellationInformation } from "./booking.type.js";
import { cancellationTerms, type CancellationTerms } from "./cancellation.rules.js";

/** Step 7, DELETE: under the tier in force; the places go back to the slot. */
export async function cancelBooking(ctx: BookingContext, bookingId: string, reason: string | null): Promise<CancellationInformation> {
  bookingAccess(ctx.caller);
  if (reason !== null && (reason.length < 1 || reason.length > 500)) {
    throw badInput("cancellationReason must be 1 to 500 characters", [{ field: "cancellationReason", rule: "length", message: "1 to 500 characters" }]);
  }
  const now = ctx.clock.now();
  const why = reason ?? "Cancelled by the customer";
  // The supplier is told first, outside the transaction: a booking is cancelled here only once
  // its supplier has cancelled it (a retry tells it again, idempotently, by the booking id).
  const told = await tellSupplierOfCancellation(ctx, bookingId, now, why);
  const result = await ctx.database.db.transaction(async (tx) => cancelLocked(ctx, tx, await lockOwned(ctx, tx, bookingId), told, why, now));
  // A dropped hold frees the supplier's places now rather than when the hold lapses.
  const upstream = result.wasHeld && engineOfBooking(result.row, ctx.loaders.stores).upstream;
  if (upstream) await upstream.release(result.row, why);
  const booking = await view(ctx, result.row);
  return {
    cancellation: booking.cancellation,
    reason: result.row.cancellationReason!,
    requestedAt: now,
    refundRate: rateOfPercentage(result.terms.refundPercentage),
    booking,
  };
}

async function cancelLocked(ctx: BookingContext, tx: Executor, row: BookingRow, told: boolean, why: string, now: Date): Promise<{ row: BookingRow; terms: CancellationTerms; wasHeld: boolean }> {
  if (row.status === "CANCELLED" || row.status === "EXPIRED") throw bookingRefusal("BOOKING_ALREADY_CANCELLED", `Booking ${row.id} is already ${row.status}`);
  const terms = cancellationTerms(row.setup as AvailabilitySetup, row.status, row.startsAt, now, row.language);
  if (!terms.isCancellable) {
    const because =
      row.status === "PENDING_CONFIRM"
        ? "the supplier has not answered the confirmation yet: try again in a few seconds"
        : row.status === "CONFIRMED"
          ? "no cancellation tier applies any more"
          : `it is ${row.status}`;
    throw bookingRefusal("BOOKING_NOT_CANCELLABLE", `Booking ${row.id} cannot be cancelled: ${because}`);
  }
  const wasConfirmed = row.status === "CONFIRMED";
  if (wasConfirmed && !told) throw bookingRefusal("BOOKING_NOT_CANCELLABLE", `Booking ${row.id} was confirmed while this request ran: send it again`);
  const { stores } = ctx.loaders;
  const cancelled = await stores.bookings.transition(tx, row.id, row.status, {
    status: "CANCELLED",
    paymentStatus: wasConfirmed ? (terms.refundPercentage > 0 ? "REFUND" : "PAID") : row.paymentStatus,
    cancelledAt: now,
    cancellationReason: why,
    refundPercentage: terms.refundPercentage,
    updateDate: now,
  });
  await releasePlaces(stores, tx, row);
  await stores.announce(tx, cancelled!);
  return { row: cancelled!, terms, wasHeld: row.status === "ON_HOLD" };
}

/**
 * DELETE of a confirmed booking tells its supplier before anything is recorded; true when the
 * booking was confirmed and its supplier has cancelled it. Refusals (the supplier will not, or
 * cannot be reached) are answered with nothing changed.
 */
async function tellSupplierOfCancellation(ctx: BookingContext, bookingId: string, now: Date, reason: string): Promise<boolean> {
  const row = await ownedUnlocked(ctx, bookingId);
  if (!row || row.status !== "CONFIRMED") return false;
  if (!cancellationTerms(row.setup as AvailabilitySetup, row.status, row.startsAt, now, row.language).isCancellable) return false;
  await viaEngine(engineOfBooking(row, ctx.loaders.stores).cancel(ctx.database.db, engineBooking(row), reason));
  return true;
}
