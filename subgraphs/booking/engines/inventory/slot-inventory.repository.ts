import { and, eq, gte, lt, sql } from "drizzle-orm";
import { compiledSelect } from "../../../../drizzle/compiled-select.js";
import type { Executor } from "../../../../drizzle/executor.js";
import { slotInventory } from "../../../../drizzle/schema.js";

// Every dates, options, prices and booking step reads the slots' places: built once (compiled-select.ts).
const slotsTaken = compiledSelect<{ productId: number; from: string; to: string }, { startsAt: Date; taken: number; capacity: number }>((db) =>
  db
    .select({ startsAt: slotInventory.startsAt, taken: slotInventory.taken, capacity: slotInventory.capacity })
    .from(slotInventory)
    .where(and(eq(slotInventory.productId, sql.placeholder("productId")), gte(slotInventory.startsAt, sql.placeholder("from")), lt(slotInventory.startsAt, sql.placeholder("to")))),
);

/** The places taken of the built-in inventory's slots. */
export const slotInventoryRepository = {
  /** The slots of the product starting in [from, to), by their start's time in milliseconds. */
  async takenBetween(db: Executor, productId: number, from: Date, to: Date): Promise<Map<number, { taken: number; capacity: number }>> {
    // Placeholders skip the column's encoder: the instants go as ISO 8601 text, which PostgreSQL reads as timestamptz.
    const rows = await slotsTaken(db, { productId, from: from.toISOString(), to: to.toISOString() });
    return new Map(rows.map((r) => [r.startsAt.getTime(), { taken: r.taken, capacity: r.capacity }]));
  },

  /**
   * Takes the places only if they fit under the slot's capacity and `capacity` (the current
   * setup's), in one statement: the row lock serialises racing bookings. Whether they were taken.
   */
  async take(db: Executor, productId: number, startsAt: Date, places: number, capacity: number): Promise<boolean> {
    const rows = await db
      .insert(slotInventory)
      .values({ productId, startsAt, capacity, taken: places })
      .onConflictDoUpdate({
        target: [slotInventory.productId, slotInventory.startsAt],
        set: { taken: sql`${slotInventory.taken} + ${places}` },
        // The current setup's capacity bounds too: a row lowered to its taken places may have some given back.
        setWhere: sql`${slotInventory.taken} + ${places} <= least(${slotInventory.capacity}, ${capacity})`,
      })
      .returning({ taken: slotInventory.taken });
    return rows.length === 1;
  },

  async giveBack(db: Executor, productId: number, startsAt: Date, places: number): Promise<void> {
    await db
      .update(slotInventory)
      .set({ taken: sql`greatest(${slotInventory.taken} - ${places}, 0)` })
      .where(and(eq(slotInventory.productId, productId), eq(slotInventory.startsAt, startsAt)));
  },
};
