import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rows, type Database } from "../../drizzle/database.js";
import { pgbouncerIni, startPgbouncer, type Pgbouncer } from "../support/pgbouncer.js";

/** PostgreSQL itself: DATABASE_DIRECT_URL when the suite runs through a pooler, else DATABASE_URL. */
const server = process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL;

const cancelled = (error: unknown) => JSON.stringify(error).includes("57014") || String((error as { cause?: { code?: string } }).cause?.code) === "57014";

/**
 * Behind a connection pooler in transaction mode (Debian's PgBouncer, stock settings): the
 * service keeps nothing in a session on pooled connections, and what needs one (LISTEN,
 * migrations and their lock) goes to DATABASE_DIRECT_URL.
 */
describe("the pooler the tests run through", () => {
  it("is in transaction mode with nothing ignored or kept beyond a stock PgBouncer's settings", () => {
    const ini = pgbouncerIni(new URL("postgres://postgres@127.0.0.1:5432/test"), 6432, "/tmp/pooler");
    expect(ini).toMatch(/^pool_mode = transaction$/m);
    expect(ini).not.toMatch(/ignore_startup_parameters|max_prepared_statements|server_reset_query/);
  });
});

// PostgreSQL only: the embedded database has no pooler to put in front of it.
if (server) describe("through PgBouncer in transaction mode", () => {
  let bouncer: Pgbouncer;
  let admin: postgres.Sql;
  let direct: string;
  let pooled: string;
  let database: Database;
  const name = `pooler_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

  beforeAll(async () => {
    // A database of its own: the connections' settings become the role's defaults in it.
    admin = postgres(server!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(server!);
    url.pathname = `/${name}`;
    direct = url.toString();
    // Started against the server's own database: a server connection the pooler opened to this
    // one before the settings were written would keep running without them.
    bouncer = await startPgbouncer(server!);
    pooled = bouncer.through(direct);
    database = await openDatabase({ databaseUrl: pooled, directUrl: direct, statementTimeoutMs: 300, maxConnections: 4 });
  }, 60_000);

  afterAll(async () => {
    await database?.close();
    await bouncer?.stop();
    await admin?.unsafe(`drop database if exists ${name} with (force)`);
    await admin?.end();
  });

  it("is refused by the pooler when sent as if it were PostgreSQL: the settings sent at a connection's start are what poolers refuse", async () => {
    await expect(openDatabase({ databaseUrl: pooled, migrate: false, maxConnections: 1 }).then((opened) => opened.ping().finally(() => opened.close()))).rejects.toThrow(/unsupported startup parameter/);
  });

  it("runs every connection with the service's settings, as the role's defaults in the database", async () => {
    const settings = await Promise.all(
      [1, 2, 3, 4].map(() =>
        rows<{ timeout: string; idle: string; work_mem: string; threshold: string }>(
          database.db,
          sql`select current_setting('statement_timeout') as timeout, current_setting('idle_in_transaction_session_timeout') as idle,
                     current_setting('work_mem') as work_mem, current_setting('pg_trgm.word_similarity_threshold') as threshold`,
        ),
      ),
    );
    for (const [row] of settings) expect(row).toEqual({ timeout: "300ms", idle: "1min", work_mem: "16MB", threshold: "0.35" });
  });

  it("cancels a statement past the statement timeout through the pooler, and the connection serves the next at once", async () => {
    await expect(database.db.execute(sql`select pg_sleep(2)`)).rejects.toSatisfy(cancelled);
    expect(await rows<{ one: number }>(database.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
  });

  it("runs the same statements again and again on whichever server connection is free: no named prepared statement to miss", async () => {
    const statement = (i: number) => rows<{ n: number }>(database.db, sql`select ${i}::int + 1 as n`);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => statement(i)));
    expect(answers.map(([row]) => row.n)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });

  it("holds row locks for a transaction's whole length, so that concurrent transactions take their turn", async () => {
    await database.db.execute(sql`create table if not exists pooled_counter (id int primary key, n int not null)`);
    await database.db.execute(sql`insert into pooled_counter values (1, 0) on conflict (id) do update set n = 0`);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        database.db.transaction(async (tx) => {
          const [row] = await rows<{ n: number }>(tx, sql`select n from pooled_counter where id = 1 for update`);
          await tx.execute(sql`update pooled_counter set n = ${row.n + 1} where id = 1`);
        }),
      ),
    );
    expect(await rows<{ n: number }>(database.db, sql`select n from pooled_counter where id = 1`)).toEqual([{ n: 20 }]);
  });

  it("listens on PostgreSQL itself: a notice published in a pooled transaction reaches the subscriber", async () => {
    const received: unknown[] = [];
    const channel = "pooled_notices";
    const stop = await database.events.subscribe(channel, (payload) => received.push(payload));
    try {
      await database.db.transaction(async (tx) => database.events.publish(tx, channel, { id: "pooled" }));
      await expect.poll(() => received).toContainEqual({ id: "pooled" });
    } finally {
      await stop();
    }
  });

  it("writes the role's settings only when they differ: replicas starting together do not rewrite the catalogue", async () => {
    const stored = () => admin<{ setconfig: string[] }[]>`
      select setconfig from pg_db_role_setting where setdatabase = (select oid from pg_database where datname = ${name})`;
    const before = await stored();
    const again = await openDatabase({ databaseUrl: pooled, directUrl: direct, statementTimeoutMs: 300, maxConnections: 1 });
    await again.close();
    expect(await stored()).toEqual(before);
    expect(before[0].setconfig).toContain("statement_timeout=300");
  });

  it("says which settings a server connection the pooler opened before a change still runs with, and nothing when they are current", async () => {
    const told: string[][] = [];
    const again = await openDatabase({ databaseUrl: pooled, directUrl: direct, statementTimeoutMs: 300, maxConnections: 1, onStaleSettings: (stale) => told.push(stale) });
    await again.close();
    expect(told).toEqual([]);
    // Every server connection the pooler holds runs with 300 ms; the role's default becomes 700 ms.
    const changed = await openDatabase({ databaseUrl: pooled, directUrl: direct, statementTimeoutMs: 700, maxConnections: 1, onStaleSettings: (stale) => told.push(stale) });
    await changed.close();
    expect(told).toEqual([["statement_timeout=300ms (the role's default: 700ms)"]]);
    // Back as the rest of the file expects them.
    const restored = await openDatabase({ databaseUrl: pooled, directUrl: direct, statementTimeoutMs: 300, maxConnections: 1 });
    await restored.close();
  });
});
