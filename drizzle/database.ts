import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { ConnectionBudgetError, planPoolSize, readConnectionLimit } from "./connection-budget.js";
import { DataFolderUnusable, prepareDataFolder } from "./data-folder.js";
import { EventChannel, PgliteEventChannel, PostgresEventChannel } from "./events.js";
import { FairShare, type ShareSettings } from "./fair-share.js";
import { DriverObserver, observedPglite, observedPostgres, type PoolUse } from "./observed-driver.js";
import { PreparedStatementPolicy } from "./prepared-statements.js";
import { RemotePglite } from "./pglite-thread/remote.js";
import { pgliteTemplatePath, pruneTemplates } from "./pglite-thread/template.js";
import { installRowMapping } from "./row-mapping.js";
import * as schema from "./schema.js";

export type Schema = typeof schema;
/** The drizzle database both drivers give; repositories depend on this and never on a driver. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle or the database itself: repositories accept either. */
export type Executor = Pick<Db, "select" | "selectDistinct" | "insert" | "update" | "delete" | "execute" | "transaction">;

export type DriverName = "pglite" | "postgres";

export interface Database {
  db: Db;
  /**
   * The same database for a caller whose every statement finds its rows by key (a booking by id, a
   * product's slots between two times, the due jobs): on PostgreSQL its own connections, where a
   * prepared statement may keep one generic plan after five executions instead of being planned
   * at each (`db`'s connections plan every execution for its values, which search needs). Planning
   * was about a quarter of PostgreSQL's CPU for such statements (docs/benchmarks.md, twelfth
   * session). Never for statements whose best plan depends on their values: a search word, a
   * report's filters, a date range that may cover one row or all. PGlite: the database itself.
   */
  forKeyLookups: Database;
  driver: DriverName;
  events: EventChannel;
  /** Cheap round trip for readiness checks. */
  ping(): Promise<void>;
  /** How busy the connections are now (GET /metrics reads it when scraped). */
  poolUse(): PoolUse;
  /**
   * The same database for the statements of one account (a subgraph's request context takes it
   * from the caller): accounts take turns at the connections (fair-share.ts), so one account's
   * burst of statements never queues another's behind it. The database itself is the service's
   * own account, "".
   */
  forAccount(account: string): Database;
  close(): Promise<void>;
}

/** PostgreSQL: which of a database's two pools ran a statement. */
export type StatementConnections = "planned per execution" | "key lookups";

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite is used. */
  databaseUrl?: string;
  /**
   * PostgreSQL itself when `databaseUrl` is a connection pooler in transaction mode (PgBouncer,
   * RDS Proxy): migrations with their session lock, LISTEN and the connection settings go here,
   * everything else through the pooler, with nothing session-scoped. Absent or the same URL: no
   * pooler, one address for all.
   */
  directUrl?: string;
  /** PGlite data folder, or `memory`. */
  dataDir?: string;
  /** Run migrations on open (the default; start-up always does). */
  migrate?: boolean;
  /**
   * postgres.js: connections in each of the two pools (the database's own and `forKeyLookups`').
   * When absent, fitted to the server's limit for `processes` (connection-budget.ts), 10 at most.
   */
  maxConnections?: number;
  /** PostgreSQL: how many processes of the service open pools like these on the same server; 1 when absent. */
  processes?: number;
  /**
   * Called with every SQL statement the service runs (tests count them to catch N+1 queries), and
   * on PostgreSQL with the connections it was sent on (`forKeyLookups`' or the database's own).
   */
  onQuery?: (query: string, connections?: StatementConnections) => void;
  /**
   * PostgreSQL: a statement running longer is cancelled (SQLSTATE 57014), so one heavy request
   * cannot hold a pooled connection for others; 0 or absent: no limit. Migrations run without it.
   * PGlite cannot interrupt a statement (it ignores statement_timeout): there, the operation
   * limits are what bound a request's work; its own thread keeps the event loop free meanwhile.
   */
  statementTimeoutMs?: number;
  /** PostgreSQL: which statements run prepared (tests pass a small one to see its bound). */
  preparedStatements?: PreparedStatementPolicy;
  /** PGlite, a database not made yet: where migrated templates are kept (template.ts); a private folder in the temporary one when absent. */
  templateFolder?: string;
  /** Told when the open reaches the migrations (a start logs it). */
  onMigrating?: () => void;
  /**
   * A stop during the open: a PGlite database being made is abandoned at once, and a PostgreSQL
   * connection migrating is closed (the migrations' transaction rolls back); the open rejects
   * with the signal's reason. An embedded database that exists is opened to the end.
   */
  signal?: AbortSignal;
}

/** A transaction left open without a statement (a stalled caller) gives its locks back after this. */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Serialises concurrent migrators (several replicas starting at once) on PostgreSQL, and writers of the role's settings (applyRoleSettings). */
const MIGRATION_LOCK = 7_318_204_551;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  installRowMapping();
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options.dataDir ?? "memory", options);
}

async function openPglite(dataDir: string, options: DatabaseOptions): Promise<Database> {
  let releaseLock = () => {};
  if (dataDir !== "memory") {
    prepareDataFolder(dataDir);
    releaseLock = claimDataDir(dataDir);
  }
  const made = dataDir !== "memory" && existsSync(path.join(dataDir, "PG_VERSION"));
  const template = !made && options.migrate !== false ? pgliteTemplatePath(migrationsFolder, options.templateFolder) : undefined;
  const entriesBefore = dataDir !== "memory" && !made ? new Set(readdirSync(dataDir)) : undefined;
  // On its own thread: a statement there never holds up the event loop serving other requests.
  const client = new RemotePglite({ dataDir, template });
  // A database being made (in memory, or in a folder that held none) has nothing to keep yet: a
  // stop abandons it at once, with what it wrote, rather than wait seconds for it. One that exists
  // is opened to the end and closed, never cut off while it writes.
  let abandoning: Promise<void> | undefined;
  const abandon = () => {
    abandoning = client.abandon().then(() => {
      if (entriesBefore) for (const entry of readdirSync(dataDir)) if (!entriesBefore.has(entry)) rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    });
  };
  if (!made) options.signal?.addEventListener("abort", abandon, { once: true });
  try {
    options.signal?.throwIfAborted();
    const { fromTemplate } = await client.waitReady.catch((error: Error) => {
      if (options.signal?.aborted || dataDir === "memory") throw error;
      // Files of something else (another PostgreSQL's, a damaged database): the folder is the operator's to fix.
      throw new DataFolderUnusable(path.resolve(dataDir), `the embedded database in ${path.resolve(dataDir)} cannot be opened (${error.message})`);
    });
    if (options.migrate !== false) {
      options.onMigrating?.();
      await migratePglite(drizzlePglite({ client: client as never }), { migrationsFolder });
    }
    // A template is a cache: a start that cannot write one (a full disk) goes on without it.
    if (template && !fromTemplate) await client.dump(template).then(() => pruneTemplates(template)).catch(() => undefined);
    // Session settings, on the one connection for as long as it is open.
    for (const [name, value] of Object.entries(SESSION_SETTINGS)) await client.query("select set_config($1, $2, false)", [name, value]);
  } catch (error) {
    if (options.signal?.aborted && !made && !abandoning) abandon();
    await abandoning;
    await client.close().catch(() => undefined);
    releaseLock();
    throw options.signal?.aborted ? options.signal.reason : error;
  } finally {
    options.signal?.removeEventListener("abort", abandon);
  }
  // One connection: every statement and transaction takes it in turn.
  const observer = new DriverObserver(1);
  const share = new FairShare(PGLITE_TURNS);
  const events = new PgliteEventChannel(client);
  const shared = {
    driver: "pglite" as const,
    events,
    poolUse: () => ({ ...observer.use, statementsQueued: share.queued }),
    ping: async () => {
      await client.query("select 1");
    },
    close: async () => {
      await events.close();
      await client.close();
      releaseLock();
    },
  };
  const viewOf = accountViews((account): Database => {
    const view: Database = {
      ...shared,
      db: drizzlePglite({ client: observedPglite(client, observer, { share, account }) as never, schema, logger: queryLogger(options) }) as unknown as Db,
      get forKeyLookups() {
        return view;
      },
      forAccount: (other) => viewOf(other),
    };
    return view;
  });
  return viewOf(SERVICE_ACCOUNT);
}

/** The key of the service's own statements (jobs, sign-ins, the limits' bookkeeping) in the fair share. */
const SERVICE_ACCOUNT = "";

/**
 * PGlite runs one statement at a time: two slots keep the next statement waiting on its thread
 * while one runs (no idle gap for a message to cross), and an account holding one of them yields
 * the other to an account waiting with none.
 */
const PGLITE_TURNS: ShareSettings = { capacity: 2, share: 1, most: 2, quietMs: 20 };

/**
 * A PostgreSQL pool's connections: an account holds at most half of them, so another account's
 * statement finds one free, and runs beside at most half a pool of the first one's on the server's
 * processors, however many statements that account sends at once.
 */
const postgresTurns = (connections: number): ShareSettings => {
  const half = Math.max(1, Math.ceil(connections / 2));
  return { capacity: connections, share: half, most: half };
};

/** Views of the most recent accounts are kept; an account past them gets a new one (a drizzle instance, cheap to make). */
const ACCOUNT_VIEWS_KEPT = 1_000;

/** The database's view for each account, made once and kept for the most recently seen accounts. */
function accountViews(make: (account: string) => Database): (account: string) => Database {
  const views = new Map<string, Database>();
  const service = make(SERVICE_ACCOUNT);
  return (account) => {
    if (account === SERVICE_ACCOUNT) return service;
    let view = views.get(account);
    if (view) {
      // Most recent last: the oldest is first to go.
      views.delete(account);
    } else {
      view = make(account);
      sharedOf.set(view.db, service.db);
      sharedOf.set(view.forKeyLookups.db, service.forKeyLookups.db);
      if (views.size >= ACCOUNT_VIEWS_KEPT) views.delete(views.keys().next().value!);
    }
    views.set(account, view);
    return view;
  };
}

const sharedOf = new WeakMap<object, object>();

/**
 * What caches kept per database (search totals, service secrets, the shared taxonomy) are keyed
 * by: every account's view of a database shares the service's; a transaction is its own.
 */
export function sharedExecutor<T extends object>(executor: T): T {
  return (sharedOf.get(executor) as T | undefined) ?? executor;
}

/**
 * What every connection runs with, beyond the server's defaults. Set once per connection (at its
 * start on PostgreSQL, once on PGlite's one connection) rather than per statement, which cost a
 * transaction and three more round trips per search page.
 * - work_mem: the bitmap of a common word's matches at a million products (180,000 rows for
 *   "tour") stays exact; at the default 4 MB it turns lossy and the scan reads twice the heap pages.
 * - pg_trgm.word_similarity_threshold: from which word similarity the `<%` operator matches, so
 *   that "musuem" finds "museum" (0.43); typo-tolerant search is its only user.
 */
export const SESSION_SETTINGS = { work_mem: "16MB", "pg_trgm.word_similarity_threshold": "0.35" } as const;

/**
 * PostgreSQL only, where statements run prepared (prepared-statements.ts): every execution is
 * planned for its own values, as an unprepared statement is. A generic plan, which PostgreSQL
 * would otherwise switch to after five executions, cannot see that one search word matches 30
 * products and another 180,000.
 */
const PREPARED_PLANNING = { plan_cache_mode: "force_custom_plan" } as const;
/** `forKeyLookups`: PostgreSQL's own choice, a generic plan once it costs no more than the custom ones. */
const KEY_LOOKUP_PLANNING = { plan_cache_mode: "auto" } as const;

/** Connections in a pool through a transaction pooler, unless set (DATABASE_POOL_SIZE): the pooler's own sizes bound the server's. */
const POOLED_CONNECTIONS = 10;

/** What every connection runs with: the statement timeout asked for, the idle-transaction limit and SESSION_SETTINGS. */
function connectionSettings(options: DatabaseOptions): Record<string, string | number> {
  return { statement_timeout: options.statementTimeoutMs ?? 0, idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS, ...SESSION_SETTINGS };
}

/**
 * Through a transaction pooler a connection's settings can neither be sent when it starts (poolers
 * refuse such startup parameters, or drop them) nor set on it (the next transaction may run on
 * another): they become the role's defaults in this database (`ALTER ROLE … IN DATABASE … SET`,
 * which a role may do for itself), which every server connection the pooler opens starts with.
 * Written only when they differ, so that replicas starting together do not rewrite the catalogue.
 * Server connections the pooler opened before a change keep the old values until it renews them
 * (PgBouncer's server_lifetime, or RECONNECT): docs/operations.md.
 */
async function applyRoleSettings(direct: postgres.Sql, settings: Record<string, string | number>): Promise<void> {
  const current = await direct<{ setting: string }[]>`
    select unnest(setconfig) as setting from pg_db_role_setting
    where setrole = (select oid from pg_roles where rolname = current_user)
      and setdatabase = (select oid from pg_database where datname = current_database())`;
  const stored = new Map(current.map(({ setting }) => [setting.slice(0, setting.indexOf("=")), setting.slice(setting.indexOf("=") + 1)]));
  for (const [name, value] of Object.entries(settings)) {
    if (stored.get(name) === String(value)) continue;
    // ALTER ROLE takes no parameters: the names and values are the service's own, checked to be plain.
    if (!/^[a-z_.]+$/.test(name) || !/^[A-Za-z0-9.]+$/.test(String(value))) throw new Error(`not a plain connection setting: ${name}=${value}`);
    await direct.unsafe(`do $$ begin execute format('alter role %I in database %I set ${name} = ''${value}''', current_user, current_database()); end $$`);
  }
}

/** DATABASE_URL names a server that cannot be reached or will not let us in: the operator's setting to fix, not a crash. */
export class DatabaseUnreachable extends Error {
  override name = "DatabaseUnreachable";
}

/** Network failures and PostgreSQL's refusals of the connection itself (login, database name). */
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ECONNRESET", "CONNECT_TIMEOUT", "28P01", "28000", "3D000", "57P03"]);

/** The open's failure as DatabaseUnreachable, naming the server but never the URL's password; undefined for any other failure. */
function unreachable(url: string, error: unknown): DatabaseUnreachable | undefined {
  const code = (error as { code?: string }).code;
  if (!code || !UNREACHABLE_CODES.has(code)) return undefined;
  let where = "the server";
  try {
    const parsed = new URL(url);
    where = `${parsed.hostname || "the local socket"}${parsed.port ? `:${parsed.port}` : ""}${parsed.pathname.length > 1 ? `, database ${decodeURIComponent(parsed.pathname.slice(1))}` : ""}`;
  } catch {
    // A URL postgres.js took but URL does not: the server stays unnamed.
  }
  return new DatabaseUnreachable(`cannot open the PostgreSQL database at ${where}: ${(error as Error).message} (${code})`);
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const directUrl = options.directUrl ?? url;
  const pooled = directUrl !== url;
  // A single-connection client on PostgreSQL itself that reads the server's limit and, with the
  // session lock, migrates; without a statement timeout (the role's default, when pooled, is for requests).
  const opener = postgres(directUrl, { max: 1, onnotice: () => {}, connection: { statement_timeout: 0 } });
  const hangUp = () => void opener.end({ timeout: 0 });
  options.signal?.addEventListener("abort", hangUp, { once: true });
  let maxConnections: number;
  try {
    options.signal?.throwIfAborted();
    if (pooled) {
      // The pooler holds the server's connections: its own sizes (max_client_conn, default_pool_size) are the operator's.
      maxConnections = options.maxConnections ?? POOLED_CONNECTIONS;
    } else {
      const plan = planPoolSize(await readConnectionLimit(opener), { processes: options.processes ?? 1, requested: options.maxConnections });
      if ("refused" in plan) throw new ConnectionBudgetError(plan.refused);
      maxConnections = plan.poolSize;
    }
    // Held until the opener closes: concurrent starts migrate, and write the role's settings, one at a time.
    if (options.migrate !== false || pooled) await opener`select pg_advisory_lock(${MIGRATION_LOCK})`;
    if (options.migrate !== false) {
      options.onMigrating?.();
      await migratePostgres(drizzlePostgres(opener), { migrationsFolder });
    }
    if (pooled) await applyRoleSettings(opener, connectionSettings(options));
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw unreachable(directUrl, error) ?? error;
  } finally {
    options.signal?.removeEventListener("abort", hangUp);
    await opener.end({ timeout: 5 });
  }
  const pool = (planning: typeof PREPARED_PLANNING | typeof KEY_LOOKUP_PLANNING) =>
    pooled
      ? // A transaction pooler hands each transaction whichever server connection is free: nothing
        // may live in a session (startup settings, named prepared statements). The settings are
        // the role's own (applyRoleSettings), which every server connection the pooler opens starts with.
        postgres(url, { max: maxConnections, onnotice: () => {}, prepare: false })
      : postgres(url, { max: maxConnections, onnotice: () => {}, connection: { ...connectionSettings(options), ...planning } });
  // Two pools of `maxConnections` each; postgres.js opens a connection only when a statement needs
  // one. Through a pooler, one: without prepared statements the plan setting that tells them apart has nothing to choose.
  const client = pool(PREPARED_PLANNING);
  const keyLookupClient = pooled ? client : pool(KEY_LOOKUP_PLANNING);
  const observer = new DriverObserver((pooled ? 1 : 2) * maxConnections);
  // LISTEN holds a session: on PostgreSQL itself, never through a transaction pooler.
  const listener = pooled ? postgres(directUrl, { max: 1, onnotice: () => {} }) : client;
  // One policy for both: no connection of either holds more prepared statements than it admits (none through a pooler).
  const statements = pooled ? new PreparedStatementPolicy(0) : (options.preparedStatements ?? new PreparedStatementPolicy());
  // Each pool's connections shared between accounts.
  const clientShare = new FairShare(postgresTurns(maxConnections));
  const keyLookupShare = pooled ? clientShare : new FairShare(postgresTurns(maxConnections));
  const drizzleOn = (target: postgres.Sql, connections: StatementConnections, share: FairShare, account: string) =>
    drizzlePostgres(observedPostgres(target, observer, statements, { share, account }), { schema, logger: queryLogger(options, connections) }) as unknown as Db;
  const events = new PostgresEventChannel(listener);
  const clients = [...new Set([client, keyLookupClient, listener])];
  const shares = [...new Set([clientShare, keyLookupShare])];
  const shared = {
    driver: "postgres" as const,
    events,
    poolUse: () => ({ ...observer.use, statementsQueued: shares.reduce((sum, share) => sum + share.queued, 0) }),
    ping: async () => {
      await Promise.all([client`select 1`, keyLookupClient`select 1`]);
    },
    close: async () => {
      await events.close();
      await Promise.all(clients.map((open) => open.end({ timeout: 5 })));
    },
  };
  const viewOf = accountViews((account): Database => {
    const keyLookups: Database = {
      ...shared,
      db: drizzleOn(keyLookupClient, "key lookups", keyLookupShare, account),
      get forKeyLookups() {
        return keyLookups;
      },
      forAccount: (other) => viewOf(other).forKeyLookups,
    };
    return {
      ...shared,
      db: drizzleOn(client, "planned per execution", clientShare, account),
      forKeyLookups: keyLookups,
      forAccount: (other) => viewOf(other),
    };
  });
  return viewOf(SERVICE_ACCOUNT);
}

const queryLogger = (options: DatabaseOptions, connections?: StatementConnections) =>
  options.onQuery ? { logQuery: (query: string) => options.onQuery!(query, connections) } : false;

/** Used by code that must behave the same on both drivers but needs the raw row list. */
export async function rows<T>(executor: Pick<Db, "execute">, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

/**
 * PGlite files must be opened by one process at a time; a second opener (the operator CLI while
 * `npm start` runs) would corrupt them, so it is refused with a message instead.
 */
function claimDataDir(dataDir: string): () => void {
  const lockFile = path.join(dataDir, "activities.pid");
  try {
    const holder = Number(readFileSync(lockFile, "utf8"));
    if (holder && holder !== process.pid && processAlive(holder)) {
      throw new Error(
        `The embedded database in ${dataDir} is in use by process ${holder}. Stop that process first, or use DATABASE_URL with PostgreSQL to share one database.`,
      );
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  writeFileSync(lockFile, String(process.pid));
  return () => rmSync(lockFile, { force: true });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
