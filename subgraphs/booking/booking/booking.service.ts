import { isUuid } from "../../../core/uuid.js";
import { bookingAccess, owns } from "../booking.access.js";
import { bookingRefusal } from "../booking.errors.js";
import type { BookingContext } from "../booking.loaders.js";
import { answerQuestions } from "./answer-questions.step.js";
import { view } from "./booking.steps.js";
import { bookingVoucher } from "./booking-voucher.step.js";
import type { Booking } from "./booking.type.js";
import { cancelBooking } from "./cancel-booking.step.js";
import { confirmBooking } from "./confirm-booking.step.js";
import { createBooking } from "./create-booking.step.js";

export { BOOKING_HOLD_MS, engineBooking, engineOfBooking, expireHold } from "./booking.steps.js";

/** The booking steps the resolvers call: each step lives in its own `*.step.ts` file. */
export const bookingService = {
  /** The caller's booking; null for an id that names none; 403 (6501) another organisation's, as spec 2 answers it. */
  async byId(ctx: BookingContext, bookingId: string): Promise<Booking | null> {
    bookingAccess(ctx.caller);
    const row = isUuid(bookingId) ? await ctx.loaders.booking.load(bookingId) : undefined;
    if (!row) return null;
    if (!owns(ctx.caller, row)) throw bookingRefusal("FORBIDDEN", "This booking belongs to another organisation");
    return view(ctx, row);
  },
  /** Step 4: an availability booked ON_HOLD. */
  create: createBooking,
  /** Step 5b: the traveller questions answered. */
  answer: answerQuestions,
  /** Step 6: confirmed after payment. */
  confirm: confirmBooking,
  /** Step 7: cancelled. */
  cancel: cancelBooking,
  /** The voucher PDF behind a signed link. */
  voucher: bookingVoucher,
};
