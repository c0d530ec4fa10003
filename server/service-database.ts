import type { Config } from "../core/config.js";
import { openDatabase, type Database } from "../drizzle/database.js";

/** The database a service of this configuration opens, and owns until it closes. */
export function openServiceDatabase(config: Config): Promise<Database> {
  return openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, statementTimeoutMs: config.statementTimeoutMs, maxConnections: config.databasePoolSize, processes: config.webConcurrency });
}
