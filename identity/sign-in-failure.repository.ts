import { and, count, inArray, lte, min, sql } from "drizzle-orm";
import type { Executor } from "../drizzle/executor.js";
import { signInFailures } from "../drizzle/schema.js";

/** Failed sign-ins by key (a digested username or a client address): identity's table, read and written here alone. */
export const signInFailureRepository = {
  /** For each key with failures after `since`: how many, and the oldest of them. */
  async countsSince(db: Executor, keys: string[], since: Date): Promise<{ key: string; failures: number; oldest: Date | null }[]> {
    return db
      .select({ key: signInFailures.key, failures: count(), oldest: min(signInFailures.failedAt) })
      .from(signInFailures)
      .where(and(inArray(signInFailures.key, keys), sql`${signInFailures.failedAt} > ${since.toISOString()}::timestamptz`))
      .groupBy(signInFailures.key);
  },

  async insert(db: Executor, keys: string[], at: Date): Promise<void> {
    await db.insert(signInFailures).values(keys.map((key) => ({ key, failedAt: at })));
  },

  async deleteOfKey(db: Executor, key: string): Promise<void> {
    await db.delete(signInFailures).where(inArray(signInFailures.key, [key]));
  },

  /** Failures at or before `until`, of every key, removed: how many. */
  async deleteUntil(db: Executor, until: Date): Promise<number> {
    const removed = await db.delete(signInFailures).where(lte(signInFailures.failedAt, until)).returning({ id: signInFailures.id });
    return removed.length;
  },
};
