import { badInput } from "../../../core/errors.js";
import type { Executor } from "../../../drizzle/database.js";
import type { AvailabilitySetup } from "../availability/availability.view.js";
import { bookingAccess } from "../booking.access.js";
import { bookingRefusal } from "../booking.errors.js";
import { bookingJobNotice } from "../jobs/booking-job.notice.js";
import type { BookingContext } from "../booking.loaders.js";
import { isQuestionStepComplete } from "../questions/question.rules.js";
import { checkReference, expireHold, lockOwned, view, type Outcome } from "./booking.steps.js";
import { questionsOf } from "./booking.view.js";
import type { BookingRow } from "./booking.repository.js";
import type { Booking } from "./booking.type.js";
import { applyKeptHold, EXTEND_FIRST, holdToExtend, keepingUpstreamHold, UNASKED, type KeptHold } from "./supplier-hold.steps.js";

/**
 * Step 6. The supplier confirmation is a job written in the same transaction, so a payment
 * acknowledged here is never lost; asking again returns the booking as it is.
 */
export async function confirmBooking(ctx: BookingContext, bookingId: string, externalClientId: string | null): Promise<Booking> {
  bookingAccess(ctx.caller);
  const problems = checkReference(externalClientId, "externalClientId", false);
  if (problems.length) throw badInput(problems[0].message, problems);
  const now = ctx.clock.now();
  const outcome = await keepingUpstreamHold(ctx, bookingId, now, (kept) =>
    ctx.database.db.transaction(async (tx): Promise<Outcome | typeof EXTEND_FIRST> => {
      const row = await lockOwned(ctx, tx, bookingId);
      if (kept === UNASKED && holdToExtend(ctx, row, now)) return EXTEND_FIRST;
      return confirmLocked(ctx, tx, row, kept, externalClientId, now);
    }),
  );
  if ("refusal" in outcome) throw outcome.refusal;
  return view(ctx, outcome.booking);
}

/** The booking as it is when it went further already; refused when it ended; else PENDING_CONFIRM with its job. */
async function confirmLocked(ctx: BookingContext, tx: Executor, row: BookingRow, kept: KeptHold, externalClientId: string | null, now: Date): Promise<Outcome> {
  switch (row.status) {
    case "PENDING_CONFIRM":
    case "CONFIRMED":
    case "REDEEMED":
      return { booking: row };
    case "CANCELLED":
    case "EXPIRED":
      return { refusal: bookingRefusal("BOOKING_ALREADY_CANCELLED", `Booking ${row.id} is ${row.status}`) };
    case "REJECTED":
      return { refusal: bookingRefusal("BOOKING_REJECTED", `Booking ${row.id} was refused by the supplier: ${row.rejectionReason ?? ""}`) };
    default:
  }
  const { stores } = ctx.loaders;
  if (now >= row.holdExpiresAt) {
    await expireHold(stores, tx, row, now);
    return { refusal: bookingRefusal("BOOKING_EXPIRED", `Booking ${row.id} was not confirmed within its hold and has expired: start a new availability`) };
  }
  const lapsed = await applyKeptHold(ctx, tx, row, kept, now);
  if (lapsed) return lapsed;
  if (!isQuestionStepComplete(questionsOf(row))) {
    const why = row.answersRedactedAt ? "Answers were erased for privacy after the retention time: give them again" : "Answer every question first";
    return { refusal: bookingRefusal("QUESTIONS_INCOMPLETE", why) };
  }
  const setup = row.setup as AvailabilitySetup;
  const pending = await stores.bookings.transition(tx, row.id, "ON_HOLD", {
    status: "PENDING_CONFIRM",
    paymentStatus: "PAID",
    confirmRequestedAt: now,
    externalClientId: externalClientId ?? row.externalClientId,
    updateDate: now,
  });
  const runAt = new Date(now.getTime() + setup.confirmationDelaySeconds * 1000);
  await stores.bookings.addJob(tx, row.id, "confirm", runAt);
  await stores.announce(tx, pending!, [bookingJobNotice({ bookingId: row.id, runAt })]);
  return { booking: pending! };
}
