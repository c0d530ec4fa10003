import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccountLimitSettings } from "../../core/config.js";
import { createLogger } from "../../core/logger.js";
import type { Database } from "../../drizzle/database.js";
import { AccountLimits } from "../../identity/account-limits.js";
import { ManualClock, openTestDatabase } from "../support/stack.js";

/**
 * Two AccountLimits on one database stand for two processes (or replicas): what one admits, the
 * other counts. A process on its own admits exactly the limits.
 */
describe("account limits shared through the database", () => {
  let database: Database;
  const made: AccountLimits[] = [];
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    for (const limits of made) await limits.close();
  });

  const settings = (overrides: Partial<AccountLimitSettings> = {}): AccountLimitSettings => ({ requests: 0, windowSeconds: 60, costCapacity: 0, costRestorePerSecond: 1, maxInFlight: 0, ...overrides });
  const processOf = (limits: Partial<AccountLimitSettings>, clock: ManualClock) => {
    const made_ = new AccountLimits(settings(limits), { db: database.db, clock, logger: createLogger("silent") });
    made.push(made_);
    return made_;
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("admits exactly the request limit in one process, and the next window afresh", async () => {
    const clock = new ManualClock(new Date("2026-11-28T10:00:00Z"));
    const one = processOf({ requests: 10 }, clock);
    const account = randomUUID();
    const decisions = [];
    for (let i = 0; i < 15; i++) decisions.push(await one.takeRequest(account));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    expect(decisions.slice(10).every((d) => !d.allowed && d.remaining === 0)).toBe(true);
    clock.advance(60);
    expect((await one.takeRequest(account)).allowed).toBe(true);
  });

  it("shares the request limit between two processes: together they admit about the limit, not twice it", async () => {
    const clock = new ManualClock(new Date("2026-11-28T10:10:00Z"));
    const [a, b] = [processOf({ requests: 10 }, clock), processOf({ requests: 10 }, clock)];
    const account = randomUUID();
    let allowed = 0;
    for (let i = 0; i < 30; i++) {
      if ((await (i % 2 ? b : a).takeRequest(account)).allowed) allowed++;
      // Each admission is reported at once (a tenth of 10 is one request); the other reads it at its next report.
      await pause(30);
    }
    expect(allowed).toBeGreaterThanOrEqual(10);
    expect(allowed).toBeLessThanOrEqual(12);
    // Another account is not touched by the first one's use.
    expect((await b.takeRequest(randomUUID())).allowed).toBe(true);
  });

  it("lets two processes take no more than the bucket holds for heavy operations, even at the same instant", async () => {
    const clock = new ManualClock(new Date("2026-11-28T10:20:00Z"));
    const [a, b] = [processOf({ costCapacity: 1000, costRestorePerSecond: 10 }, clock), processOf({ costCapacity: 1000, costRestorePerSecond: 10 }, clock)];
    const account = randomUUID();
    // Both know the account before the race (an empty bucket each).
    await Promise.all([a.admitCost(account, 1), b.admitCost(account, 1)]);
    const decisions = await Promise.all([a.admitCost(account, 600), b.admitCost(account, 600)]);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(1);
    const refused = decisions.find((d) => !d.allowed)!;
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: expect.any(Number) });
    if (!refused.allowed) {
      // 602 taken of 1000: 600 more need 202 to drain at 10 a second.
      expect(refused.retryAfterSeconds).toBe(21);
      expect(refused.message).toMatch(/estimated cost is 600; 398 of the account's 1000 points are free/);
    }
    // The bucket drains: 21 seconds later the other process has room again.
    clock.advance(21);
    expect((await b.admitCost(account, 600)).allowed).toBe(true);
  });

  it("counts small charges locally and reports them, refunds what an operation did not use, and takes delivered events on credit", async () => {
    const clock = new ManualClock(new Date("2026-11-28T10:30:00Z"));
    const [a, b] = [processOf({ costCapacity: 1000, costRestorePerSecond: 10 }, clock), processOf({ costCapacity: 1000, costRestorePerSecond: 10 }, clock)];
    const account = randomUUID();
    const first = await a.admitCost(account, 50);
    expect(first).toMatchObject({ allowed: true, status: { maximumAvailable: 1000, currentlyAvailable: 950, restoreRate: 10 } });
    expect(a.refund(account, 30)).toMatchObject({ currentlyAvailable: 980 });
    // Debt: delivered subscription events are charged past the budget.
    a.charge(account, 2000);
    await pause(SYNC_WAIT_MS);
    const refused = await b.admitCost(account, 50);
    expect(refused.allowed).toBe(false);
    expect(refused.status.currentlyAvailable).toBe(0);
    // 2020 in the bucket: 1070 must drain before 50 fit again.
    clock.advance(107);
    expect((await b.admitCost(account, 50)).allowed).toBe(true);
  });

  it("caps the operations an account has in flight, and frees the place when one is answered", () => {
    const clock = new ManualClock(new Date("2026-11-28T10:40:00Z"));
    const limits = processOf({ maxInFlight: 2 }, clock);
    const account = randomUUID();
    const first = limits.enter(account);
    const second = limits.enter(account);
    expect(typeof first).toBe("function");
    expect(typeof second).toBe("function");
    expect(limits.enter(account)).toMatchObject({ reason: "IN_FLIGHT", retryAfterSeconds: 1 });
    expect(typeof limits.enter(randomUUID())).toBe("function");
    (first as () => void)();
    (first as () => void)();
    const third = limits.enter(account);
    expect(typeof third).toBe("function");
    expect(limits.enter(account)).toMatchObject({ reason: "IN_FLIGHT" });
  });
});

/** Longer than a report interval and a report's round trip. */
const SYNC_WAIT_MS = 600;
