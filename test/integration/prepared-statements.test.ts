import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, rows, type Executor } from "../../drizzle/database.js";
import { PreparedStatementPolicy } from "../../drizzle/prepared-statements.js";
import { organisations } from "../../drizzle/schema.js";

describe("which statements run prepared", () => {
  it("admits a text the second time it is seen, and keeps it", () => {
    const policy = new PreparedStatementPolicy(10);
    expect(policy.prepare("select 1")).toBe(false);
    expect(policy.prepare("select 1")).toBe(true);
    expect(policy.prepare("select 1")).toBe(true);
    expect(policy.admittedCount).toBe(1);
  });

  it("admits no more texts than its capacity, whatever is sent, and keeps the first ones", () => {
    const policy = new PreparedStatementPolicy(3);
    for (let i = 0; i < 100; i++) {
      policy.prepare(`select ${i}`);
      policy.prepare(`select ${i}`);
    }
    expect(policy.admittedCount).toBe(3);
    expect(policy.prepare("select 0")).toBe(true);
    expect(policy.prepare("select 50")).toBe(false);
  });

  it("never prepares a text longer than its limit", () => {
    const policy = new PreparedStatementPolicy(10, 20);
    const long = `select ${"1 + ".repeat(10)}1`;
    expect([policy.prepare(long), policy.prepare(long), policy.prepare(long)]).toEqual([false, false, false]);
    expect(policy.admittedCount).toBe(0);
  });

  it("forgets texts seen once, oldest first, so that a flood of one-off texts holds no memory", () => {
    const policy = new PreparedStatementPolicy(2);
    policy.prepare("select 'first'");
    for (let i = 0; i < 20; i++) policy.prepare(`select ${i}`);
    // "first" was pushed out of the candidates (2 × 4 of them): its next sight is a first sight again.
    expect(policy.prepare("select 'first'")).toBe(false);
    expect(policy.prepare("select 'first'")).toBe(true);
  });

  if (process.env.DATABASE_URL) {
    const preparedOnThisConnection = async (tx: Executor) =>
      (await rows<{ statement: string }>(tx, sql`select statement from pg_prepared_statements`)).map((row) => row.statement);
    const organisationNamed = (tx: Executor, id: number) => tx.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, id));

    it("on PostgreSQL, runs an admitted statement prepared, planned per execution, within the policy's bound", async () => {
      const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, preparedStatements: new PreparedStatementPolicy(3), maxConnections: 2 });
      try {
        // One transaction: one connection, whose prepared statements pg_prepared_statements lists.
        await database.db.transaction(async (tx) => {
          expect(await rows<{ plan_cache_mode: string }>(tx, sql`show plan_cache_mode`)).toEqual([{ plan_cache_mode: "force_custom_plan" }]);
          const text = organisationNamed(tx, 1).toSQL().sql;
          await organisationNamed(tx, -1);
          expect(await preparedOnThisConnection(tx)).not.toContain(text);
          await organisationNamed(tx, -2);
          expect(await preparedOnThisConnection(tx)).toContain(text);
          // A prepared statement answers for each execution's own values.
          const [known] = await tx.select({ id: organisations.id }).from(organisations).limit(1);
          if (known) expect(await organisationNamed(tx, known.id)).toEqual([known]);
          expect(await organisationNamed(tx, -3)).toEqual([]);

          for (let i = 0; i < 20; i++) {
            const query = sql`select ${i}::int + ${sql.raw(String(i))} as n`;
            await rows(tx, query);
            expect(await rows<{ n: number }>(tx, query)).toEqual([{ n: 2 * i }]);
          }
          expect((await preparedOnThisConnection(tx)).length).toBeLessThanOrEqual(3);
        });
      } finally {
        await database.close();
      }
    });
  }
});
