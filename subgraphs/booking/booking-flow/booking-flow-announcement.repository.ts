import { and, asc, eq, inArray, lte, min, sql } from "drizzle-orm";
import type { Executor } from "../../../drizzle/executor.js";
import { bookingFlowAnnouncements } from "../../../drizzle/schema.js";

export type BookingFlowAnnouncementRow = typeof bookingFlowAnnouncements.$inferSelect;

/** The outbox of booking-flow changes the catalogue is still to be told of. */
export const bookingFlowAnnouncementRepository = {
  /** The product's change, replacing one not yet told; its version is taken after the row's lock. */
  async upsert(db: Executor, productId: number, bookable: boolean, now: Date): Promise<void> {
    await db
      .insert(bookingFlowAnnouncements)
      .values({ productId, bookable, changedAt: now, retryAt: now })
      .onConflictDoUpdate({
        target: bookingFlowAnnouncements.productId,
        // Taken after the row's lock, so versions follow the order in which changes were made.
        set: { bookable, changedAt: now, version: sql`nextval('booking_flow_versions')`, retryAt: now, attempts: 0, lastError: null },
      });
  },

  async earliestRetryAt(db: Executor): Promise<Date | undefined> {
    const [next] = await db.select({ at: min(bookingFlowAnnouncements.retryAt) }).from(bookingFlowAnnouncements);
    return next?.at ?? undefined;
  },

  /**
   * Up to `limit` announcements due at `now` (of `productIds` only, when given), claimed until
   * `claimedUntil`: rows another teller holds are skipped (SKIP LOCKED), and each claim counts an attempt.
   */
  async claimDue(db: Executor, now: Date, claimedUntil: Date, limit: number, productIds?: number[]): Promise<BookingFlowAnnouncementRow[]> {
    const t = bookingFlowAnnouncements;
    const due = db
      .select({ productId: t.productId })
      .from(t)
      .where(and(lte(t.retryAt, now), productIds ? inArray(t.productId, productIds) : undefined))
      .orderBy(asc(t.retryAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    return db
      .update(t)
      .set({ retryAt: claimedUntil, attempts: sql`${t.attempts} + 1` })
      .where(inArray(t.productId, due))
      .returning();
  },

  /** Removes the announcement told, unless a newer change of the product replaced it meanwhile. */
  async deleteTold(db: Executor, row: Pick<BookingFlowAnnouncementRow, "productId" | "version">): Promise<void> {
    const t = bookingFlowAnnouncements;
    await db.delete(t).where(and(eq(t.productId, row.productId), eq(t.version, row.version)));
  },

  /** Puts a failed telling off until `retryAt`, unless a newer change replaced it meanwhile. */
  async postpone(db: Executor, row: Pick<BookingFlowAnnouncementRow, "productId" | "version">, retryAt: Date, lastError: string): Promise<void> {
    const t = bookingFlowAnnouncements;
    await db.update(t).set({ retryAt, lastError }).where(and(eq(t.productId, row.productId), eq(t.version, row.version)));
  },
};
