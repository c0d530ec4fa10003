import { readFileSync } from "node:fs";
import path from "node:path";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type postgres from "postgres";

/**
 * Where a PostgreSQL database's schema stands against this release's migrations, read from the
 * table drizzle's migrator keeps (`drizzle.__drizzle_migrations`, one row per migration applied,
 * `created_at` being the journal's `when`: the migrator applies every migration later than the
 * last row's).
 */
export interface SchemaState {
  /** This release's migrations not applied yet, oldest first (their tags, `0021_…`). */
  pending: string[];
  /** Migrations applied that this release does not know: a newer release migrated the database. */
  newer: number;
}

interface JournalEntry {
  tag: string;
  when: number;
}

/** The service's settings on its migrations: `apply` them at start (the default), or only `verify` that a separate `npm run migrate` did. */
export type MigrationsOnStart = "apply" | "verify";

/** The schema is behind this release and the start may not, or cannot, bring it up to date. */
export class SchemaBehind extends Error {
  override name = "SchemaBehind";
}

/** DATABASE_RUNTIME_ROLE names no role of the server. */
export class RuntimeRoleUnknown extends Error {
  override name = "RuntimeRoleUnknown";
}

export function readJournal(migrationsFolder: string): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: JournalEntry[] };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

export async function readSchemaState(sql: postgres.Sql, migrationsFolder: string): Promise<SchemaState> {
  const journal = readJournal(migrationsFolder);
  const [schema] = await sql<{ found: boolean; usable: boolean }[]>`
    select count(*) > 0 as found, coalesce(bool_and(has_schema_privilege(oid, 'usage')), false) as usable from pg_namespace where nspname = 'drizzle'`;
  if (schema.found && !schema.usable) {
    throw new SchemaBehind(
      "this role may not read the migrations' table (drizzle.__drizzle_migrations): run `npm run migrate` as the schema's owner with DATABASE_RUNTIME_ROLE naming this role, which grants what the service needs",
    );
  }
  const [table] = schema.found ? await sql<{ found: boolean }[]>`select to_regclass('drizzle.__drizzle_migrations') is not null as found` : [{ found: false }];
  if (!table.found) return { pending: journal.map((entry) => entry.tag), newer: 0 };
  const applied = await sql<{ created_at: string }[]>`select created_at from drizzle.__drizzle_migrations`;
  const last = applied.reduce((latest, row) => Math.max(latest, Number(row.created_at)), Number.NEGATIVE_INFINITY);
  const known = journal.at(-1)?.when ?? 0;
  return {
    pending: journal.filter((entry) => entry.when > last).map((entry) => entry.tag),
    newer: applied.filter((row) => Number(row.created_at) > known).length,
  };
}

/** How a start asked to `verify` is refused, or a role without the rights to migrate is. */
export function behindMessage(pending: string[]): string {
  return `the database's schema is ${pending.length} migration${pending.length === 1 ? "" : "s"} behind this release (${pending[0]}${pending.length > 1 ? ` … ${pending.at(-1)}` : ""}): run \`npm run migrate\` as the schema's owner first`;
}

/** Applies the pending migrations on `sql`, a connection holding the migration lock; a role that may not is told what to run instead. */
export async function applyMigrations(sql: postgres.Sql, migrationsFolder: string, pending: string[]): Promise<void> {
  try {
    await migratePostgres(drizzlePostgres(sql), { migrationsFolder });
  } catch (error) {
    // 42501: insufficient_privilege, a role without the rights to change the schema (the least-privileged runtime role).
    const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    if (code === "42501") throw new SchemaBehind(`${behindMessage(pending)}; this role may not change the schema (${(error as Error).message})`);
    throw error;
  }
}

/**
 * What the service's least-privileged role needs, granted by the schema's owner: rows of every
 * table (no DDL, no TRUNCATE), its sequences, and reading where the schema stands. Run after each
 * migration, so that tables a migration adds are granted too.
 */
export async function grantRuntimeRole(sql: postgres.Sql, role: string): Promise<void> {
  const [found] = await sql<{ exists: boolean }[]>`select exists (select 1 from pg_roles where rolname = ${role}) as exists`;
  if (!found.exists) throw new RuntimeRoleUnknown(`DATABASE_RUNTIME_ROLE=${role}: no such role on this server (CREATE ROLE ${role} LOGIN PASSWORD …, as an administrator)`);
  await sql.begin(async (grant) => {
    const to = grant(role);
    await grant`grant usage on schema public to ${to}`;
    await grant`grant select, insert, update, delete on all tables in schema public to ${to}`;
    await grant`grant usage, select, update on all sequences in schema public to ${to}`;
    await grant`grant usage on schema drizzle to ${to}`;
    await grant`grant select on drizzle.__drizzle_migrations to ${to}`;
  });
}
