import { isUuid } from "../../../core/uuid.js";
import { notFound } from "../../../core/errors.js";
import { bookingAccess } from "../booking.access.js";
import { bookingRefusal, viaEngine } from "../booking.errors.js";
import type { BookingContext } from "../booking.loaders.js";
import { applyQuantities } from "../pricing/price.rules.js";
import type { Availability } from "./availability.type.js";
import { availabilityView, isOptionStepCompleted, unitsShown } from "./availability.view.js";
import { checkCurrency, chosenSlot, sellable, stateOf, toAvailability, workOn } from "./availability.steps.js";

/** Step 3b: quantities, checked against the unit rules and the places left in the slot. */
export async function setAvailabilityQuantities(
  ctx: BookingContext,
  expectedProductId: number | null,
  availabilityId: string,
  currencyCode: string | null,
  changes: { unitId: string; value: number }[],
): Promise<Availability> {
  bookingAccess(ctx.caller);
  const currency = checkCurrency(currencyCode);
  const found = isUuid(availabilityId) ? await ctx.loaders.stores.availabilities.byId(ctx.database.db, availabilityId) : undefined;
  if (!found || (expectedProductId !== null && found.productId !== expectedProductId)) throw notFound("No availability has this id");
  const productId = found.productId;
  const { product, engine, setup: currentSetup } = await sellable(ctx, productId);
  // A supplier's system is asked before the transaction (a network call must not hold one); a
  // date's slots cover whatever start time the selections hold by then.
  const unlocked = engine.upstream ? found : undefined;
  const upstreamSlots = unlocked ? await viaEngine(engine.slots(ctx.database.db, product, currentSetup, unlocked.availabilityDate, ctx.clock.now())) : undefined;
  return ctx.database.db.transaction(async (tx) => {
    const row = await workOn(ctx, tx, productId, availabilityId);
    const state = stateOf(row);
    if (!isOptionStepCompleted(state.setup, state.selections)) throw bookingRefusal("OPTIONS_INCOMPLETE", "Set every option before choosing quantities");
    if (!row.currency) throw bookingRefusal("PRICING_INCOMPLETE", "GET prices first: it fixes the currency of the flow");
    if (row.currency !== currency) throw bookingRefusal("CURRENCY_CHANGE", `This flow runs in ${row.currency}; start a new availability for another currency`);
    const slots = upstreamSlots ?? (await engine.slots(tx, product, currentSetup, row.availabilityDate, ctx.clock.now()));
    const slot = chosenSlot({ ...state.setup, timeZone: currentSetup.timeZone }, state.selections, row.availabilityDate, slots);
    const { quantities, problems } = applyQuantities(unitsShown(state.setup, state.selections), state.quantities, changes, slot?.remaining ?? 0);
    if (problems.length) throw bookingRefusal("INVALID_QUANTITIES", problems.map((p) => p.message).join("; "), problems);
    const view = availabilityView({ ...state, quantities });
    await ctx.loaders.stores.availabilities.update(tx, row.id, { quantities, quotedTotal: view.priced?.total.retail ?? null });
    return toAvailability(view);
  });
}
