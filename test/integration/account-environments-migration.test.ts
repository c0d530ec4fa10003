import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder, openDatabase, rows, type Database } from "../../drizzle/database.js";
import { hashPassword } from "../../identity/passwords.js";
import { SigningKeyStore } from "../../identity/signing-keys.js";
import { startStack } from "../support/stack.js";

/** The migrations folder as it was before accounts had an environment. */
const before = mkdtempSync(path.join(tmpdir(), "migrations-before-environments-"));
cpSync(migrationsFolder, before, { recursive: true });
const journalFile = path.join(before, "meta", "_journal.json");
const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
const introduced = journal.entries.findIndex((entry) => entry.tag === "0018_account_environments");
writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, introduced) }));

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(before, { recursive: true, force: true });
});

/** A database of its own with no migration run, on PostgreSQL when DATABASE_URL is set. */
async function emptyDatabase(): Promise<Database> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const database = await openDatabase({ dataDir: "memory", migrate: false });
    cleanups.push(() => database.close());
    return database;
  }
  const name = `test_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: "memory", migrate: false, maxConnections: 3 });
  cleanups.push(async () => {
    await database.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return database;
}

const migrate = (database: Database, folder: string) =>
  database.driver === "pglite" ? migratePglite(database.db as never, { migrationsFolder: folder }) : migratePostgres(database.db as never, { migrationsFolder: folder });

/** A database as the release before environments left it: its accounts, and the signing keys of the environments that started on it. */
async function upgradedDatabase(startedBy: ("sandbox" | "production")[], password: string) {
  const database = await emptyDatabase();
  await migrate(database, before);
  for (const environment of startedBy) await new SigningKeyStore(database.db, environment).signingKey();
  const username = `before-${randomUUID().slice(0, 8)}`;
  await database.db.execute(sql`insert into accounts (username, roles, password_hash) values (${username}, array['OPERATOR'], ${await hashPassword(password)})`);
  await migrate(database, migrationsFolder);
  const [account] = await rows<{ environment: string }>(database.db, sql`select environment from accounts where username = ${username}`);
  return { database, username, environment: account.environment };
}

const signIn = async (url: string, username: string, password: string) =>
  (await fetch(url, { method: "POST", body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password }) })).status;

describe("accounts made before accounts had an environment", { timeout: 120_000 }, () => {
  it("belong to production when only production has started on the database, and sign in there only", async () => {
    const password = "made before environments";
    const { database, username, environment } = await upgradedDatabase(["production"], password);
    expect(environment).toBe("production");
    const production = await startStack({ database, env: { ENVIRONMENT: "production" } });
    const sandbox = await startStack({ database, env: { ENVIRONMENT: "sandbox" } });
    try {
      expect(await signIn(production.tokenUrl, username, password)).toBe(200);
      expect(await signIn(sandbox.tokenUrl, username, password)).toBe(400);
    } finally {
      await production.close();
      await sandbox.close();
    }
  });

  it("belong to the sandbox on a database both environments have started on, where a wrongly placed account gives no production access", async () => {
    const { environment } = await upgradedDatabase(["sandbox", "production"], "made before environments");
    expect(environment).toBe("sandbox");
  });

  it("belong to the sandbox on a database only the sandbox has started on", async () => {
    const { environment } = await upgradedDatabase(["sandbox"], "made before environments");
    expect(environment).toBe("sandbox");
  });
});
