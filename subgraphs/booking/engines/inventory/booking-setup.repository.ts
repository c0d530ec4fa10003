import { and, eq, gt, sql } from "drizzle-orm";
import { compiledSelect } from "../../../../drizzle/compiled-select.js";
import type { Executor } from "../../../../drizzle/database.js";
import { bookingSetups, slotInventory } from "../../../../drizzle/schema.js";
import { bookingSetupSchema, type BookingSetup } from "./booking-setup.schema.js";

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
/**
 * Bounded by the texts' length, not their number: a partner may store setups up to the body limit
 * (1 MB), and a thousand of those must not take gigabytes. A setup is a few kB; one above 64 kB
 * is parsed at every read, as before.
 */
const PARSED_SETUPS_CHARS = 4 * 1024 * 1024;
const PARSED_SETUP_MAX_CHARS = 64 * 1024;
let parsedSetupsChars = 0;

function parsedSetup(text: string): BookingSetup {
  const known = parsedSetups.get(text);
  if (known) return known;
  // Stored setups were validated on the way in; parsing again fills defaults added since.
  const setup = deepFreeze(bookingSetupSchema.parse(JSON.parse(text)));
  if (text.length > PARSED_SETUP_MAX_CHARS) return setup;
  // The oldest entries go first when the bound is reached: the setups of products being booked now stay.
  while (parsedSetupsChars + text.length > PARSED_SETUPS_CHARS) {
    const oldest = parsedSetups.keys().next().value!;
    parsedSetups.delete(oldest);
    parsedSetupsChars -= oldest.length;
  }
  parsedSetups.set(text, setup);
  parsedSetupsChars += text.length;
  return setup;
}

/** What the remembered setups hold (tests read it). */
export function parsedSetupsHeld(): { setups: number; chars: number } {
  return { setups: parsedSetups.size, chars: parsedSetupsChars };
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

  /** Setups of products that have none yet (products just made: no slot of theirs exists), in one statement. */
  async insertNew(db: Executor, setups: readonly { productId: number; setup: BookingSetup }[], now: Date): Promise<void> {
    if (setups.length) await db.insert(bookingSetups).values(setups.map(({ productId, setup }) => ({ productId, setup, updatedAt: now })));
  },

  async remove(db: Executor, productId: number): Promise<boolean> {
    const rows = await db.delete(bookingSetups).where(eq(bookingSetups.productId, productId)).returning({ id: bookingSetups.productId });
    return rows.length > 0;
  },
};
