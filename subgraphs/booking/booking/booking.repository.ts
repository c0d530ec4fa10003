import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { anyOf, compiledSelect, compiledWrite } from "../../../drizzle/compiled-select.js";
import type { Executor } from "../../../drizzle/database.js";
import { bookingJobs, bookings } from "../../../drizzle/schema.js";

export type BookingRow = typeof bookings.$inferSelect;
export type BookingPatch = Partial<Omit<BookingRow, "id" | "availabilityId" | "productId" | "creationDate">>;

/** Statuses that hold places in the slot. */
export const HOLDING_STATUSES = ["ON_HOLD", "PENDING_CONFIRM", "CONFIRMED"] as const;

// Every booking step reads its booking: built once (compiled-select.ts).
const bookingsByIds = compiledSelect<{ ids: string[] }, BookingRow>((db) => db.select().from(bookings).where(anyOf(bookings.id, "ids")));
const bookingForUpdate = compiledSelect<{ id: string }, BookingRow>((db) => db.select().from(bookings).where(eq(bookings.id, sql.placeholder("id"))).for("update"));
// And writes it, with every column returned: built once per set of columns written.
const insertBooking = compiledWrite<typeof bookings.$inferInsert, Record<string, never>, BookingRow>(bookings, (db, row) =>
  db.insert(bookings).values(row as typeof bookings.$inferInsert).returning(),
);
const updateBooking = compiledWrite<BookingPatch, { id: string }, BookingRow>(bookings, (db, patch) => db.update(bookings).set(patch).where(eq(bookings.id, sql.placeholder("id"))).returning());
const transitionBooking = compiledWrite<BookingPatch, { id: string; from: BookingRow["status"] }, BookingRow>(bookings, (db, patch) =>
  db
    .update(bookings)
    .set(patch)
    .where(and(eq(bookings.id, sql.placeholder("id")), eq(bookings.status, sql.placeholder("from"))))
    .returning(),
);

export const bookingRepository = {
  async insert(db: Executor, row: typeof bookings.$inferInsert): Promise<BookingRow> {
    const [inserted] = await insertBooking(db, row, {});
    return inserted;
  },

  async byIds(db: Executor, ids: readonly string[]): Promise<BookingRow[]> {
    return ids.length ? bookingsByIds(db, { ids: [...ids] }) : [];
  },

  async forUpdate(db: Executor, id: string): Promise<BookingRow | undefined> {
    const [row] = await bookingForUpdate(db, { id });
    return row;
  },

  async onAvailability(db: Executor, availabilityId: string): Promise<BookingRow[]> {
    return db.select().from(bookings).where(eq(bookings.availabilityId, availabilityId));
  },

  async update(db: Executor, id: string, patch: BookingPatch): Promise<BookingRow> {
    const [row] = await updateBooking(db, patch, { id });
    return row;
  },

  /** Changes the status only from the expected one, so two writers cannot both move a booking. */
  async transition(db: Executor, id: string, from: BookingRow["status"], patch: BookingPatch): Promise<BookingRow | undefined> {
    const [row] = await transitionBooking(db, patch, { id, from });
    return row;
  },

  async addJob(db: Executor, bookingId: string, kind: string, runAt: Date): Promise<void> {
    await db.insert(bookingJobs).values({ bookingId, kind, runAt, createdAt: runAt }).onConflictDoNothing();
  },

  /** Up to `limit` ON_HOLD bookings whose hold ended at `now` or before. */
  async lapsedHoldIds(db: Executor, now: Date, limit: number): Promise<string[]> {
    const due = await db.select({ id: bookings.id }).from(bookings).where(and(eq(bookings.status, "ON_HOLD"), lte(bookings.holdExpiresAt, now))).limit(limit);
    return due.map((row) => row.id);
  },

  /**
   * Erases the answers not yet erased of ON_HOLD bookings last answered before `unconfirmedBefore`
   * and of bookings starting before `startedBefore`; how many.
   */
  async redactAnswers(db: Executor, now: Date, unconfirmedBefore: Date, startedBefore: Date): Promise<number> {
    const redacted = await db
      .update(bookings)
      .set({ answers: {}, answersRedactedAt: now })
      .where(
        and(
          isNull(bookings.answersRedactedAt),
          sql`${bookings.answers} <> '{}'::jsonb`,
          sql`((${bookings.status} = 'ON_HOLD' and ${bookings.answersUpdatedAt} <= ${unconfirmedBefore.toISOString()}::timestamptz)
               or ${bookings.startsAt} <= ${startedBefore.toISOString()}::timestamptz)`,
        ),
      )
      .returning({ id: bookings.id });
    return redacted.length;
  },
};
