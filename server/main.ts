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
  const config = await readConfig();
  if (stopping) return stoppedDuringStart(stopping);
  if (cluster.isPrimary && config.webConcurrency > 1) return (await import("./cluster.js")).runPrimary(config);
  const { createLogger } = await import("../core/logger.js");
  const logger = createLogger(config.logLevel);
  const start = new ServiceStart(config, logger);
  onStop = (signal) => start.stop(signal);
  if (stopping) return stoppedDuringStart(stopping);
  // Before anything that could make a span. Off (no OTEL_* variables), the SDK is not even loaded.
  if (config.tracing) start.tracing = await (await import("../core/tracing-sdk.js")).startTracing(config.tracing, { logger });
  if (stopping) return stoppedDuringStart(stopping, { tracing: start.tracing, logger });
  if (cluster.isPrimary) console.log(`activities service starting: role ${config.role}`);
  const started = await start.createService();
  if (!started) return;
  const { service, modules } = started;
  if (stopping) return stop(service, stopping, start.tracing);
  logger.debug({ step: "listening" }, "start-up");
  await service.listen();
  if (stopping) return;
  // In a cluster the first process speaks for all; the others listen quietly.
  if (!cluster.isPrimary && process.env.SERVICE_PROCESS_INDEX !== "1") return;
  console.log(startedLines(config, service, modules).join("\n"));
}

/** The configuration, or exit 1 naming the wrong setting. */
async function readConfig(): Promise<Config> {
  const { ConfigError, loadConfig } = await import("../core/config.js");
  let config: Config;
  try {
    config = loadConfig(process.env, process.argv.slice(2));
  } catch (error) {
    if (error instanceof ConfigError) exitWith(error.message);
    throw error;
  }
  // A folder the embedded database cannot use is a wrong setting: said now, in a line, before anything opens.
  if (!config.databaseUrl && config.dataDir !== "memory") {
    const { DataFolderUnusable, prepareDataFolder } = await import("../drizzle/data-folder.js");
    try {
      prepareDataFolder(config.dataDir);
    } catch (error) {
      if (error instanceof DataFolderUnusable) exitWith(`DATA_DIR=${JSON.stringify(config.dataDir)}: ${error.message}`);
      throw error;
    }
  }
  return config;
}

/** A wrong setting is said in a line, and the process exits 1. */
function exitWith(message: string): never {
  console.error(message);
  process.exit(1);
}

/**
 * A start that may be stopped at any point: until the service exists a stop aborts the start, and
 * from then on stops the service. SHUTDOWN_GRACE_SECONDS bounds either.
 */
class ServiceStart {
  /** The worker claims jobs as soon as the service exists, before it listens: a stop then must end it cleanly rather than kill it mid-transaction. */
  service: Service | undefined;
  tracing: Tracing | undefined;
  private readonly aborted = new AbortController();
  /** Settles (undefined) when a stop aborts the start. */
  private readonly stopped = new Promise<undefined>((resolve) => this.aborted.signal.addEventListener("abort", () => resolve(undefined)));

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
  ) {}

  stop(signal: string): void {
    // Where the start was when it took the signal: the start-up steps logged before this line.
    this.logger.debug({ signal }, "signal taken");
    const force = setTimeout(() => {
      console.error(`shutdown took longer than SHUTDOWN_GRACE_SECONDS (${this.config.shutdownGraceMs / 1000} s); exiting with requests unanswered`);
      this.service?.app.server.closeAllConnections();
      process.exit(1);
    }, this.config.shutdownGraceMs);
    force.unref();
    if (this.service) void stop(this.service, signal, this.tracing);
    else this.aborted.abort();
  }

  /** The service and the modules it came from; undefined when a stop came first (and is being answered). */
  async createService(): Promise<{ service: Service; modules: ServiceModules } | undefined> {
    // The database opens while the service's modules load: PGlite loads on its own thread, and
    // PostgreSQL migrates, during seconds the event loop spends compiling modules. createService
    // takes it over, and closes it if the start fails or is stopped.
    const openingDatabase = (await import("./service-database.js")).openServiceDatabase(this.config, this.logger, this.aborted.signal);
    openingDatabase.catch(() => undefined);
    const unusableSetting = await unusableSettingOf(this.config);
    const modules = await this.loadModules(openingDatabase, unusableSetting);
    if (!modules) return this.stoppedDuringStart(openingDatabase);
    try {
      this.service = await modules.createService(this.config, { signal: this.aborted.signal, logger: this.logger, openingDatabase });
    } catch (error) {
      const unusable = unusableSetting(error);
      if (unusable) exitWith(unusable);
      if (!(error instanceof modules.StartAborted)) throw error;
      return this.stoppedDuringStart();
    }
    return { service: this.service, modules };
  }

  /**
   * Loaded only by a process that serves: a cluster's primary forks and watches, and the
   * service's modules (the gateway, Apollo, OpenTelemetry) take 1.6 s of CPU to load, several
   * times that on a busy machine. A stop meanwhile does not wait for them: it closes the database
   * once it is open and exits. Undefined after a stop.
   */
  private async loadModules(openingDatabase: Promise<Database>, unusableSetting: (error: unknown) => string | undefined): Promise<ServiceModules | undefined> {
    // Such a database is said at once, not after the modules have loaded.
    const refused = openingDatabase.then(
      () => new Promise<never>(() => {}),
      (error: unknown) => unusableSetting(error) ?? new Promise<never>(() => {}),
    );
    this.logger.debug({ step: "loading the service's modules" }, "start-up");
    const modules = await Promise.race([importServiceModules(), this.stopped, refused]);
    if (typeof modules === "string") exitWith(modules);
    return modules;
  }

  private async stoppedDuringStart(openingDatabase?: Promise<Database>): Promise<undefined> {
    await stoppedDuringStart(stopping!, { tracing: this.tracing, logger: this.logger, openingDatabase });
    return undefined;
  }
}

/** service.js first: it installs reflect-metadata before any type-graphql class is declared. */
async function importServiceModules() {
  const { createService, StartAborted } = await import("./service.js");
  const { GRAPHQL_PATH } = await import("./edge.js");
  const { CONSOLE_PREFIX } = await import("../rest-compat/rest-compat.plugin.js");
  return { createService, StartAborted, GRAPHQL_PATH, CONSOLE_PREFIX };
}

type ServiceModules = Awaited<ReturnType<typeof importServiceModules>>;

/** A setting that names something unusable (a data folder, a server that cannot be reached, pools it cannot hold, a rates file) is reported like a wrong setting. */
async function unusableSettingOf(config: Config): Promise<(error: unknown) => string | undefined> {
  const { DataFolderUnusable } = await import("../drizzle/data-folder.js");
  const { ConnectionBudgetError } = await import("../drizzle/connection-budget.js");
  const { DatabaseUnreachable } = await import("../drizzle/database.js");
  const { SchemaBehind } = await import("../drizzle/schema-migrations.js");
  const { RatesFileError } = await import("../core/exchange-rates.js");
  return (error) => {
    if (error instanceof DataFolderUnusable) return `DATA_DIR=${JSON.stringify(error.folder)}: ${error.message}`;
    if (error instanceof ConnectionBudgetError || error instanceof RatesFileError) return error.message;
    if (error instanceof DatabaseUnreachable) return `DATABASE_URL: ${error.message}`;
    if (error instanceof SchemaBehind) return `DATABASE_MIGRATIONS=${config.databaseMigrations}: ${error.message}`;
    return undefined;
  };
}

/** What a started service says it serves, and where. */
function startedLines(config: Config, service: Service, { GRAPHQL_PATH, CONSOLE_PREFIX }: ServiceModules): string[] {
  const base = config.publicUrl;
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
  return [...lines, ...demoLines(config, service)];
}

/** What the demo seed made on this start: its catalogue, its OCTO supplier, and its accounts with their passwords (shown once). */
function demoLines(config: Config, service: Service): string[] {
  const base = config.publicUrl;
  const lines: string[] = [];
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
  return lines;
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
