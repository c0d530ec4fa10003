import type { Config, ProcessRole } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import { openDatabase, type Database } from "../drizzle/database.js";

/**
 * The roles that run a subgraph with reads that tolerate lag (subgraph.names.ts, readsTolerateLag),
 * and the single process. Written out rather than read from the subgraphs: this module loads
 * before them, while the database opens (server/main.ts); a test holds the two equal.
 */
export const REPLICA_READING_ROLES: ReadonlySet<ProcessRole> = new Set(["all", "catalogue", "reporting"]);

/** The read replica a process of this role reads from; the edge, booking and the worker would hold a pool to it that nothing uses. */
export function replicaOfRole(config: Config): string | undefined {
  return REPLICA_READING_ROLES.has(config.role) ? config.databaseReadUrl : undefined;
}

/** The database a service of this configuration opens, and owns until it closes. */
export function openServiceDatabase(config: Config, logger?: Logger, signal?: AbortSignal): Promise<Database> {
  logger?.debug({ step: "opening the database" }, "start-up");
  return openDatabase({
    databaseUrl: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
    maxConnections: config.databasePoolSize,
    statementsPerAccount: config.databaseStatementsPerAccount,
    processes: config.webConcurrency,
    readUrl: replicaOfRole(config),
    replicaMaxLagSeconds: config.databaseReadMaxLagSeconds,
    onReplicaChange: (state) =>
      state.usable
        ? logger?.info({ lagSeconds: state.lagSeconds }, "the read replica serves the reads that tolerate lag")
        : logger?.warn({ reason: state.reason }, "the read replica does not serve: the reads that tolerate lag go to the primary"),
    onStaleSettings: (settings) =>
      logger?.warn(
        { settings },
        "a server connection of the pooler runs with settings this start changed: the pooler opened it before; renew its connections (PgBouncer: RECONNECT on its console) or wait for their lifetime (server_lifetime)",
      ),
    migrations: config.databaseMigrations,
    onMigrating: () => logger?.debug({ step: "migrating the database" }, "start-up"),
    onNewerSchema: (count) => logger?.warn({ newerMigrations: count }, "the database's schema has migrations this release does not know: a newer release migrated it"),
    signal,
    shortcuts: config.performanceShortcuts,
  });
}
