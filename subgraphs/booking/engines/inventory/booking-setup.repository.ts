import { and, eq, gt, sql } from "drizzle-orm";
import { compiledSelect } from "../../../../drizzle/compiled-select.js";
import type { Executor } from "../../../../drizzle/database.js";
import { bookingSetups, slotInventory } from "../../../../drizzle/schema.js";
import { bookingSetupSchema, type BookingSetup } from "./booking-setup.js";

// Every booking step reads its product's setup: built once (compiled-select.ts).
const setupByProduct = compiledSelect<{ productId: number }, { setup: unknown }>((db) => db.select({ setup: bookingSetups.setup }).from(bookingSetups).where(eq(bookingSetups.productId, sql.placeholder("productId"))));

export const bookingSetupRepository = {
  async setupOf(db: Executor, productId: number): Promise<BookingSetup | undefined> {
    const [row] = await setupByProduct(db, { productId });
    // Stored setups were validated on the way in; parsing again fills defaults added since.
    return row ? bookingSetupSchema.parse(row.setup) : undefined;
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
