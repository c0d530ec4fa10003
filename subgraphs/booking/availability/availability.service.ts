import type { Caller } from "../../../core/caller.js";
import { isUuid } from "../../../core/uuid.js";
import type { Database } from "../../../drizzle/database.js";
import { owns } from "../booking.access.js";
import type { BookingContext } from "../booking.loaders.js";
import { availableDates, nextAvailableDates } from "./availability-dates.step.js";
import { availabilityPrices } from "./availability-prices.step.js";
import { availabilityRepository } from "./availability.repository.js";
import { stateOf, toAvailability } from "./availability.steps.js";
import type { Availability } from "./availability.type.js";
import { availabilityView } from "./availability.view.js";
import { createAvailability } from "./create-availability.step.js";
import { setAvailabilityOption } from "./set-option.step.js";
import { setAvailabilityQuantities } from "./set-quantities.step.js";

/** The availability steps the resolvers call: each step lives in its own `*.step.ts` file. */
export const availabilityService = {
  /** The availability when the caller owns it, else null: `node(id)` and federation references. */
  async visible(ctx: BookingContext, availabilityId: string): Promise<Availability | null> {
    const row = isUuid(availabilityId) ? await ctx.loaders.stores.availabilities.byId(ctx.database.db, availabilityId) : undefined;
    if (!row || !owns(ctx.caller, { organisationId: row.organisationId, accountId: row.accountId })) return null;
    return toAvailability(availabilityView(stateOf(row)));
  },

  /** Which of these availabilities the caller owns (the node subgraph's check). */
  async ownedKeys(database: Database, caller: Caller, keys: readonly string[]): Promise<Set<string>> {
    const rows = await availabilityRepository.byIds(database.db, keys.filter(isUuid));
    return new Set(rows.filter((row) => owns(caller, { organisationId: row.organisationId, accountId: row.accountId })).map((row) => row.id));
  },

  /** Step 1: dates with places in a range; defaults to the 31 days from today. */
  dates: availableDates,
  /** Step 1 alternative: the first month with dates within a year. */
  nextDates: nextAvailableDates,
  /** Step 2a: the availability of a date, with its first option. */
  create: createAvailability,
  /** Step 2b: one option set. */
  setOption: setAvailabilityOption,
  /** Step 3a: the tickets in a currency. */
  prices: availabilityPrices,
  /** Step 3b: quantities. */
  setQuantities: setAvailabilityQuantities,
};
