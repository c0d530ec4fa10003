import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { rows, type Executor } from "../../../drizzle/executor.js";
import { bookingJobs } from "../../../drizzle/schema.js";

export type BookingJobRow = typeof bookingJobs.$inferSelect;

/** A job as a worker holds it: released or finished only while its lease is this worker's. */
type Held = Pick<BookingJobRow, "id" | "leaseId">;
const heldBy = (job: Held) => and(eq(bookingJobs.id, job.id), eq(bookingJobs.leaseId, job.leaseId!), isNull(bookingJobs.doneAt));

/** The booking jobs (confirmations): claimed under leases, finished, retried or handed back. */
export const bookingJobRepository = {
  /**
   * Takes up to `limit` due jobs that no live worker holds, in one statement and under one fresh
   * lease until `leasedUntil` (SKIP LOCKED: workers claiming at once take different jobs); each
   * claim counts an attempt.
   */
  async claimDue(db: Executor, now: Date, leasedUntil: Date, limit: number): Promise<BookingJobRow[]> {
    const due = db
      .select({ id: bookingJobs.id })
      .from(bookingJobs)
      .where(and(isNull(bookingJobs.doneAt), lte(bookingJobs.runAt, now), or(isNull(bookingJobs.lockedUntil), lt(bookingJobs.lockedUntil, now))))
      .orderBy(asc(bookingJobs.runAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    return db
      .update(bookingJobs)
      .set({ leaseId: randomUUID(), lockedUntil: leasedUntil, attempts: sql`${bookingJobs.attempts} + 1` })
      .where(inArray(bookingJobs.id, due))
      .returning();
  },

  /** Jobs due at `now` and not done, and when the oldest of them became due. */
  async dueCount(db: Executor, now: Date): Promise<{ due: number; oldest: Date | null }> {
    const [row] = await rows<{ due: number | string; oldest: string | Date | null }>(db, sql`
      select count(*) as due, min(run_at) as oldest
        from ${bookingJobs}
       where done_at is null and run_at <= ${now.toISOString()}::timestamptz`);
    return { due: Number(row?.due ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
  },

  /** The earliest moment a job not yet due, or held under a lease that may lapse, can be taken. */
  async nextTakeable(db: Executor, now: Date): Promise<Date | undefined> {
    const [next] = await rows<{ at: string | Date | null }>(db, sql`
      select min(greatest(run_at, coalesce(locked_until, run_at))) as at
        from ${bookingJobs}
       where done_at is null and (run_at > ${now.toISOString()}::timestamptz or locked_until >= ${now.toISOString()}::timestamptz)`);
    return next?.at ? new Date(next.at) : undefined;
  },

  /** Marks the job done if this worker still holds its lease; false when another worker took it over. */
  async finish(db: Executor, job: Held, now: Date): Promise<boolean> {
    const done = await db.update(bookingJobs).set({ doneAt: now, lockedUntil: null }).where(heldBy(job)).returning({ id: bookingJobs.id });
    return done.length === 1;
  },

  /** Puts the job off until `runAt`, noting why, while this worker holds it. */
  async retryAt(db: Executor, job: Held, runAt: Date, lastError: string): Promise<void> {
    await db.update(bookingJobs).set({ runAt, lockedUntil: null, lastError }).where(heldBy(job));
  },

  /** Gives the job back at once, its claim not counted as an attempt; false when this worker no longer held it. */
  async handBack(db: Executor, job: Held): Promise<boolean> {
    const given = await db.update(bookingJobs).set({ lockedUntil: null, leaseId: null, attempts: sql`${bookingJobs.attempts} - 1` }).where(heldBy(job)).returning({ id: bookingJobs.id });
    return given.length > 0;
  },
};
