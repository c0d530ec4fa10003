import { ConfigError, loadConfig } from "../core/config.js";
import { createLogger, type Logger } from "../core/logger.js";
import type { Tracing } from "../core/tracing-sdk.js";
import { RatesFileError } from "../core/exchange-rates.js";
import { ConnectionBudgetError } from "../drizzle/connection-budget.js";
import cluster from "node:cluster";
import { runPrimary } from "./cluster.js";
import type { Service } from "./service.js";

async function main() {
  let config;
  try {
    config = loadConfig(process.env, process.argv.slice(2));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (cluster.isPrimary && config.webConcurrency > 1) return runPrimary(config);
  const logger = createLogger(config.logLevel);
  let tracing: Tracing | undefined;
  // Signals are handled from the start: the worker claims jobs as soon as the service exists, before
  // it listens, and a SIGTERM then must stop it cleanly rather than kill it mid-transaction. A
  // signal reaches us once from a terminal or systemd (the whole process group) and again from
  // npm relaying it: the second changes nothing.
  let service: Service | undefined;
  let stopping: string | undefined;
  const startAborted = new AbortController();
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = signal;
    const force = setTimeout(() => {
      console.error(`shutdown took longer than SHUTDOWN_GRACE_SECONDS (${config.shutdownGraceMs / 1000} s); exiting with requests unanswered`);
      service?.app.server.closeAllConnections();
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    if (service) void stop(service, signal, tracing);
    else startAborted.abort();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  // Before anything that could make a span. Off (no OTEL_* variables), the SDK is not even loaded.
  if (config.tracing) tracing = await (await import("../core/tracing-sdk.js")).startTracing(config.tracing, { logger });
  if (cluster.isPrimary) console.log(`activities service starting: role ${config.role}`);
  // The database opens while the service's modules load: PGlite loads on its own thread, and
  // PostgreSQL migrates, during seconds the event loop spends compiling modules. createService
  // takes it over, and closes it if the start fails or is stopped.
  const openingDatabase = (await import("./service-database.js")).openServiceDatabase(config);
  openingDatabase.catch(() => undefined);
  // Loaded only by a process that serves, and after the signal handlers, so that a SIGTERM while
  // they load stops the start cleanly: a cluster's primary forks and watches, and the service's
  // modules (the gateway, Apollo, OpenTelemetry) take 1.6 s of CPU to load. service.js first: it
  // installs reflect-metadata before any type-graphql class is declared.
  const { createService, StartAborted } = await import("./service.js");
  const { GRAPHQL_PATH } = await import("./edge.js");
  const { CONSOLE_PREFIX } = await import("../rest-compat/rest-compat.plugin.js");

  try {
    service = await createService(config, { signal: startAborted.signal, logger, openingDatabase });
  } catch (error) {
    // A setting that names something unusable (a rates file, pools the server cannot hold) is reported like a wrong setting.
    if (error instanceof RatesFileError || error instanceof ConnectionBudgetError) {
      console.error(error.message);
      process.exit(1);
    }
    if (!(error instanceof StartAborted)) throw error;
    await stopTracing(tracing, logger);
    console.log(`activities service stopped during start-up (${stopping})`);
    process.exit(0);
  }
  if (stopping) return stop(service, stopping, tracing);
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

async function stop(service: Service, signal: string, tracing: Tracing | undefined): Promise<void> {
  service.logger.info({ signal }, "shutting down");
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
