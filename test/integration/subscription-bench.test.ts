import { describe, expect, it } from "vitest";
import { formatSubscriptionBench, runSubscriptionBench } from "../../bench/subscriptions.js";
import { openOwnTestDatabase } from "../support/stack.js";

/**
 * `npm run bench:subscriptions` at a tiny scale, so that the script cannot rot: its shape, never its
 * timings. It runs with the PostgreSQL run only (vitest.config.ts), the database the bench needs.
 */
describe("the subscription benchmark", () => {
  it("holds idle subscribers over real graphql-ws sockets, times the watched subscriber's messages and reports memory per idle subscriber", async () => {
    const own = await openOwnTestDatabase();
    try {
      const result = await runSubscriptionBench({
        database: own.database,
        levels: [
          { subscribers: 6, perConnection: 1 },
          { subscribers: 8, perConnection: 4 },
        ],
        events: 4,
        idleBookings: 3,
        gapMs: 0,
      });
      expect(
        result.levels.map((level) => ({
          subscribers: level.subscribers,
          connections: level.connections,
          child: { acknowledged: level.child.acknowledged, errors: level.child.errors, laterMessages: level.child.laterMessages },
          engine: level.engine,
          samples: level.deliveryMs.length,
        })),
      ).toEqual([
        // The watched booking and the idle ones, each indexed once, behind one channel listener.
        { subscribers: 6, connections: 6, child: { acknowledged: 6, errors: 0, laterMessages: 0 }, engine: { subscribers: 7, entities: 4, listeners: 1 }, samples: 4 },
        { subscribers: 8, connections: 2, child: { acknowledged: 8, errors: 0, laterMessages: 0 }, engine: { subscribers: 9, entities: 4, listeners: 1 }, samples: 4 },
      ]);
      for (const level of result.levels) {
        expect(level.p50).toBeLessThanOrEqual(level.p99);
        expect(level.p99).toBeLessThanOrEqual(level.max);
        expect(Object.values(level.memory).every(Number.isFinite)).toBe(true);
      }
      const section = formatSubscriptionBench(result, { date: "2026-11-23", machine: "test", commit: "abc1234", database: "test database", command: "npm run bench:subscriptions" });
      const rows = section.split("\n").filter((line) => /^\| \d/.test(line));
      expect(rows.map((row) => row.split("|").slice(1, 4).map((cell) => cell.trim()))).toEqual([
        ["6", "1", "6"],
        ["8", "4", "2"],
      ]);
    } finally {
      await own.database.close();
      await own.drop();
    }
  }, 180_000);
});
