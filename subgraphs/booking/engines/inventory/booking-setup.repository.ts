import { and, eq, gt, sql } from "drizzle-orm";
import { compiledSelect } from "../../../../drizzle/compiled-select.js";
import type { Executor } from "../../../../drizzle/database.js";
import { bookingSetups, slotInventory } from "../../../../drizzle/schema.js";
import { bookingSetupSchema, type BookingSetup } from "./booking-setup.js";

// Every booking step reads its product's setup: built once (compiled-select.ts). As text: the
// text is what a parsed setup is remembered by (parsedSetup).
const setupByProduct = compiledSelect<{ productId: number }, { setup: string }>((db) =>
  db.select({ setup: sql<string>`${bookingSetups.setup}::text` }).from(bookingSetups).where(eq(bookingSetups.productId, sql.placeholder("productId"))),
);

/**
 * Setups parsed, by their stored text. A flow reads its product's setup at nearly every step, and
 * parsing it through the schema was about 1.6 % of a booking flow's CPU, for the same text every
 * time. Keyed by the text itself, an entry can never stand for another setup, whoever changed it
 * and however often. Entries are frozen, so no caller can change what another will be handed.
 */
const parsedSetups = new Map<string, BookingSetup>();
const PARSED_SETUPS_KEPT = 1000;

function parsedSetup(text: string): BookingSetup {
  const known = parsedSetups.get(text);
  if (known) return known;
  // Stored setups were validated on the way in; parsing again fills defaults added since.
  const setup = deepFreeze(bookingSetupSchema.parse(JSON.parse(text)));
  // The oldest entry goes first when the map is full: the setups of products being booked now stay.
  if (parsedSetups.size >= PARSED_SETUPS_KEPT) parsedSetups.delete(parsedSetups.keys().next().value!);
  parsedSetups.set(text, setup);
  return setup;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export const bookingSetupRepository = {
  async setupOf(db: Executor, productId: number): Promise<BookingSetup | undefined> {
    const [row] = await setupByProduct(db, { productId });
    return row ? parsedSetup(row.setup) : undefined;
  },

  /**
   * Replaces the setup, and the capacity of every slot still to come that has sold places: a
   * capacity lowered below the places taken keeps those bookings (the row's capacity stops at
   * what is taken, as its check requires) and sells no more (docs/spec-decisions.md, "Bad input").
   */
  async save(db: Executor, productId: number, setup: BookingSetup, now: Date): Promise<void> {
    await db.transaction(async (tx) => {
      await tx
        .insert(bookingSetups)
        .values({ productId, setup, updatedAt: now })
        .onConflictDoUpdate({ target: bookingSetups.productId, set: { setup, updatedAt: now } });
      await tx
        .update(slotInventory)
        .set({ capacity: sql`greatest(${setup.capacityPerSlot}, ${slotInventory.taken})` })
        .where(and(eq(slotInventory.productId, productId), gt(slotInventory.startsAt, now)));
    });
  },

  async remove(db: Executor, productId: number): Promise<boolean> {
    const rows = await db.delete(bookingSetups).where(eq(bookingSetups.productId, productId)).returning({ id: bookingSetups.productId });
    return rows.length > 0;
  },
};
