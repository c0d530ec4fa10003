import { bookingAccess } from "../booking.access.js";
import { bookingRefusal } from "../booking.errors.js";
import type { BookingContext } from "../booking.loaders.js";
import type { Availability } from "./availability.type.js";
import { availabilityView, isOptionStepCompleted } from "./availability.view.js";
import { checkCurrency, stateOf, toAvailability, workOn } from "./availability.steps.js";

/** Step 3a: the tickets in a currency, which then holds to the end of the flow. */
export async function availabilityPrices(ctx: BookingContext, productId: number | null, availabilityId: string, currencyCode: string | null): Promise<Availability> {
  bookingAccess(ctx.caller);
  const currency = checkCurrency(currencyCode);
  return ctx.database.db.transaction(async (tx) => {
    const row = await workOn(ctx, tx, productId, availabilityId);
    const state = stateOf(row);
    if (!isOptionStepCompleted(state.setup, state.selections)) throw bookingRefusal("OPTIONS_INCOMPLETE", "Set every option before asking for prices");
    if (row.currency && row.currency !== currency) {
      throw bookingRefusal("CURRENCY_CHANGE", `This flow runs in ${row.currency}; start a new availability for another currency`);
    }
    const view = availabilityView(stateOf({ ...row, currency }));
    // The currency (first GET) and the quoted total (when prices have moved) in one statement.
    const changes: Partial<Pick<typeof row, "currency" | "quotedTotal">> = {};
    if (!row.currency) changes.currency = currency;
    if (view.priced && row.quotedTotal !== view.priced.total.retail) changes.quotedTotal = view.priced.total.retail;
    if (Object.keys(changes).length) await ctx.loaders.stores.availabilities.update(tx, row.id, changes);
    return toAvailability(view);
  });
}
