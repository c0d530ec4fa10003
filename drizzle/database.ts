import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { DEFAULT_STATEMENTS_PER_ACCOUNT } from "../core/config.js";
import { ConnectionBudgetError, planPoolSize, readConnectionLimit } from "./connection-budget.js";
import { DataFolderUnusable, prepareDataFolder } from "./data-folder.js";
import { databaseAddress, type DatabaseAddress, type SslMode } from "../core/database-tls.js";
import { EventChannel, PgliteEventChannel, PostgresEventChannel } from "./events.js";
import { FairShare, type ShareSettings } from "./fair-share.js";
import { DriverObserver, observedPglite, observedPostgres, type PoolUse } from "./observed-driver.js";
import { PreparedStatementPolicy } from "./prepared-statements.js";
import { ReplicaMonitor, type ReplicaState } from "./read-replica.js";
import { RemotePglite } from "./pglite-thread/remote.js";
import { pgliteTemplatePath, pruneTemplates } from "./pglite-thread/template.js";
import { installRowMapping } from "./row-mapping.js";
import { withSessionShortcuts, type DatabaseShortcuts } from "./database-shortcuts.js";
import { withDriverQueue } from "./driver-queue/choice.js";
import { allShortcutsOn } from "../core/performance-shortcuts.js";
import * as schema from "./schema.js";
import { applyMigrations, behindMessage, grantRuntimeRole, readJournal, readSchemaState, SchemaBehind, type MigrationsOnStart } from "./schema-migrations.js";

import type { Db } from "./executor.js";
export { rows, type Db, type Executor, type Schema } from "./executor.js";

export type DriverName = "pglite" | "postgres";

export interface Database {
  db: Db;
  /**
   * The same database for a caller whose every statement finds its rows by key (a booking by id, a
   * product's slots between two times, the due jobs): on PostgreSQL its own connections, where a
   * prepared statement may keep one generic plan after five executions instead of being planned
   * at each (`db`'s connections plan every execution for its values, which search needs). Planning
   * was about a quarter of PostgreSQL's CPU for such statements (bench/results/2026-11-26-cores-booking-9.md).
   * Never for statements whose best plan depends on their values: a search word, a
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
  /**
   * The same account's database for a read that tolerates lag (DATABASE_READ_URL): the read
   * replica's connections while the replica is usable (read-replica.ts), else this database. Only
   * reads go there: a replica refuses writes.
   */
  readonly forLaggingReads: Database;
  /** The same account's database on the primary, which takes writes: itself, unless this is a replica's. */
  readonly primary: Database;
  /** The read replica as its last probe found it; undefined without one. */
  replicaState(): ReplicaState | undefined;
  close(): Promise<void>;
}

/** PostgreSQL: which of a database's pools ran a statement (the two on the primary, or the read replica's). */
export type StatementConnections = "planned per execution" | "key lookups" | "lagging reads";

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
  /**
   * PostgreSQL: a read replica (a hot standby, or a copy kept by other means) for the reads that
   * tolerate lag (`forLaggingReads`). Same treatment as `databaseUrl`: through a pooler when that
   * is one. Absent: every read on the primary.
   */
  readUrl?: string;
  /** The replica serves while its replay is no further behind than this; 10 s when absent. */
  replicaMaxLagSeconds?: number;
  /** Told when the replica starts or stops serving reads, and after its first probe. */
  onReplicaChange?: (state: ReplicaState) => void;
  /** PGlite data folder, or `memory`. */
  dataDir?: string;
  /** Neither migrate nor look at the schema's state on open (tools that only read); migrations are on by default. */
  migrate?: boolean;
  /**
   * PostgreSQL: `apply` the migrations this release has that the database lacks (the default), or
   * `verify` that there are none and refuse to open otherwise (SchemaBehind), for a service whose
   * role may not change the schema and a deployment that runs `npm run migrate` as its own step.
   * The embedded database always applies them: it is the service's own.
   */
  migrations?: MigrationsOnStart;
  /**
   * Behind a pooler: told the settings (`name=value (the role's default: …)`) a pooled server
   * connection runs with that are not the role's defaults any more: the pooler opened it before
   * this start changed them, and keeps it until it renews it.
   */
  onStaleSettings?: (settings: string[]) => void;
  /** PostgreSQL: told how many migrations the database has that this release does not (a newer release migrated it). */
  onNewerSchema?: (count: number) => void;
  /**
   * postgres.js: connections in each of the two pools (the database's own and `forKeyLookups`').
   * When absent, fitted to the server's limit for `processes` (connection-budget.ts), 10 at most.
   */
  maxConnections?: number;
  /** PostgreSQL: how many processes of the service open pools like these on the same server; 1 when absent. */
  processes?: number;
  /**
   * PostgreSQL: statements one account runs at once in a pool while other accounts use the
   * database (see postgresTurns); DEFAULT_STATEMENTS_PER_ACCOUNT when absent (the service's
   * configuration sets it: core/config.ts, defaultStatementsPerAccount).
   */
  statementsPerAccount?: number;
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
  /**
   * Which of drizzle's and postgres.js's shortcuts this database takes (row mapping, compiled
   * statements, prepared statements, the bounded driver queue); all when absent. Off, a statement
   * takes the library's own path and answers the same (docs/performance-machinery.md).
   */
  shortcuts?: DatabaseShortcuts;
}

const shortcutsOf = (options: DatabaseOptions): DatabaseShortcuts => options.shortcuts ?? allShortcutsOn;

/** A transaction left open without a statement (a stalled caller) gives its locks back after this. */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Serialises concurrent migrators (several replicas starting at once) on PostgreSQL, and writers of the role's settings (applyRoleSettings). */
const MIGRATION_LOCK = 7_318_204_551;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (shortcutsOf(options)["row-mapping"]) installRowMapping();
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
  await startPglite(client, { dataDir, made, template, entriesBefore, releaseLock }, options);
  return pgliteDatabase(client, releaseLock, options);
}

/** An embedded database being opened: its folder, whether it existed, the template it is made from, and its folder's lock. */
interface PgliteOpening {
  dataDir: string;
  made: boolean;
  template: string | undefined;
  /** What a folder that held no database held before it was made in it. */
  entriesBefore: Set<string> | undefined;
  releaseLock: () => void;
}

/** Opens the database to the end, or closes it, lets its folder go and throws. */
async function startPglite(client: RemotePglite, opening: PgliteOpening, options: DatabaseOptions): Promise<void> {
  const { dataDir, made, entriesBefore } = opening;
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
    await preparePglite(client, opening, options);
  } catch (error) {
    if (options.signal?.aborted && !made && !abandoning) abandon();
    await abandoning;
    await client.close().catch(() => undefined);
    opening.releaseLock();
    throw options.signal?.aborted ? options.signal.reason : error;
  } finally {
    options.signal?.removeEventListener("abort", abandon);
  }
}

/** Once its thread is ready: the migrations, the template kept for the next database made, and the session settings. */
async function preparePglite(client: RemotePglite, { dataDir, template }: PgliteOpening, options: DatabaseOptions): Promise<void> {
  const { fromTemplate } = await client.waitReady.catch((error: Error) => {
    if (options.signal?.aborted || dataDir === "memory") throw error;
    // Files of something else (another PostgreSQL's, a damaged database): the folder is the operator's to fix.
    throw new DataFolderUnusable(path.resolve(dataDir), `the embedded database in ${path.resolve(dataDir)} cannot be opened (${error.message})`);
  });
  if (options.migrate !== false) {
    options.onMigrating?.();
    await migratePglite(withSessionShortcuts(drizzlePglite({ client: client as never }), shortcutsOf(options)), { migrationsFolder });
  }
  // A template is a cache: a start that cannot write one (a full disk) goes on without it.
  if (template && !fromTemplate) await client.dump(template).then(() => pruneTemplates(template)).catch(() => undefined);
  // Session settings, on the one connection for as long as it is open.
  for (const [name, value] of Object.entries(SESSION_SETTINGS)) await client.query("select set_config($1, $2, false)", [name, value]);
}

/** What each of a database's views shares: its driver, events, pools' use, replica, ping and close. */
type SharedByViews = Pick<Database, "driver" | "events" | "poolUse" | "replicaState" | "ping" | "close">;

/** The open embedded database, its views one per account. */
function pgliteDatabase(client: RemotePglite, releaseLock: () => void, options: DatabaseOptions): Database {
  // One connection: every statement and transaction takes it in turn.
  const observer = new DriverObserver(1);
  const share = new FairShare(PGLITE_TURNS);
  const events = new PgliteEventChannel(client);
  const shared: SharedByViews = {
    driver: "pglite" as const,
    events,
    poolUse: () => ({ ...observer.use, statementsQueued: share.queued }),
    replicaState: () => undefined,
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
      db: withSessionShortcuts(drizzlePglite({ client: observedPglite(client, observer, { share, account }) as never, schema, logger: queryLogger(options) }) as unknown as Db, shortcutsOf(options)),
      get forKeyLookups() {
        return view;
      },
      get forLaggingReads() {
        return view;
      },
      get primary() {
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
 * A PostgreSQL pool's connections. While other accounts use the database (a statement of theirs
 * within the last second), an account runs at most `perAccount` statements at once: another
 * account's statement finds a connection free, and shares the server's processors with only that
 * many of the first one's, however many it sends. Connections free were not enough: on a server
 * of two processors, five heavy searches of one account at once (half a pool) made another
 * account's searches 8 to 11 times slower at their slowest, two at once about twice, one at once
 * 1.2 to 2.4 times (bench/results/2026-11-28-fairness.md). Alone, an account may take up to half the
 * pool; the service's own statements (session checks, the worker) do not count as another
 * account's, though they take their turns like one.
 */
export const postgresTurns = (connections: number, perAccount = DEFAULT_STATEMENTS_PER_ACCOUNT): ShareSettings => {
  const half = Math.max(1, Math.ceil(connections / 2));
  const share = Math.min(perAccount, connections);
  return { capacity: connections, share, most: Math.max(share, half), quietMs: POSTGRES_QUIET_MS, notCompeting: SERVICE_ACCOUNT };
};
/** Beyond its share only while no other account has run a statement within this long. */
const POSTGRES_QUIET_MS = 1_000;

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
  // An extension's settings are known once its library loads, at its first use; until then
  // PostgreSQL lets only a superuser store one (pg_trgm.word_similarity_threshold) for a role.
  const [trigrams] = await direct<{ installed: boolean }[]>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as installed`;
  if (trigrams.installed) await direct`select similarity('', '')`;
  const stored = new Map(current.map(({ setting }) => [setting.slice(0, setting.indexOf("=")), setting.slice(setting.indexOf("=") + 1)]));
  for (const [name, value] of Object.entries(settings)) {
    if (stored.get(name) === String(value)) continue;
    // ALTER ROLE takes no parameters: the names and values are the service's own, checked to be plain.
    if (!/^[a-z_.]+$/.test(name) || !/^[A-Za-z0-9.]+$/.test(String(value))) throw new Error(`not a plain connection setting: ${name}=${value}`);
    await direct.unsafe(`do $$ begin execute format('alter role %I in database %I set ${name} = ''${value}''', current_user, current_database()); end $$`);
  }
}

/**
 * The settings a pooled server connection runs with that differ from the role's defaults as a new
 * connection to PostgreSQL itself gets them: a connection the pooler opened before the start
 * changed them keeps the old values until the pooler renews it. One statement through the
 * pooler reads one of its server connections, so this can find a stale pooler, not prove one fresh.
 */
async function staleSettings(pooled: postgres.Sql, direct: DatabaseAddress, names: string[]): Promise<string[]> {
  const read = (sql: postgres.Sql) => sql<{ name: string; value: string }[]>`select name, coalesce(current_setting(name, true), '(unset)') as value from unnest(${names}::text[]) as name`;
  const fresh = postgres(direct.url, { max: 1, onnotice: () => {}, ssl: direct.ssl });
  try {
    const [wanted, running] = await Promise.all([read(fresh), read(pooled)]);
    const expected = new Map(wanted.map((row) => [row.name, row.value]));
    return running.filter((row) => expected.get(row.name) !== row.value).map((row) => `${row.name}=${row.value} (the role's default: ${expected.get(row.name)})`);
  } finally {
    await fresh.end({ timeout: 5 });
  }
}

/** DATABASE_URL names a server that cannot be reached or will not let us in: the operator's setting to fix, not a crash. */
export class DatabaseUnreachable extends Error {
  override name = "DatabaseUnreachable";
}

/** Network failures and PostgreSQL's (or a pooler's) refusals of the connection itself (login, database name, TLS required). */
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ECONNRESET", "CONNECT_TIMEOUT", "28P01", "28000", "3D000", "57P03", "08P01"]);

/** Node's and OpenSSL's codes for a certificate that does not verify (sslmode verify-ca, verify-full). */
const CERTIFICATE_REFUSED = /^(ERR_TLS_|ERR_SSL_|UNABLE_TO_)|CERT|SIGNATURE|^INVALID_CA$|^HOSTNAME_MISMATCH$/;

/** The open's failure as DatabaseUnreachable, naming the server but never the URL's password; undefined for any other failure. */
function unreachable(url: string, mode: SslMode, error: unknown): DatabaseUnreachable | undefined {
  const code = (error as { code?: string }).code;
  if (!code || !(UNREACHABLE_CODES.has(code) || CERTIFICATE_REFUSED.test(code))) return undefined;
  let where = "the server";
  try {
    const parsed = new URL(url);
    where = `${parsed.hostname || "the local socket"}${parsed.port ? `:${parsed.port}` : ""}${parsed.pathname.length > 1 ? `, database ${decodeURIComponent(parsed.pathname.slice(1))}` : ""}`;
  } catch {
    // A URL postgres.js took but URL does not: the server stays unnamed.
  }
  // postgres.js starts TLS even when the server answered that it has none: the socket then just closes.
  const hint = mode !== "disable" && mode !== "prefer" && /TLS/.test((error as Error).message) ? `; sslmode=${mode} needs a server that offers TLS` : "";
  return new DatabaseUnreachable(`cannot open the PostgreSQL database at ${where}: ${(error as Error).message} (${code})${hint}`);
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const directUrl = options.directUrl ?? url;
  const target: PostgresTarget = { url, address: databaseAddress(url), directUrl, directAddress: databaseAddress(directUrl), pooled: directUrl !== url };
  const maxConnections = await prepareServer(target, options);
  const pools = openPools(target, maxConnections, options);
  if (target.pooled) await checkPooler(target, pools, options);
  const replica = options.readUrl ? await openReplica(options.readUrl, pools.client, target.pooled, maxConnections, options) : undefined;
  const shared = postgresShared(pools, replica);
  const replicaViewOf = replica ? replicaViews(shared, replica, pools.statements, options, (account) => viewOf(account)) : undefined;
  const replicaFor = (account: string) => (replica?.monitor.state.usable ? replicaViewOf!(account) : undefined);
  const viewOf = primaryViews(shared, pools, options, replicaFor);
  return viewOf(SERVICE_ACCOUNT);
}

/** Where a PostgreSQL database is: its URL, and PostgreSQL itself when that URL is a transaction pooler's. */
interface PostgresTarget {
  url: string;
  address: DatabaseAddress;
  directUrl: string;
  directAddress: DatabaseAddress;
  pooled: boolean;
}

/** The pools of a PostgreSQL database, and what their statements share. */
interface PostgresPools {
  /** Statements planned for their values at each execution. */
  client: postgres.Sql;
  keyLookupClient: postgres.Sql;
  /** The connection LISTEN holds. */
  listener: postgres.Sql;
  observer: DriverObserver;
  statements: PreparedStatementPolicy;
  clientShare: FairShare;
  keyLookupShare: FairShare;
}

type Replica = Awaited<ReturnType<typeof openReplica>>;

function connectTo(at: DatabaseAddress, settings: postgres.Options<Record<string, postgres.PostgresType>>, options: DatabaseOptions): postgres.Sql {
  return postgresPool(shortcutsOf(options), at.url, { onnotice: () => {}, ssl: at.ssl, ...settings });
}

/**
 * Before the pools open, on PostgreSQL itself: the pools' size, the migrations and, behind a
 * pooler, the role's settings. A single-connection client that reads the server's limit and, with
 * the session lock, migrates; without a statement timeout (the role's default, when pooled, is for
 * requests). Gives the connections each pool may open.
 */
async function prepareServer(target: PostgresTarget, options: DatabaseOptions): Promise<number> {
  const opener = connectTo(target.directAddress, { max: 1, connection: { statement_timeout: 0 } }, options);
  const hangUp = () => void opener.end({ timeout: 0 });
  options.signal?.addEventListener("abort", hangUp, { once: true });
  try {
    options.signal?.throwIfAborted();
    const maxConnections = await poolSize(opener, target.pooled, options);
    // Held until the opener closes: concurrent starts migrate, and write the role's settings, one at a time.
    const lock = migrationLock(opener);
    await migrateOnOpen(opener, lock, options);
    if (target.pooled) {
      await lock();
      await applyRoleSettings(opener, connectionSettings(options));
    }
    return maxConnections;
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw unreachable(target.directUrl, target.directAddress.mode, error) ?? error;
  } finally {
    options.signal?.removeEventListener("abort", hangUp);
    await opener.end({ timeout: 5 });
  }
}

async function poolSize(opener: postgres.Sql, pooled: boolean, options: DatabaseOptions): Promise<number> {
  // The pooler holds the server's connections: its own sizes (max_client_conn, default_pool_size) are the operator's.
  if (pooled) return options.maxConnections ?? POOLED_CONNECTIONS;
  const plan = planPoolSize(await readConnectionLimit(opener), { processes: options.processes ?? 1, requested: options.maxConnections });
  if ("refused" in plan) throw new ConnectionBudgetError(plan.refused);
  return plan.poolSize;
}

/** Takes the migration lock on the connection the first time it is called; it is held until that connection closes. */
function migrationLock(opener: postgres.Sql): () => Promise<void> {
  let locked = false;
  return async () => {
    if (!locked) await opener`select pg_advisory_lock(${MIGRATION_LOCK})`;
    locked = true;
  };
}

async function migrateOnOpen(opener: postgres.Sql, lock: () => Promise<void>, options: DatabaseOptions): Promise<void> {
  const migrations = options.migrate === false ? undefined : (options.migrations ?? "apply");
  if (!migrations) return;
  // Read first: a schema up to date asks nothing of the role's rights, so a least-privileged role starts on it.
  const state = await readSchemaState(opener, migrationsFolder);
  if (state.newer) options.onNewerSchema?.(state.newer);
  if (state.pending.length && migrations === "verify") throw new SchemaBehind(behindMessage(state.pending));
  if (state.pending.length) {
    await lock();
    options.onMigrating?.();
    await applyMigrations(opener, migrationsFolder, state.pending);
  }
}

function openPools(target: PostgresTarget, maxConnections: number, options: DatabaseOptions): PostgresPools {
  const { pooled, address, directAddress } = target;
  const pool = (planning: typeof PREPARED_PLANNING | typeof KEY_LOOKUP_PLANNING) =>
    pooled
      ? // A transaction pooler hands each transaction whichever server connection is free: nothing
        // may live in a session (startup settings, named prepared statements). The settings are
        // the role's own (applyRoleSettings), which every server connection the pooler opens starts with.
        connectTo(address, { max: maxConnections, prepare: false }, options)
      : connectTo(address, { max: maxConnections, connection: { ...connectionSettings(options), ...planning } }, options);
  // Two pools of `maxConnections` each; postgres.js opens a connection only when a statement needs
  // one. Through a pooler, one: without prepared statements the plan setting that tells them apart has nothing to choose.
  const client = pool(PREPARED_PLANNING);
  const keyLookupClient = pooled ? client : pool(KEY_LOOKUP_PLANNING);
  const observer = new DriverObserver((pooled ? 1 : 2) * maxConnections);
  // LISTEN holds a session: on PostgreSQL itself, never through a transaction pooler.
  const listener = pooled ? connectTo(directAddress, { max: 1 }, options) : client;
  // One policy for both: no connection of either holds more prepared statements than it admits (none through a pooler, nor with the shortcut off).
  const statements = pooled || !shortcutsOf(options)["prepared-statements"] ? new PreparedStatementPolicy(0) : (options.preparedStatements ?? new PreparedStatementPolicy());
  // Each pool's connections shared between accounts.
  const turns = postgresTurns(maxConnections, options.statementsPerAccount);
  const clientShare = new FairShare(turns);
  const keyLookupShare = pooled ? clientShare : new FairShare(turns);
  return { client, keyLookupClient, listener, observer, statements, clientShare, keyLookupShare };
}

/** The opener reached PostgreSQL itself; the pooler's address (its TLS, its users) is tried here, so that a start says what is wrong with it. */
async function checkPooler(target: PostgresTarget, pools: PostgresPools, options: DatabaseOptions): Promise<void> {
  let stale: string[];
  try {
    stale = await staleSettings(pools.client, target.directAddress, Object.keys(connectionSettings(options)));
  } catch (error) {
    await Promise.all([pools.client.end({ timeout: 0 }), pools.listener.end({ timeout: 0 })]);
    throw unreachable(target.url, target.address.mode, error) ?? error;
  }
  if (stale.length) options.onStaleSettings?.(stale);
}

function postgresShared(pools: PostgresPools, replica: Replica | undefined): SharedByViews {
  const { client, keyLookupClient, listener, observer } = pools;
  const events = new PostgresEventChannel(listener);
  const clients = [...new Set([client, keyLookupClient, listener])];
  const shares = [...new Set([pools.clientShare, pools.keyLookupShare])];
  return {
    driver: "postgres" as const,
    events,
    poolUse: () => ({ ...observer.use, statementsQueued: shares.reduce((sum, share) => sum + share.queued, 0) }),
    replicaState: () => replica?.monitor.state,
    ping: async () => {
      await Promise.all([client`select 1`, keyLookupClient`select 1`]);
    },
    close: async () => {
      await replica?.close();
      await events.close();
      await Promise.all(clients.map((open) => open.end({ timeout: 5 })));
    },
  };
}

/**
 * Each account's views of the primary: the one planned per execution, and its key lookups'. A
 * read that tolerates lag goes to the account's replica view while `replicaFor` gives one.
 */
function primaryViews(shared: SharedByViews, pools: PostgresPools, options: DatabaseOptions, replicaFor: (account: string) => Database | undefined): (account: string) => Database {
  const drizzleOn = (target: postgres.Sql, connections: StatementConnections, share: FairShare, account: string) =>
    withSessionShortcuts(drizzlePostgres(observedPostgres(target, pools.observer, pools.statements, { share, account }), { schema, logger: queryLogger(options, connections) }) as unknown as Db, shortcutsOf(options));
  const viewOf = accountViews((account): Database => {
    const keyLookups: Database = {
      ...shared,
      db: drizzleOn(pools.keyLookupClient, "key lookups", pools.keyLookupShare, account),
      get forKeyLookups() {
        return keyLookups;
      },
      get forLaggingReads() {
        return replicaFor(account) ?? keyLookups;
      },
      get primary() {
        return keyLookups;
      },
      forAccount: (other) => viewOf(other).forKeyLookups,
    };
    const planned: Database = {
      ...shared,
      db: drizzleOn(pools.client, "planned per execution", pools.clientShare, account),
      forKeyLookups: keyLookups,
      get forLaggingReads() {
        return replicaFor(account) ?? planned;
      },
      get primary() {
        return planned;
      },
      forAccount: (other) => viewOf(other),
    };
    return planned;
  });
  return viewOf;
}

/** Each account's view of the read replica, whose primary is the account's view of the primary. */
function replicaViews(shared: SharedByViews, replica: Replica, statements: PreparedStatementPolicy, options: DatabaseOptions, primaryOf: (account: string) => Database): (account: string) => Database {
  const replicaViewOf = accountViews((account): Database => {
    const view: Database = {
      ...shared,
      db: withSessionShortcuts(drizzlePostgres(observedPostgres(replica.client, replica.observer, statements, { share: replica.share, account }), { schema, logger: queryLogger(options, "lagging reads") }) as unknown as Db, shortcutsOf(options)),
      get forKeyLookups() {
        return view;
      },
      get forLaggingReads() {
        return view;
      },
      get primary() {
        return primaryOf(account);
      },
      forAccount: (other) => replicaViewOf(other),
    };
    return view;
  });
  return replicaViewOf;
}

/** A postgres.js pool whose queues of connections are the bounded ones, or the driver's own with the driver-queue shortcut off (driver-queue/choice.ts). */
function postgresPool(shortcuts: DatabaseShortcuts, url: string, settings: postgres.Options<Record<string, postgres.PostgresType>>): postgres.Sql {
  return withDriverQueue(shortcuts["driver-queue"], () => postgres(url, settings));
}

/**
 * The read replica's pool, its own share of turns between accounts, and the monitor that says
 * whether it serves. Its statements are planned for their values, as the primary's search pool's.
 * Unreachable at the start: the service starts, reads on the primary, and the monitor keeps trying.
 */
async function openReplica(readUrl: string, primary: postgres.Sql, pooled: boolean, maxConnections: number, options: DatabaseOptions) {
  const address = databaseAddress(readUrl);
  const client = pooled
    ? postgresPool(shortcutsOf(options), address.url, { onnotice: () => {}, ssl: address.ssl, max: maxConnections, prepare: false })
    : postgresPool(shortcutsOf(options), address.url, { onnotice: () => {}, ssl: address.ssl, max: maxConnections, connection: { ...connectionSettings(options), ...PREPARED_PLANNING } });
  const monitor = new ReplicaMonitor(primary, client, options.replicaMaxLagSeconds ?? 10, options.onReplicaChange);
  await monitor.start();
  return {
    client,
    monitor,
    observer: new DriverObserver(maxConnections),
    share: new FairShare(postgresTurns(maxConnections, options.statementsPerAccount)),
    close: async () => {
      await monitor.stop();
      await client.end({ timeout: 5 });
    },
  };
}

/** What `npm run migrate` did: the migrations it applied, oldest first, and where the schema stands. */
export interface MigrationReport {
  applied: string[];
  /** The release's latest migration, which the schema is now at. */
  latest: string;
  /** Migrations the database has that this release does not know (a newer release's). */
  newer: number;
}

/**
 * Brings a PostgreSQL database's schema up to this release's, on PostgreSQL itself (`directUrl`,
 * else `databaseUrl`), as a role that may change the schema (its owner), and grants `runtimeRole`
 * what a service running as it needs (grantRuntimeRole). Concurrent runs and starting services
 * take their turn at the migration lock.
 */
export async function migrateDatabase(options: { databaseUrl: string; directUrl?: string; runtimeRole?: string }): Promise<MigrationReport> {
  const url = options.directUrl ?? options.databaseUrl;
  const address = databaseAddress(url);
  const owner = postgres(address.url, { max: 1, onnotice: () => {}, ssl: address.ssl, connection: { statement_timeout: 0 } });
  try {
    await owner`select pg_advisory_lock(${MIGRATION_LOCK})`;
    const state = await readSchemaState(owner, migrationsFolder);
    if (state.pending.length) await applyMigrations(owner, migrationsFolder, state.pending);
    if (options.runtimeRole) await grantRuntimeRole(owner, options.runtimeRole);
    return { applied: state.pending, latest: readJournal(migrationsFolder).at(-1)!.tag, newer: state.newer };
  } catch (error) {
    throw unreachable(url, address.mode, error) ?? error;
  } finally {
    await owner.end({ timeout: 5 });
  }
}

const queryLogger = (options: DatabaseOptions, connections?: StatementConnections) =>
  options.onQuery ? { logQuery: (query: string) => options.onQuery!(query, connections) } : false;

/** Used by code that must behave the same on both drivers but needs the raw row list. */

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
