import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, rows, type Database, type DatabaseOptions } from "../../drizzle/database.js";
import { bookingEngines } from "../../drizzle/schema.js";

const drivers: [string, DatabaseOptions][] = [["pglite", { dataDir: "memory" }]];
if (process.env.DATABASE_URL) drivers.push(["postgres", { databaseUrl: process.env.DATABASE_URL }]);

const waitFor = async (condition: () => boolean, ms = 2000) => {
  const until = Date.now() + ms;
  while (!condition() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
};

describe.each(drivers)("storage on %s", (driver, options) => {
  let database: Database;
  afterAll(async () => database?.close());

  it("opens with the migrations applied", async () => {
    database = await openDatabase(options);
    expect(database.driver).toBe(driver);
    const tables = await rows<{ table_name: string }>(
      database.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(["accounts", "booking_engines", "organisations", "password_setup_tokens", "refresh_tokens", "signing_keys"]),
    );
  });

  it("delivers a notification sent in a committed transaction, and not one sent in a rolled-back one", async () => {
    const channel = `test_${Math.random().toString(36).slice(2, 10)}`;
    const received: unknown[] = [];
    await database.events.subscribe(channel, (payload) => received.push(payload));

    await database.db
      .transaction(async (tx) => {
        await database.events.publish(tx, channel, { n: "rolled back" });
        tx.rollback();
      })
      .catch(() => undefined);
    await database.db.transaction(async (tx) => {
      await database.events.publish(tx, channel, { n: "committed" });
      // Not delivered before commit: the transaction is still open here.
      await new Promise((r) => setTimeout(r, 100));
      expect(received).toEqual([]);
    });
    await waitFor(() => received.length > 0);
    await new Promise((r) => setTimeout(r, 200));
    expect(received).toEqual([{ n: "committed" }]);
  });

  it("rolls a failed transaction back entirely", async () => {
    const name = `ROLLBACK_${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(bookingEngines).values({ name });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const found = await database.db.select().from(bookingEngines).where(sql`${bookingEngines.name} = ${name}`);
    expect(found).toEqual([]);
  });

  it("keeps an inner savepoint's rollback inside the outer transaction, which still commits", async () => {
    const [outer, inner] = [1, 2].map((n) => `SAVEPOINT_${n}_${Math.random().toString(36).slice(2, 8).toUpperCase()}`);
    await database.db.transaction(async (tx) => {
      await tx.insert(bookingEngines).values({ name: outer });
      await tx
        .transaction(async (nested) => {
          await nested.insert(bookingEngines).values({ name: inner });
          nested.rollback();
        })
        .catch(() => undefined);
    });
    const found = await database.db.select().from(bookingEngines).where(sql`${bookingEngines.name} in (${outer}, ${inner})`);
    expect(found.map((e) => e.name)).toEqual([outer]);
  });

  it("reports a failed statement with its SQLSTATE and constraint, and goes on serving", async () => {
    const name = `UNIQUE_${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    await database.db.insert(bookingEngines).values({ name });
    const failure = await database.db.insert(bookingEngines).values({ name }).catch((error: Error) => error);
    const cause = (failure as Error & { cause?: Record<string, unknown> }).cause;
    expect(cause?.code).toBe("23505");
    // PGlite names the field as node-postgres does, postgres.js as the protocol does.
    expect(cause?.constraint ?? cause?.constraint_name).toEqual(expect.stringContaining("name"));
    expect(await rows(database.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
  });

  it("leaves the event loop free while a statement runs", async () => {
    // On its own thread PGlite sleeps there; on the service's thread no timer could fire meanwhile.
    let statementDone = false;
    const statement = database.db.execute(sql`select pg_sleep(0.6)`).then(() => (statementDone = true));
    const ticks: boolean[] = [];
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        ticks.push(statementDone);
        if (ticks.length === 5) {
          clearInterval(timer);
          resolve();
        }
      }, 20);
    });
    expect(ticks).toEqual([false, false, false, false, false]);
    await statement;
  });

  it("refuses oversized event payloads instead of failing inside PostgreSQL", async () => {
    await expect(database.events.publish(database.db, "test_big", { blob: "x".repeat(9000) })).rejects.toThrow(/exceeds/);
  });
});

describe("embedded database files", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "activities-pglite-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps data in DATA_DIR across restarts and refuses a second process while open", async () => {
    const first = await openDatabase({ dataDir: dir });
    await first.db.insert(bookingEngines).values({ name: "PERSISTED_ENGINE" });
    // A second opener in this process is allowed only after close; another live pid is refused.
    const { writeFileSync } = await import("node:fs");
    await first.close();

    writeFileSync(path.join(dir, "activities.pid"), String(process.ppid));
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/in use by process/);
    rmSync(path.join(dir, "activities.pid"));

    const second = await openDatabase({ dataDir: dir });
    const found = await second.db.select().from(bookingEngines);
    expect(found.map((e) => e.name)).toContain("PERSISTED_ENGINE");
    await second.close();
    await expect(second.ping()).rejects.toThrow(/closed/);
  });
});
