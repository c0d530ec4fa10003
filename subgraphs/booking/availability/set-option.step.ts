import { bookingAccess } from "../booking.access.js";
import { bookingRefusal } from "../booking.errors.js";
import type { BookingContext } from "../booking.loaders.js";
import type { Availability } from "./availability.type.js";
import { applyOption, availabilityView } from "./availability.view.js";
import { stateOf, toAvailability, workOn } from "./availability.steps.js";

/** Step 2b: sets one option; the next level, if any, comes back. */
export async function setAvailabilityOption(ctx: BookingContext, productId: number | null, availabilityId: string, optionId: string, value: string): Promise<Availability> {
  bookingAccess(ctx.caller);
  return ctx.database.db.transaction(async (tx) => {
    const row = await workOn(ctx, tx, productId, availabilityId);
    const result = applyOption(stateOf(row), optionId, value);
    if ("problem" in result) throw bookingRefusal("INVALID_OPTION", result.problem.message, [result.problem]);
    const updated = await ctx.loaders.stores.availabilities.update(tx, row.id, { selections: result.selections });
    return toAvailability(availabilityView(stateOf(updated)));
  });
}
