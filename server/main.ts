import cluster from "node:cluster";
import type { Config } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import type { Tracing } from "../core/tracing-sdk.js";
import type { Database } from "../drizzle/database.js";
import type { Service } from "./service.js";

/**
 * The first thing the process does: from here on SIGTERM or SIGINT stops it cleanly whatever the
 * start is doing, and every module of the service loads after this. What a stop means depends on
 * how far the start has come (`onStop`); until the start says, the signal is only remembered. A
 * signal reaches us once from a terminal or systemd (the whole process group) and again from npm
 * relaying it: the second changes nothing.
 */
let stopping: string | undefined;
let onStop: (signal: string) => void = () => {};
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = signal;
    onStop(signal);
  });
}

async function main() {
  const { ConfigError, loadConfig } = await import("../core/config.js");
  let config: Config;
  try {
    config = loadConfig(process.env, process.argv.slice(2));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // A folder the embedded database cannot use is a wrong setting: said now, in a line, before anything opens.
  if (!config.databaseUrl && config.dataDir !== "memory") {
    const { DataFolderUnusable, prepareDataFolder } = await import("../drizzle/data-folder.js");
    try {
      prepareDataFolder(config.dataDir);
    } catch (error) {
      if (error instanceof DataFolderUnusable) {
        console.error(`DATA_DIR=${JSON.stringify(config.dataDir)}: ${error.message}`);
        process.exit(1);
      }
      throw error;
    }
  }
  if (stopping) return stoppedDuringStart(stopping);
  if (cluster.isPrimary && config.webConcurrency > 1) return (await import("./cluster.js")).runPrimary(config);
  const { createLogger } = await import("../core/logger.js");
  const logger = createLogger(config.logLevel);
  let tracing: Tracing | undefined;
  // The worker claims jobs as soon as the service exists, before it listens: a stop then must end
  // it cleanly rather than kill it mid-transaction.
  let service: Service | undefined;
  const startAborted = new AbortController();
  const stopped = new Promise<undefined>((resolve) => startAborted.signal.addEventListener("abort", () => resolve(undefined)));
  onStop = (signal) => {
    const force = setTimeout(() => {
      console.error(`shutdown took longer than SHUTDOWN_GRACE_SECONDS (${config.shutdownGraceMs / 1000} s); exiting with requests unanswered`);
      service?.app.server.closeAllConnections();
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    if (service) void stop(service, signal, tracing);
    else startAborted.abort();
  };
  if (stopping) return stoppedDuringStart(stopping);
  // Before anything that could make a span. Off (no OTEL_* variables), the SDK is not even loaded.
  if (config.tracing) tracing = await (await import("../core/tracing-sdk.js")).startTracing(config.tracing, { logger });
  if (stopping) return stoppedDuringStart(stopping, { tracing, logger });
  if (cluster.isPrimary) console.log(`activities service starting: role ${config.role}`);
  // The database opens while the service's modules load: PGlite loads on its own thread, and
  // PostgreSQL migrates, during seconds the event loop spends compiling modules. createService
  // takes it over, and closes it if the start fails or is stopped.
  const openingDatabase = (await import("./service-database.js")).openServiceDatabase(config, logger, startAborted.signal);
  openingDatabase.catch(() => undefined);
  const { DataFolderUnusable } = await import("../drizzle/data-folder.js");
  const { ConnectionBudgetError } = await import("../drizzle/connection-budget.js");
  const { DatabaseUnreachable } = await import("../drizzle/database.js");
  const { SchemaBehind } = await import("../drizzle/schema-migrations.js");
  const { RatesFileError } = await import("../core/exchange-rates.js");
  /** A setting that names something unusable (a data folder, a server that cannot be reached, pools it cannot hold, a rates file) is reported like a wrong setting. */
  const unusableSetting = (error: unknown): string | undefined => {
    if (error instanceof DataFolderUnusable) return `DATA_DIR=${JSON.stringify(error.folder)}: ${error.message}`;
    if (error instanceof ConnectionBudgetError || error instanceof RatesFileError) return error.message;
    if (error instanceof DatabaseUnreachable) return `DATABASE_URL: ${error.message}`;
    if (error instanceof SchemaBehind) return `DATABASE_MIGRATIONS=${config.databaseMigrations}: ${error.message}`;
    return undefined;
  };
  // Such a database is said at once, not after the modules have loaded.
  const refused = openingDatabase.then(
    () => new Promise<never>(() => {}),
    (error: unknown) => unusableSetting(error) ?? new Promise<never>(() => {}),
  );
  // Loaded only by a process that serves: a cluster's primary forks and watches, and the
  // service's modules (the gateway, Apollo, OpenTelemetry) take 1.6 s of CPU to load, several
  // times that on a busy machine. A stop meanwhile does not wait for them: it closes the database
  // once it is open and exits. service.js first: it installs reflect-metadata before any
  // type-graphql class is declared.
  logger.debug({ step: "loading the service's modules" }, "start-up");
  const modules = await Promise.race([
    (async () => {
      const { createService, StartAborted } = await import("./service.js");
      const { GRAPHQL_PATH } = await import("./edge.js");
      const { CONSOLE_PREFIX } = await import("../rest-compat/rest-compat.plugin.js");
      return { createService, StartAborted, GRAPHQL_PATH, CONSOLE_PREFIX };
    })(),
    stopped,
    refused,
  ]);
  if (typeof modules === "string") {
    console.error(modules);
    process.exit(1);
  }
  if (!modules) return stoppedDuringStart(stopping!, { tracing, logger, openingDatabase });
  const { createService, StartAborted, GRAPHQL_PATH, CONSOLE_PREFIX } = modules;

  try {
    service = await createService(config, { signal: startAborted.signal, logger, openingDatabase });
  } catch (error) {
    const unusable = unusableSetting(error);
    if (unusable) {
      console.error(unusable);
      process.exit(1);
    }
    if (!(error instanceof StartAborted)) throw error;
    return stoppedDuringStart(stopping!, { tracing, logger });
  }
  if (stopping) return stop(service, stopping, tracing);
  logger.debug({ step: "listening" }, "start-up");
  await service.listen();
  if (stopping) return;
  const base = config.publicUrl;
  // In a cluster the first process speaks for all; the others listen quietly.
  if (!cluster.isPrimary && process.env.SERVICE_PROCESS_INDEX !== "1") return;
  const processes = config.webConcurrency > 1 ? `, ${config.webConcurrency} processes` : "";
  const lines = [`activities service: role ${config.role}, ${config.environment}, ${service.database.driver}${service.database.driver === "pglite" ? ` (${config.dataDir}, statements on their own thread)` : ` (two pools of ${service.database.poolUse().maxConnections / 2} connections a process)`}${processes}`];
  if (service.edge) {
    lines.push(
      `  GraphQL (HTTP and graphql-ws): ${base}${GRAPHQL_PATH}${config.graphqlIde ? " (a browser gets the GraphiQL IDE there)" : ""}`,
      `  REST paths:                    ${base}/api/..., ${base}/booking-flow/v1/..., ${base}/reporting/v1/...`,
      `  Console (Swagger UI):          ${base}${CONSOLE_PREFIX}/index.html`,
      `  Token endpoint:                ${base}${service.identity.paths.token}`,
      `  OpenID discovery:              ${base}${service.identity.paths.discovery}`,
    );

  }
  lines.push(`  Health:                        ${base}/health/live, ${base}/health/ready`);
  if (service.demoCatalogue.products) {
    lines.push(`  Demo catalogue created: ${service.demoCatalogue.suppliers} suppliers, ${service.demoCatalogue.products} products (booking engine ACTIVITIES_INVENTORY)`);
  }
  if (service.demoOcto) {
    lines.push(`  Demo OCTO supplier:            ${service.demoOcto.url} (the local OCTO supplier), registered as booking engine ${service.demoOcto.engine}: ${service.demoOcto.products} products imported`);
  }
  if (service.seeded.length) {
    lines.push(`  Demo accounts created (${config.environment} passwords, shown once):`);
    for (const account of service.seeded) {
      lines.push(`    ${account.role.padEnd(28)} ${account.username.padEnd(15)} ${account.password}${account.organisation ? `  (${account.organisation})` : ""}`);
    }
    lines.push(
      `  Get a token: curl -s ${base}${service.identity.paths.token} -d client_id=content-partner-api -d grant_type=password -d username=${service.seeded[0].username} -d password=${service.seeded[0].password}`,
    );
  }
  console.log(lines.join("\n"));
}

/**
 * A stop before the service existed: what the start had opened is closed (the database it was
 * opening, once open: an embedded one must not be cut off while it writes), spans are sent, exit 0.
 */
async function stoppedDuringStart(signal: string, opened: { tracing?: Tracing; logger?: Logger; openingDatabase?: Promise<Database> } = {}): Promise<void> {
  const database = await opened.openingDatabase?.catch(() => undefined);
  await database?.close().catch((error: unknown) => opened.logger?.warn({ err: error }, "closing the database after a stopped start failed"));
  if (opened.logger) await stopTracing(opened.tracing, opened.logger);
  console.log(`activities service stopped during start-up (${signal})`);
  process.exit(0);
}

async function stop(service: Service, signal: string, tracing: Tracing | undefined): Promise<void> {
  service.logger.info({ signal }, "shutting down");
  // The port stays open a moment (SHUTDOWN_DRAIN_SECONDS): connections the kernel queued while a
  // busy process had not taken them yet, and those a balancer sends before it learns of the stop,
  // are answered with `Connection: close` rather than reset. Timers run only after the event loop
  // has looked at its sockets, so whatever was queued at the signal is accepted by then.
  if (service.url) {
    service.drain();
    await new Promise((resolve) => setTimeout(resolve, service.config.shutdownDrainMs));
  }
  let failed = false;
  try {
    await service.close();
  } catch (error) {
    failed = true;
    service.logger.error({ err: error }, "shutdown failed");
  }
  // After the last request has answered, so its spans go too (those of a failed stop as well).
  await stopTracing(tracing, service.logger);
  if (!failed) service.logger.info({ signal }, "stopped");
  process.exit(failed ? 1 : 0);
}

/** How long the last spans may take to leave; within SHUTDOWN_GRACE_SECONDS, which bounds the whole stop. */
const TRACE_FLUSH_MS = 5_000;

/** Sends the spans still buffered. Spans that cannot be sent are reported, but the stop itself went well: exit 0. */
async function stopTracing(tracing: Tracing | undefined, logger: Logger): Promise<void> {
  await tracing?.shutdown(TRACE_FLUSH_MS).catch((error: unknown) => logger.warn({ err: error }, "the last spans could not be exported"));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
