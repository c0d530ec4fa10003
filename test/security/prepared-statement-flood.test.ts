import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rows, type Database } from "../../drizzle/database.js";
import { PreparedStatementPolicy } from "../../drizzle/prepared-statements.js";
import { restClient } from "../support/catalogue.js";
import { startStack, type Stack } from "../support/stack.js";
import { NO_ACCOUNT_LIMITS } from "../../bench/service-settings.js";

/**
 * On PostgreSQL the service runs statements it has seen twice as prepared statements, which a
 * connection keeps until it closes. A caller who sends search expressions of ever new shapes,
 * each twice, must not be able to grow what the database holds per connection: the policy's
 * bound holds, and the service answers as before once it is reached.
 */
describe("a flood of new statement shapes", () => {
  const policy = new PreparedStatementPolicy(8);
  let database: Database;
  let stack: Stack;

  beforeAll(async () => {
    // One connection: every statement of the test runs on it, so pg_prepared_statements shows all.
    database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: "memory", maxConnections: 1, preparedStatements: policy });
    stack = await startStack({ database, env: { WORKER_LOOPS: "false", ...NO_ACCOUNT_LIMITS } });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await database?.close();
  });

  it("holds no more prepared statements than the bound, whatever search shapes a caller sends", async () => {
    const consumer = restClient(stack, await stack.tokenFor("CONSUMER"));
    for (let terms = 1; terms <= 12; terms++) {
      for (const joiner of [" AND ", " OR "]) {
        const search = Array.from({ length: terms }, (_, i) => `title:w${i}`).join(joiner);
        for (let time = 0; time < 2; time++) {
          const answer = await consumer.get(`/api/consumer/products?Search=${encodeURIComponent(search)}&resultsPerPage=10`);
          expect(answer.status).toBe(200);
        }
      }
    }
    if (database.driver === "pglite") {
      // PGlite's statements go to a thread of this process: nothing is prepared, the policy is never asked.
      expect(policy.admittedCount).toBe(0);
      return;
    }
    expect(policy.admittedCount).toBe(8);
    const held = (await database.db.transaction(async (tx) => rows<{ statement: string }>(tx, sql`select statement from pg_prepared_statements`))).map((row) => row.statement.trim());
    // postgres.js prepares a few statements of its own on every connection (the array types it
    // reads when it connects, commit, rollback): a fixed set, outside the policy.
    const driversOwn = held.filter((text) => /^(begin|commit|rollback|savepoint|release)\b/i.test(text) || text.includes("pg_catalog.pg_type"));
    expect(driversOwn.length).toBeLessThanOrEqual(4);
    expect(held.length - driversOwn.length).toBeLessThanOrEqual(8);
    // Past the bound, statements still run (unprepared): the service answers as before.
    expect((await consumer.get(`/api/consumer/products?Search=${encodeURIComponent("title:museum")}&resultsPerPage=10`)).status).toBe(200);
  });
});
