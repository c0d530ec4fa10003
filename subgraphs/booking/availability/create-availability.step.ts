import { randomUUID } from "node:crypto";
import { bookingAccess } from "../booking.access.js";
import { bookingRefusal, viaEngine } from "../booking.errors.js";
import type { BookingContext } from "../booking.loaders.js";
import type { Availability } from "./availability.type.js";
import { availabilityView } from "./availability.view.js";
import { AVAILABILITY_LIFETIME_MS, dateRefusal, flowLanguage, offerOf, sellable, stateOf, toAvailability } from "./availability.steps.js";

/** Step 2a: makes the availability of a date and offers its first option. */
export async function createAvailability(ctx: BookingContext, productId: number, date: string): Promise<Availability> {
  const owner = bookingAccess(ctx.caller);
  const refusal = dateRefusal(date);
  if (refusal) throw refusal;
  const { product, engine, setup } = await sellable(ctx, productId);
  const now = ctx.clock.now();
  const slots = (await viaEngine(engine.slots(ctx.database.db, product, setup, date, now))).filter((slot) => slot.remaining >= setup.minParticipants);
  if (!slots.length) throw bookingRefusal("DATE_NOT_AVAILABLE", `Product ${productId} has no places on ${date}`);
  const row = await ctx.loaders.stores.availabilities.insert(ctx.database.db, {
    id: randomUUID(),
    productId,
    organisationId: owner.organisationId,
    accountId: owner.accountId,
    engineName: product.bookingEngineName,
    availabilityDate: date,
    language: flowLanguage(ctx),
    setup: offerOf(setup, slots),
    createdAt: now,
    expiresAt: new Date(now.getTime() + AVAILABILITY_LIFETIME_MS),
  });
  return toAvailability(availabilityView(stateOf(row)));
}
