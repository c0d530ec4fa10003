import type { Config } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import { openDatabase, type Database } from "../drizzle/database.js";

/** The database a service of this configuration opens, and owns until it closes. */
export function openServiceDatabase(config: Config, logger?: Logger, signal?: AbortSignal): Promise<Database> {
  logger?.debug({ step: "opening the database" }, "start-up");
  return openDatabase({
    databaseUrl: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
    maxConnections: config.databasePoolSize,
    processes: config.webConcurrency,
    onMigrating: () => logger?.debug({ step: "migrating the database" }, "start-up"),
    signal,
  });
}
