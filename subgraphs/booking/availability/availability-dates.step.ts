import { addDays, endOfMonth, localDate } from "../../../core/local-time.js";
import { bookingAccess } from "../booking.access.js";
import { bookingRefusal, viaEngine } from "../booking.errors.js";
import type { BookingContext } from "../booking.loaders.js";
import { dateRangeRefusal, sellable } from "./availability.steps.js";

/** The widest range of one dates call; a year covers the next-availability look-ahead. */
const MAX_RANGE_DAYS = 366;

/** Step 1: dates with places in a range; defaults to the 31 days from today. */
export async function availableDates(ctx: BookingContext, productId: number, startDate: string | null, endDate: string | null): Promise<string[]> {
  bookingAccess(ctx.caller);
  const { product, engine, setup } = await sellable(ctx, productId);
  const today = localDate(ctx.clock.now(), setup.timeZone);
  const refusal = dateRangeRefusal(startDate, endDate);
  if (refusal) throw refusal;
  const from = startDate ?? today;
  const to = endDate ?? addDays(from, 30);
  if (to < from) throw bookingRefusal("INVALID_DATE_RANGE", "endDate is before startDate", [{ field: "endDate", rule: "notBeforeStartDate", message: "endDate must not be before startDate" }]);
  if (to > addDays(from, MAX_RANGE_DAYS)) {
    throw bookingRefusal("INVALID_DATE_RANGE", `A range covers at most ${MAX_RANGE_DAYS} days`, [{ field: "endDate", rule: "maxRange", message: `at most ${MAX_RANGE_DAYS} days after startDate` }]);
  }
  return viaEngine(engine.availableDates(ctx.database.db, product, setup, from, to, ctx.clock.now()));
}

/** Step 1 alternative: the first month with dates within a year, from its first date to its end. */
export async function nextAvailableDates(ctx: BookingContext, productId: number): Promise<string[]> {
  bookingAccess(ctx.caller);
  const { product, engine, setup } = await sellable(ctx, productId);
  const today = localDate(ctx.clock.now(), setup.timeZone);
  const lastDay = addDays(today, 365);
  // Month by month, so that a product sold daily costs one month's look-up, not a year's. The
  // first date must fall within the year; its month is then listed to its last day (spec 2,
  // Limits: "1 year, to the end of the first month with dates").
  for (let from = today; from <= lastDay; from = addDays(endOfMonth(from), 1)) {
    const dates = await viaEngine(engine.availableDates(ctx.database.db, product, setup, from, endOfMonth(from), ctx.clock.now()));
    if (dates.length && dates[0] <= lastDay) return dates;
  }
  return [];
}
