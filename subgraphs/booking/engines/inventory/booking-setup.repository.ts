import { eq } from "drizzle-orm";
import type { Executor } from "../../../../drizzle/database.js";
import { bookingSetups } from "../../../../drizzle/schema.js";
import { bookingSetupSchema, type BookingSetup } from "./booking-setup.js";

export const bookingSetupRepository = {
  async setupOf(db: Executor, productId: number): Promise<BookingSetup | undefined> {
    const [row] = await db.select({ setup: bookingSetups.setup }).from(bookingSetups).where(eq(bookingSetups.productId, productId));
    // Stored setups were validated on the way in; parsing again fills defaults added since.
    return row ? bookingSetupSchema.parse(row.setup) : undefined;
  },

  async save(db: Executor, productId: number, setup: BookingSetup, now: Date): Promise<void> {
    await db
      .insert(bookingSetups)
      .values({ productId, setup, updatedAt: now })
      .onConflictDoUpdate({ target: bookingSetups.productId, set: { setup, updatedAt: now } });
  },

  async remove(db: Executor, productId: number): Promise<boolean> {
    const rows = await db.delete(bookingSetups).where(eq(bookingSetups.productId, productId)).returning({ id: bookingSetups.productId });
    return rows.length > 0;
  },
};
