import { eq, sql } from "drizzle-orm";
import type { Executor } from "../drizzle/database.js";
import { accountLimits } from "../drizzle/schema.js";

/** What one process admitted for an account since it last reported. */
export interface AccountUsage {
  accountId: string;
  /** Cost points charged less those given back (negative when more came back than went out). */
  cost: number;
  /** The rate window the requests were counted in, and how many. */
  windowIndex: number;
  requests: number;
}

/** An account's shared use after the report: the bucket's level at `costUpdatedAt`, the window's requests. */
export interface SharedUsage {
  accountId: string;
  costLevel: number;
  costUpdatedAt: Date;
  windowIndex: number;
  windowRequests: number;
}

/** The bucket's level drained at `restore` points a second from the row's time to the new report's (never backwards). */
const drainedLevel = (restorePerSecond: number) =>
  sql`greatest(0, ${accountLimits.costLevel} - greatest(0, extract(epoch from excluded.cost_updated_at - ${accountLimits.costUpdatedAt}))::float8 * ${restorePerSecond}::float8)`;

export const accountLimitsRepository = {
  /**
   * Adds each account's usage to the shared row in one statement and returns the rows as they now
   * stand. The bucket drains at `restorePerSecond` between two reports (never below empty, never
   * backwards when processes' clocks disagree); requests of an earlier window than the row's are
   * dropped, those of a later one start it afresh. A report of nothing reads the row (and creates it).
   */
  async report(db: Executor, usage: AccountUsage[], now: Date, restorePerSecond: number): Promise<SharedUsage[]> {
    if (usage.length === 0) return [];
    const rows = await db
      .insert(accountLimits)
      .values(usage.map((u) => ({ accountId: u.accountId, costLevel: u.cost, costUpdatedAt: now, windowIndex: u.windowIndex, windowRequests: u.requests })))
      .onConflictDoUpdate({
        target: accountLimits.accountId,
        set: {
          costLevel: sql`greatest(0, ${drainedLevel(restorePerSecond)} + excluded.cost_level)`,
          costUpdatedAt: sql`greatest(${accountLimits.costUpdatedAt}, excluded.cost_updated_at)`,
          windowRequests: sql`case when ${accountLimits.windowIndex} = excluded.window_index then ${accountLimits.windowRequests} + excluded.window_requests when ${accountLimits.windowIndex} < excluded.window_index then excluded.window_requests else ${accountLimits.windowRequests} end`,
          windowIndex: sql`greatest(${accountLimits.windowIndex}, excluded.window_index)`,
        },
      })
      .returning();
    return rows.map((row) => ({ ...row, costLevel: Math.max(0, row.costLevel) }));
  },

  /**
   * Adds `cost` to the account's bucket only if it fits under `capacity` once drained, deciding in
   * the one statement, so processes charging at once cannot both take the last room. Returns the
   * level after the charge, or (refused) the level as it stands.
   */
  async chargeIfRoom(
    db: Executor,
    charge: { accountId: string; cost: number; windowIndex: number },
    now: Date,
    settings: { capacity: number; restorePerSecond: number },
  ): Promise<{ admitted: boolean; costLevel: number; costUpdatedAt: Date }> {
    const level = drainedLevel(settings.restorePerSecond);
    const [charged] = await db
      .insert(accountLimits)
      .values({ accountId: charge.accountId, costLevel: charge.cost, costUpdatedAt: now, windowIndex: charge.windowIndex, windowRequests: 0 })
      .onConflictDoUpdate({
        target: accountLimits.accountId,
        set: { costLevel: sql`${level} + excluded.cost_level`, costUpdatedAt: sql`greatest(${accountLimits.costUpdatedAt}, excluded.cost_updated_at)` },
        setWhere: sql`${level} + excluded.cost_level <= ${settings.capacity}::float8`,
      })
      .returning({ costLevel: accountLimits.costLevel, costUpdatedAt: accountLimits.costUpdatedAt });
    if (charged) return { admitted: true, ...charged };
    const [current] = await db.select({ costLevel: accountLimits.costLevel, costUpdatedAt: accountLimits.costUpdatedAt }).from(accountLimits).where(eq(accountLimits.accountId, charge.accountId));
    return { admitted: false, costLevel: Math.max(0, current?.costLevel ?? 0), costUpdatedAt: current?.costUpdatedAt ?? now };
  },
};
