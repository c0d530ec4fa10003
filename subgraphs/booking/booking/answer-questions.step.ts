import type { AvailabilitySetup } from "../availability/availability.view.js";
import { bookingAccess } from "../booking.access.js";
import { bookingRefusal } from "../booking.errors.js";
import type { BookingContext } from "../booking.loaders.js";
import { validateAnswers } from "../questions/question.rules.js";
import { lockOwned, view, type Outcome } from "./booking.steps.js";
import { questionContextOf } from "./booking.view.js";
import type { Booking } from "./booking.type.js";
import { applyKeptHold, EXTEND_FIRST, holdToExtend, keepingUpstreamHold, UNASKED } from "./supplier-hold.steps.js";

/** Step 5b: the full list of answers; follow-ups appear and vanish with their parents' answers. */
export async function answerQuestions(ctx: BookingContext, bookingId: string, answers: { id: string; value: string | null }[]): Promise<Booking> {
  bookingAccess(ctx.caller);
  const now = ctx.clock.now();
  const outcome = await keepingUpstreamHold(ctx, bookingId, now, (kept) =>
    ctx.database.db.transaction(async (tx): Promise<Outcome | typeof EXTEND_FIRST> => {
      const row = await lockOwned(ctx, tx, bookingId);
      if (kept === UNASKED && holdToExtend(ctx, row, now)) return EXTEND_FIRST;
      if (row.status !== "ON_HOLD") {
        throw bookingRefusal("BOOKING_NOT_EDITABLE", `Answers can change only while the booking is ON_HOLD (it is ${row.status})`);
      }
      const lapsed = await applyKeptHold(ctx, tx, row, kept, now);
      if (lapsed) return lapsed;
      const setup = row.setup as AvailabilitySetup;
      const result = validateAnswers(setup.questions, questionContextOf(row), answers);
      if (result.problems.length) throw bookingRefusal("INVALID_ANSWERS", result.problems.map((p) => p.message).join("; "), result.problems);
      const updated = await ctx.loaders.stores.bookings.update(tx, row.id, { answers: result.answers, answersUpdatedAt: now, answersRedactedAt: null, updateDate: now });
      return { booking: updated };
    }),
  );
  if ("refusal" in outcome) throw outcome.refusal;
  return view(ctx, outcome.booking);
}
