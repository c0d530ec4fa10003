import { ConfigError, loadConfig } from "../core/config.js";
import { runWhenStarted } from "../core/command-line.js";
import { DatabaseUnreachable, migrateDatabase } from "../drizzle/database.js";
import { RuntimeRoleUnknown, SchemaBehind } from "../drizzle/schema-migrations.js";

const USAGE = `Usage: npm run migrate

Brings the PostgreSQL schema of DATABASE_URL (DATABASE_DIRECT_URL when set: migrations hold a
session lock, which a transaction pooler cannot) up to this release's, as its own step of a
deployment, run as the role that owns the schema. With DATABASE_RUNTIME_ROLE, grants that role
what the service needs and nothing more: rows of every table, its sequences, reading where the
schema stands; no DDL. Services running as that role start with DATABASE_MIGRATIONS=verify and
refuse a schema that is behind them. The embedded database migrates itself as the service opens it.`;

/** Runs the migrations; returns the process exit code. Output goes to `out`, problems to `err`. */
export async function runMigrateCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, io = { out: console.log, err: console.error }): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.out(USAGE);
    return 0;
  }
  if (argv.length) {
    io.err(`unknown arguments: ${argv.join(" ")}\n\n${USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(error.message);
    return 1;
  }
  if (!config.databaseUrl) {
    io.err("DATABASE_URL is not set: the embedded database (DATA_DIR) migrates itself when the service opens it; npm run migrate is for PostgreSQL");
    return 2;
  }
  try {
    const report = await migrateDatabase({ databaseUrl: config.databaseUrl, directUrl: config.databaseDirectUrl, runtimeRole: config.databaseRuntimeRole });
    io.out(report.applied.length ? `applied ${report.applied.length} migration${report.applied.length === 1 ? "" : "s"}: ${report.applied.join(", ")}` : "no migration to apply");
    io.out(`the schema is at ${report.latest}${report.newer ? `, with ${report.newer} migration${report.newer === 1 ? "" : "s"} of a newer release` : ""}`);
    if (config.databaseRuntimeRole) io.out(`granted ${config.databaseRuntimeRole} the rows of every table and its sequences, without DDL`);
    return 0;
  } catch (error) {
    if (error instanceof DatabaseUnreachable) io.err(`${config.databaseDirectUrl ? "DATABASE_DIRECT_URL" : "DATABASE_URL"}: ${error.message}`);
    else if (error instanceof RuntimeRoleUnknown || error instanceof SchemaBehind) io.err(error.message);
    else throw error;
    return 1;
    throw error;
  }
}

runWhenStarted(import.meta.url, (argv) => runMigrateCommand(argv));
