import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { rows, sharedExecutor, type Database } from "../../drizzle/database.js";
import { openTestDatabase } from "../support/stack.js";

/** A statement that keeps the database busy for a few milliseconds, the same on both drivers. */
const busy = sql`select count(*)::int as n from generate_series(1, 100000)`;

describe("the database's connections, shared between accounts in turn", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });

  it("runs another account's statement after the ones running, not after a burst queued before it", async () => {
    if (database.driver !== "pglite") {
      // Every connection of the pool opened first: a victim that had to wait for a new one would
      // see more of the burst's statements end meanwhile, the more the busier the machine.
      await Promise.all(Array.from({ length: 5 }, () => rows(database.forAccount(`opener-${randomUUID()}`).db, sql`select pg_sleep(0.05)`)));
      // Until the share has forgotten those accounts (it looks back a second).
      await new Promise((resolve) => setTimeout(resolve, 1_100));
    }
    const attacker = database.forAccount(`attacker-${randomUUID()}`);
    const victim = database.forAccount(`victim-${randomUUID()}`);
    const finished: string[] = [];
    const burst = Array.from({ length: 40 }, (_, i) => rows(attacker.db, busy).then(() => finished.push(`attacker${i}`)));
    // Once the burst is queued behind the connections it filled.
    await expect.poll(() => database.poolUse().statementsQueued).toBeGreaterThan(20);
    const victimDone = rows(victim.db, sql`select 1 as one`).then(() => finished.push("victim"));
    await Promise.all([...burst, victimDone]);
    // The victim waited for what was running when it came (the embedded database's two places),
    // and for nothing queued. On PostgreSQL it runs beside the 3 of the tests' pools of 5 that one
    // account may hold alone (2 once the victim has come), on a connection the pool opened before (a few of the burst's
    // statements end meanwhile): far from the 40 it would have waited for first come, first served.
    const before = finished.indexOf("victim");
    expect(before).toBeLessThanOrEqual(database.driver === "pglite" ? 2 : 12);
    expect(finished).toHaveLength(41);
  });

  it("lets a lone account use every connection", async () => {
    const alone = database.forAccount(`alone-${randomUUID()}`);
    let answered = false;
    const answers = Promise.all(Array.from({ length: 10 }, () => rows<{ n: number }>(alone.db, busy))).finally(() => (answered = true));
    // More than one at once: the share holds an account back only while another waits. Looked at
    // on every turn of the event loop: a poll every 50 ms could miss statements of a few
    // milliseconds on a fast machine, and all of them on a busy one.
    let mostInFlight = 0;
    while (!answered) {
      mostInFlight = Math.max(mostInFlight, database.poolUse().statementsInFlight);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(mostInFlight).toBeGreaterThanOrEqual(2);
    expect((await answers).every(([row]) => row.n === 100000)).toBe(true);
    expect(database.poolUse().statementsQueued).toBe(0);
  });

  it("on PostgreSQL, runs at most two of an account's statements at once while another account uses the database, and half the pool alone", async () => {
    // When each statement began and ended on the server: how many ran at once there.
    const timed = sql`select extract(epoch from statement_timestamp())::float8 as began, extract(epoch from clock_timestamp())::float8 as ended from (select pg_sleep(0.04)) as slept`;
    const mostAtOnce = (spans: { began: number; ended: number }[]) => {
      const events = spans.flatMap(({ began, ended }) => [{ at: began, step: 1 }, { at: ended, step: -1 }]).sort((x, y) => x.at - y.at || x.step - y.step);
      let running = 0;
      let most = 0;
      for (const { step } of events) most = Math.max(most, (running += step));
      return most;
    };
    const burst = async (account: string) => (await Promise.all(Array.from({ length: 8 }, () => rows<{ began: number; ended: number }>(database.forAccount(account).db, timed)))).map(([row]) => row);
    // The embedded database runs one statement at a time whatever the share.
    const [alone, shared] = database.driver === "pglite" ? [1, 1] : [3, 2];

    // Alone: once the other tests' accounts have been quiet for the second the share looks back.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(mostAtOnce(await burst(`alone-${randomUUID()}`))).toBe(alone);

    const other = database.forAccount(`other-${randomUUID()}`);
    let otherDone = false;
    const steady = (async () => {
      while (!otherDone) {
        await rows(other.db, sql`select 1 as one`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await rows(other.db, sql`select 1 as one`);
    const spans = await burst(`beside-${randomUUID()}`);
    otherDone = true;
    await steady;
    expect(mostAtOnce(spans)).toBe(shared);
  });

  it("keeps one view an account, for its key lookups too, sharing the database's caches", () => {
    const account = `kept-${randomUUID()}`;
    const view = database.forAccount(account);
    expect(database.forAccount(account)).toBe(view);
    expect(view.forKeyLookups).toBe(database.forKeyLookups.forAccount(account));
    expect(view.forAccount("").db).toBe(database.db);
    expect(sharedExecutor(view.db)).toBe(database.db);
    expect(sharedExecutor(view.forKeyLookups.db)).toBe(database.forKeyLookups.db);
  });
});
