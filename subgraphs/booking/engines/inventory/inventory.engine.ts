import { createHash } from "node:crypto";
import type { BookingEngineAdapter, ConfirmationOutcome, Slot } from "../booking.engine.js";
import { bookingSetupRepository } from "./booking-setup.repository.js";
import { slotInventoryRepository } from "./slot-inventory.repository.js";
import type { BookingSetup } from "./booking-setup.schema.js";
import { addDays, instantOf, localDate, weekdayOf, zonedText } from "../../../../core/local-time.js";

interface WeeklyPeriod {
  startDate?: string;
  endDate?: string;
  closedDayList?: string[];
  [day: string]: unknown;
}
type OpeningHours = { start: string; end: string }[] | null;

/** Local start times of a product on a date, from its weekly and spontaneous periods. */
export function startTimesOn(periods: Record<string, unknown> | null, setup: BookingSetup, date: string): string[] {
  const times = new Set<string>();
  const weekly = (periods?.weeklyPeriods as WeeklyPeriod[] | undefined) ?? [];
  const day = weekdayOf(date);
  for (const period of weekly) {
    if ((period.startDate && date < period.startDate) || (period.endDate && date > period.endDate)) continue;
    if ((period.closedDayList ?? []).includes(date)) continue;
    const opening = period[day] as { open?: boolean; hours?: OpeningHours } | undefined;
    if (!opening?.open) continue;
    if (setup.startTimes?.length) {
      // Start times fall within the day's opening hours when the period gives them.
      for (const time of setup.startTimes) if (!opening.hours || opening.hours.some((h) => time >= h.start && time < h.end)) times.add(time);
    } else {
      times.add(opening.hours?.[0]?.start ?? "00:00");
    }
  }
  // A spontaneous event is a one-off start, even on a day the weekly periods keep closed.
  const events = ((periods?.spontaneousPeriod as { eventDateList?: string[] } | undefined)?.eventDateList ?? []) as string[];
  for (const event of events) if (event.slice(0, 10) === date) times.add(event.slice(11, 16));
  return [...times].sort();
}

/** A short code for customer care, derived from the booking id so a retried confirmation gives the same one. */
export function inventoryBookingCode(bookingId: string): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const digest = createHash("sha256").update(bookingId).digest();
  let code = "";
  for (let i = 0; i < 8; i++) code += alphabet[digest[i] % alphabet.length];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * The built-in inventory engine: slots from the product's periods and its setup, places counted
 * in slot_inventory (whose check constraint refuses overbooking), and a simulated supplier that
 * confirms a few seconds after payment unless the slot has since been withdrawn.
 */
export const inventoryEngine: BookingEngineAdapter = {
  name: "INVENTORY",

  async setupOf(db, product) {
    // A supplier system's product is booked in that system, never by our own inventory.
    if (product.bookingEngineKind !== "INVENTORY") return undefined;
    return bookingSetupRepository.setupOf(db, product.id);
  },

  async availableDates(db, product, setup, from, to, now) {
    const firstSellable = localDate(now, setup.timeZone);
    const lastSellable = addDays(firstSellable, setup.bookingHorizonDays);
    const start = from > firstSellable ? from : firstSellable;
    const end = to < lastSellable ? to : lastSellable;
    if (start > end) return [];
    const taken = await slotInventoryRepository.takenBetween(db, product.id, instantOf(start, "00:00", setup.timeZone), instantOf(addDays(end, 1), "00:00", setup.timeZone));
    const dates: string[] = [];
    for (let date = start; date <= end; date = addDays(date, 1)) {
      const open = startTimesOn(product.availabilityPeriods, setup, date).some((time) => {
        const startsAt = instantOf(date, time, setup.timeZone);
        return startsAt > now && remaining(setup, taken.get(startsAt.getTime())) >= setup.minParticipants;
      });
      if (open) dates.push(date);
    }
    return dates;
  },

  async slots(db, product, setup, date, now) {
    // Outside the sellable window there is nothing to count, and a date like 9999-12-31 would ask
    // the database about year 10000, which PostgreSQL cannot parse from a JavaScript Date.
    const firstSellable = localDate(now, setup.timeZone);
    if (date < firstSellable || date > addDays(firstSellable, setup.bookingHorizonDays)) return [];
    const taken = await slotInventoryRepository.takenBetween(db, product.id, instantOf(date, "00:00", setup.timeZone), instantOf(addDays(date, 1), "00:00", setup.timeZone));
    return startTimesOn(product.availabilityPeriods, setup, date)
      .map((time): Slot => {
        const startsAt = instantOf(date, time, setup.timeZone);
        return { startsAt, time, local: zonedText(startsAt, setup.timeZone), remaining: remaining(setup, taken.get(startsAt.getTime())) };
      })
      .filter((slot) => slot.startsAt > now);
  },

  async reserve(tx, product, setup, startsAt, places) {
    return (await slotInventoryRepository.take(tx, product.id, startsAt, places, setup.capacityPerSlot)) && places <= setup.capacityPerSlot;
  },

  async release(tx, productId, startsAt, places) {
    await slotInventoryRepository.giveBack(tx, productId, startsAt, places);
  },

  async confirm(db, booking, facts): Promise<ConfirmationOutcome> {
    const setup = await bookingSetupRepository.setupOf(db, booking.productId);
    if (!setup || !facts) return { outcome: "REJECTED", reason: "The product is no longer sold" };
    const date = localDate(booking.startsAt, setup.timeZone);
    const stillOffered = startTimesOn(facts.availabilityPeriods, setup, date).some(
      (time) => instantOf(date, time, setup.timeZone).getTime() === booking.startsAt.getTime(),
    );
    if (!stillOffered) return { outcome: "REJECTED", reason: "The supplier has withdrawn this start time" };
    return { outcome: "CONFIRMED", bookingCode: inventoryBookingCode(booking.id), bookingExternalId: `INV-${booking.id}` };
  },

  async cancel() {
    // Places are given back by the booking flow in its own transaction; the inventory keeps no other record.
  },
};

/**
 * A slot's row carries the setup's capacity, or its taken places when the capacity was lowered
 * below them (saving a setup updates the rows to come); a slot never sold has the setup's. A
 * capacity below the places taken leaves none, not fewer than none.
 */
function remaining(setup: BookingSetup, row: { taken: number; capacity: number } | undefined): number {
  return row ? Math.max(0, Math.min(row.capacity, setup.capacityPerSlot) - row.taken) : setup.capacityPerSlot;
}
