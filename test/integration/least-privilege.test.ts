import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationsFolder, openDatabase, rows, type Database } from "../../drizzle/database.js";
import { readJournal } from "../../drizzle/schema-migrations.js";
import { bookableAvailability, bookableProduct, consumer, newRef, validAnswers } from "../support/booking.js";
import { startProcess } from "../support/child-process.js";
import { startPgbouncer } from "../support/pgbouncer.js";
import { startStack } from "../support/stack.js";

/** PostgreSQL itself: DATABASE_DIRECT_URL when the suite runs through a pooler, else DATABASE_URL. */
const server = process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL;

const journal = readJournal(migrationsFolder);
const migrateCommand = { file: process.execPath, args: ["--import", "tsx", "server/migrate.ts"] };
const refusedForRights = (error: unknown) => JSON.stringify(error).includes("42501") || (error as { code?: string }).code === "42501";

/**
 * A hosted server's posture, on this machine's PostgreSQL: a database owned by a role that is no
 * superuser, migrated by `npm run migrate` as that role, and a service that runs as a second role
 * holding rows but no DDL rights, starting with DATABASE_MIGRATIONS=verify.
 */
describe("npm run migrate on the embedded database", () => {
  it("has nothing to do and says so, exit 2: the embedded database migrates itself as the service opens it", async () => {
    const embedded = startProcess({ DATA_DIR: "memory" }, [], migrateCommand);
    expect(await embedded.exited).toBe(2);
    expect(embedded.output()).toMatch(/DATABASE_URL is not set: the embedded database .* migrates itself/);
    const unknown = startProcess({ DATA_DIR: "memory" }, ["--force"], migrateCommand);
    expect(await unknown.exited).toBe(2);
    expect(unknown.output()).toMatch(/unknown arguments: --force/);
  });
});

if (server) describe("least privilege: migrations as the schema's owner, the service as a role without DDL", { timeout: 120_000 }, () => {
  const id = randomUUID().replace(/-/g, "").slice(0, 10);
  const owner = `owner_${id}`;
  const runtime = `runtime_${id}`;
  const name = `least_${id}`;
  let admin: postgres.Sql;
  const as = (role: string) => {
    const url = new URL(server!);
    url.username = role;
    url.password = "";
    url.pathname = `/${name}`;
    return url.toString();
  };

  beforeAll(async () => {
    admin = postgres(server!, { max: 1, onnotice: () => {} });
    for (const role of [owner, runtime]) await admin.unsafe(`create role ${role} login nosuperuser nocreatedb nocreaterole`);
    await admin.unsafe(`create database ${name} owner ${owner}`);
  });

  afterAll(async () => {
    await admin?.unsafe(`drop database if exists ${name} with (force)`);
    for (const role of [runtime, owner]) await admin?.unsafe(`drop role if exists ${role}`);
    await admin?.end();
  });

  /** Runs a statement in the database as `role`, on a connection of its own. */
  async function runAs<T extends object>(role: string, statement: string): Promise<T[]> {
    const connection = postgres(as(role), { max: 1, onnotice: () => {} });
    try {
      return (await connection.unsafe(statement)) as unknown as T[];
    } finally {
      await connection.end();
    }
  }

  it("a start as the runtime role refuses a schema behind its release, to verify or to apply, and changes nothing", async () => {
    const behind = new RegExp(`${journal.length} migrations behind this release \\(${journal[0].tag} … ${journal.at(-1)!.tag}\\): run \`npm run migrate\` as the schema's owner`);
    await expect(openDatabase({ databaseUrl: as(runtime), migrations: "verify", maxConnections: 1 })).rejects.toThrow(behind);
    await expect(openDatabase({ databaseUrl: as(runtime), migrations: "apply", maxConnections: 1 })).rejects.toThrow(/this role may not change the schema/);
    const started = startProcess({ DATABASE_URL: as(runtime), DATABASE_MIGRATIONS: "verify", SEED_DEMO: "false" });
    expect(await started.exited).toBe(1);
    expect(started.output()).toMatch(new RegExp(`DATABASE_MIGRATIONS=verify: the database's schema is ${journal.length} migrations behind`));
    expect(await runAs<{ n: number }>(owner, "select count(*)::int as n from pg_class where relnamespace in ('public'::regnamespace) or relname = '__drizzle_migrations'")).toEqual([{ n: 0 }]);
  });

  it("npm run migrate, as an owner that is no superuser, creates only trusted extensions and grants the runtime role", async () => {
    const run = () => startProcess({ DATABASE_URL: as(owner), DATABASE_RUNTIME_ROLE: runtime }, [], migrateCommand);
    const first = run();
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain(`applied ${journal.length} migrations: ${journal[0].tag}, `);
    expect(first.output()).toContain(`the schema is at ${journal.at(-1)!.tag}`);
    expect(first.output()).toContain(`granted ${runtime} the rows of every table and its sequences, without DDL`);
    const again = run();
    expect(await again.exited).toBe(0);
    expect(again.output()).toContain("no migration to apply");
    const extensions = await runAs<{ extname: string }>(owner, "select extname from pg_extension order by extname");
    expect(extensions.map((row) => row.extname)).toEqual(["btree_gin", "pg_trgm", "plpgsql"]);
    expect(await admin`select rolname, rolsuper, rolcreatedb, rolcreaterole from pg_roles where rolname in (${owner}, ${runtime}) order by rolname`).toEqual([
      { rolname: owner, rolsuper: false, rolcreatedb: false, rolcreaterole: false },
      { rolname: runtime, rolsuper: false, rolcreatedb: false, rolcreaterole: false },
    ]);
  });

  it("npm run migrate names a runtime role the server does not have", async () => {
    const unknown = startProcess({ DATABASE_URL: as(owner), DATABASE_RUNTIME_ROLE: `nobody_${id}` }, [], migrateCommand);
    expect(await unknown.exited).toBe(1);
    expect(unknown.output()).toContain(`DATABASE_RUNTIME_ROLE=nobody_${id}: no such role on this server`);
  });

  it("the service runs the booking flow as the runtime role, with DATABASE_MIGRATIONS=verify", async () => {
    const database = await openDatabase({ databaseUrl: as(runtime), migrations: "verify", maxConnections: 4 });
    const stack = await startStack({ database, env: { WORKER_LOOPS: "false" } });
    try {
      const { productId } = await bookableProduct(stack);
      const buyer = await consumer(stack);
      const availability = await bookableAvailability(buyer.rest, productId, "2027-05-04");
      const created = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() });
      expect(created.status).toBe(201);
      const answered = await buyer.rest.put(`/booking-flow/v1/bookings/${created.body.id}/questions`, validAnswers(created.body));
      expect(answered.status).toBe(200);
    } finally {
      await stack.close();
      await database.close();
    }
  });

  it("the runtime role may change rows but never the schema: no table made, altered, dropped or emptied", async () => {
    for (const statement of ["create table intruder (x int)", "alter table bookings add column intruder int", "drop table bookings", "truncate bookings", "create index intruder on bookings (id)"]) {
      await expect(runAs(runtime, statement), statement).rejects.toSatisfy(refusedForRights);
    }
    expect(await runAs<{ n: number }>(runtime, "select count(*)::int as n from bookings")).toEqual([{ n: expect.any(Number) }]);
  });

  it("a start with the default, apply, on an up-to-date schema asks nothing of the role's rights", async () => {
    const database = await openDatabase({ databaseUrl: as(runtime), maxConnections: 1 });
    await database.ping();
    await database.close();
  });

  it("behind a pooler, the runtime role writes its own connection settings: no superuser needed", async () => {
    // Started against the server's own database: a server connection it opened to this one before
    // the settings were written would keep running without them (docs/operations.md).
    const elsewhere = new URL(as(runtime));
    elsewhere.pathname = new URL(server!).pathname;
    const bouncer = await startPgbouncer(elsewhere.toString());
    let database: Database | undefined;
    try {
      database = await openDatabase({ databaseUrl: bouncer.through(as(runtime)), directUrl: as(runtime), migrations: "verify", statementTimeoutMs: 1234, maxConnections: 2 });
      expect(await rows<{ timeout: string }>(database.db, sql`select current_setting('statement_timeout') as timeout`)).toEqual([{ timeout: "1234ms" }]);
    } finally {
      await database?.close();
      await bouncer.stop();
    }
  });

  it("a schema a newer release migrated is said, and served: migrations add, so the older release still runs", async () => {
    const newer = journal.at(-1)!.when + 1;
    await runAs(owner, `insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer release', ${newer})`);
    try {
      const told: number[] = [];
      const database = await openDatabase({ databaseUrl: as(runtime), migrations: "verify", maxConnections: 1, onNewerSchema: (count) => told.push(count) });
      await database.close();
      expect(told).toEqual([1]);
      const migrate = startProcess({ DATABASE_URL: as(owner) }, [], migrateCommand);
      expect(await migrate.exited).toBe(0);
      expect(migrate.output()).toContain(`the schema is at ${journal.at(-1)!.tag}, with 1 migration of a newer release`);
    } finally {
      await runAs(owner, `delete from drizzle.__drizzle_migrations where created_at = ${newer}`);
    }
  });
});
