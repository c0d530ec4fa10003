import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, rows, type Executor, type StatementConnections } from "../../drizzle/database.js";
import { PreparedStatementPolicy } from "../../drizzle/prepared-statements.js";
import { organisations } from "../../drizzle/schema.js";
import { templateBooking } from "../support/reporting.js";
import { createService } from "../../server/service.js";
import { openTestDatabase, startStack, testConfig } from "../support/stack.js";

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

  it("lends the embedded database itself for key lookups: it has one connection", async () => {
    const database = await openTestDatabase();
    if (database.driver === "pglite") expect(database.forKeyLookups.db).toBe(database.db);
    else expect(database.forKeyLookups.db).not.toBe(database.db);
    expect(database.forKeyLookups.forKeyLookups).toBe(database.forKeyLookups);
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

    it("on PostgreSQL, lets the key-lookup connections keep a generic plan for a statement run often, and plans every execution on the others", async () => {
      // One connection a pool: every statement of each pool runs where pg_prepared_statements looks.
      const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, maxConnections: 1 });
      try {
        const plansOf = async (db: Executor, text: string) =>
          (await rows<{ generic_plans: number; custom_plans: number }>(db, sql`select generic_plans::int, custom_plans::int from pg_prepared_statements where statement = ${text}`))[0];
        const text = organisationNamed(database.db, 1).toSQL().sql;
        for (let i = 1; i <= 10; i++) {
          expect(await organisationNamed(database.forKeyLookups.db, -i)).toEqual([]);
          expect(await organisationNamed(database.db, -i)).toEqual([]);
        }
        expect(await rows(database.forKeyLookups.db, sql`show plan_cache_mode`)).toEqual([{ plan_cache_mode: "auto" }]);
        expect(await rows(database.db, sql`show plan_cache_mode`)).toEqual([{ plan_cache_mode: "force_custom_plan" }]);
        // PostgreSQL plans the first five executions for their values, then keeps the generic plan.
        const keyLookups = await plansOf(database.forKeyLookups.db, text);
        expect(keyLookups.generic_plans).toBeGreaterThanOrEqual(3);
        const ownConnections = await plansOf(database.db, text);
        expect(ownConnections.generic_plans).toBe(0);
        expect(ownConnections.custom_plans).toBeGreaterThanOrEqual(8);
      } finally {
        await database.close();
      }
    });

    it("on PostgreSQL, opens the service's two pools at DATABASE_POOL_SIZE connections each", async () => {
      const service = await createService(testConfig({ DATABASE_POOL_SIZE: "3", WORKER_LOOPS: "false" }));
      try {
        expect(service.database.poolUse().maxConnections).toBe(2 * 3);
      } finally {
        await service.close();
      }
    });

    it("on PostgreSQL, runs the booking subgraph's and the worker's statements on the key-lookup connections, and search on the others", async () => {
      const seen: { text: string; connections?: StatementConnections }[] = [];
      const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, maxConnections: 3, onQuery: (text, connections) => seen.push({ text, connections }) });
      const stack = await startStack({ database });
      try {
        const { bookingId, buyer } = await templateBooking(stack, "2027-04-14");
        expect((await buyer.rest.post(`/booking-flow/v1/bookings/${bookingId}/confirm`)).status).toBe(200);
        await expect.poll(async () => (await buyer.rest.get(`/booking-flow/v1/bookings/${bookingId}`)).body.status, { timeout: 20_000, interval: 200 }).toBe("CONFIRMED");
        expect((await buyer.rest.get(`/api/consumer/products?Search=${encodeURIComponent("title:museum")}&resultsPerPage=10`)).status).toBe(200);

        const where = (pattern: RegExp) => new Set(seen.filter((statement) => pattern.test(statement.text)).map((statement) => statement.connections));
        // The booking subgraph's steps: availabilities, the booking, its answers.
        expect(where(/^update "availabilities"/)).toEqual(new Set(["key lookups"]));
        expect(where(/^insert into "bookings"/)).toEqual(new Set(["key lookups"]));
        expect(where(/^update "bookings"/)).toEqual(new Set(["key lookups"]));
        // The worker's confirmation job, claimed and finished.
        expect(where(/^update "booking_jobs"/)).toEqual(new Set(["key lookups"]));
        // The catalogue's search, whose plan depends on the words sought.
        expect(where(/ts_rank|to_tsquery|websearch_to_tsquery|plainto_tsquery|@@/)).toEqual(new Set(["planned per execution"]));
      } finally {
        await stack.close();
        await database.close();
      }
    }, 60_000);
  }
});
