import { PROCESS_ORIGIN, ServiceMetrics } from "../core/metrics.js";
import { channels } from "../drizzle/events.js";
import { startDemoOctoSupplier, type DemoOctoSupplier } from "./demo-octo-supplier.js";
import { octoEnginesFor, type OctoEngines } from "../subgraphs/common/octo/octo.engines.js";
import "reflect-metadata";
import type { FastifyInstance } from "fastify";
import { systemClock, type Clock } from "../core/clock.js";
import { useRatesFile } from "../core/exchange-rates.js";
import type { Config } from "../core/config.js";
import { createLogger, type Logger } from "../core/logger.js";
import type { Database } from "../drizzle/database.js";
import { seedDemoCatalogue } from "../seed/catalogue.js";
import { seedDemo, type SeededAccount } from "../seed/demo.js";
import { createIdentity, type Identity } from "../identity/identity.js";
import { partnerDirectory } from "../subgraphs/catalogue/organisation/organisation.partner-directory.js";
import { publicAddressRepository } from "../identity/public-address.repository.js";
import { taxonomyRepository } from "../subgraphs/catalogue/taxonomy/taxonomy.repository.js";
import { GatewayCredential } from "../identity/gateway-credential.js";
import { remoteServiceGraphs } from "../subgraphs/common/service.graph.js";
import { buildEdge, type Edge } from "./edge.js";
import { createHttpApp } from "./http-app.js";
import { openServiceDatabase } from "./service-database.js";
import { composeGraph } from "../schema/compose.js";
import { buildSubgraphApp } from "./subgraph-app.js";
import { startWorker, type Worker } from "./worker.js";
import type { SubgraphName } from "../subgraphs/subgraph.names.js";

export interface Service {
  config: Config;
  database: Database;
  identity: Identity;
  logger: Logger;
  app: FastifyInstance;
  edge?: Edge;
  worker?: Worker;
  /** Registered OCTO supplier systems, and clients that call them. */
  octo: OctoEngines;
  seeded: SeededAccount[];
  /** The sandbox demo's local OCTO supplier, registered and imported on this start. */
  demoOcto?: DemoOctoSupplier;
  /** What the demo seed added to the catalogue on this start (zeros when it was already there). */
  demoCatalogue: { suppliers: number; products: number };
  /** This process's Prometheus metrics (GET /metrics). */
  metrics: ServiceMetrics;
  /** Address it listens on, once `listen` has run. */
  url?: string;
  listen(): Promise<string>;
  /**
   * A stop begins while the port stays open: `/health/ready` answers 503, every answer closes its
   * connection, WebSocket upgrades are refused. `close` follows.
   */
  drain(): void;
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  logger?: Logger;
  /** An already open database, left open by `close` (tests share one per file). */
  database?: Database;
  /**
   * The service's own database, already opening: `npm start` begins it before loading the
   * service's modules, so that PGlite loads on its thread, or PostgreSQL migrates, meanwhile.
   * Closed by the service as one it opened itself.
   */
  openingDatabase?: Promise<Database>;
  /** Aborted by a stop signal during start-up: what was opened is closed, and StartAborted thrown. */
  signal?: AbortSignal;
}

/** Start-up was stopped by a signal before the service was complete; everything it opened is closed. */
export class StartAborted extends Error {
  constructor() {
    super("start-up stopped by a signal");
    this.name = "StartAborted";
  }
}

/** What every role is built from once the database is open. */
interface ServiceBasis {
  config: Config;
  database: Database;
  identity: Identity;
  logger: Logger;
  clock: Clock;
  octo: OctoEngines;
  metrics: ServiceMetrics;
}

/** What the process's role serves with, and what the demo seed added on this start. */
interface RoleParts {
  app: FastifyInstance;
  closeApp: () => Promise<void>;
  edge?: Edge;
  seeded: SeededAccount[];
  demoCatalogue: { suppliers: number; products: number };
  demoOcto?: DemoOctoSupplier;
}

/** What the service stops besides its role's parts. */
interface ServiceStops {
  ownsDatabase: boolean;
  stopCountingTransitions: () => Promise<void>;
  stopRates: () => void;
}

/**
 * Start-up's steps, and what they have opened so far, closed in reverse if a step fails or a stop
 * signal interrupts it. Each step runs to its end (a seed is one transaction); the signal is
 * looked at between steps.
 */
class StartUpSteps {
  private readonly opened: (() => Promise<unknown>)[] = [];

  constructor(
    private readonly logger: Logger,
    private readonly signal: AbortSignal | undefined,
  ) {}

  get aborted(): boolean {
    return this.signal?.aborted ?? false;
  }

  /** Closed in reverse should start-up not complete. */
  opens(close: () => Promise<unknown>): void {
    this.opened.push(close);
  }

  async run<T>(name: string, run: () => Promise<T>): Promise<T> {
    this.logger.debug({ step: name }, "start-up");
    let value: T;
    try {
      value = await run();
    } catch (error) {
      await this.closeOpened();
      // A step that gave up because of the signal (the catalogue seed, between its suppliers) was stopped, not broken.
      if (this.signal?.aborted) throw new StartAborted();
      throw error;
    }
    // A signal is taken when the event loop polls for I/O: a step that ended without waiting on
    // I/O (a database already open, a synchronous composition) would otherwise carry the start
    // into the next one. One setImmediate is not enough: queued from an I/O callback, it runs
    // before the loop polls again; the second runs only after a poll.
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    if (this.signal?.aborted) {
      await this.closeOpened();
      throw new StartAborted();
    }
    return value;
  }

  private async closeOpened(): Promise<void> {
    for (const close of this.opened.reverse()) await close().catch((error) => this.logger.warn({ err: error }, "closing after an interrupted start failed"));
  }
}

/** Builds the process for its configured role; `npm start`, the role launcher and the tests all come through here. */
export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const steps = new StartUpSteps(logger, options.signal);
  const database = await openDatabase(config, options, logger, steps);
  const identity = createIdentity(config, database, clock, partnerDirectory);
  const metrics = serviceMetrics(database);
  const octo = octoEnginesFor(config, database, logger, clock, metrics);
  warnWithoutEngineSecretsKey(config, logger);
  const basis: ServiceBasis = { config, database, identity, logger, clock, octo, metrics };
  const stopCountingTransitions = await steps.run("listening for booking events", () => countBookingTransitions(basis, steps));
  const stopRates = await loadServingState(basis, steps);
  const role = await startRole(basis, steps, options.signal);
  const worker = config.role === "all" || config.role === "worker" ? await startServiceWorker(basis, role.edge) : undefined;
  return serviceOf(basis, role, worker, { ownsDatabase: !options.database, stopCountingTransitions, stopRates });
}

/** The database given, or the service's own, opened while the graph composes. */
async function openDatabase(config: Config, options: ServiceOptions, logger: Logger, steps: StartUpSteps): Promise<Database> {
  const opening = options.database ? undefined : (options.openingDatabase ?? openServiceDatabase(config, logger, options.signal));
  // Its failure is taken by the step below, not reported as unhandled while the graph composes.
  opening?.catch(() => undefined);
  // The supergraph depends on the code alone: composed while the database opens, on another
  // thread (PGlite) or server, the edge finds it ready (0.5–1 s of a start's CPU). A composition
  // that fails is not cached: the edge composes again and its start fails with the reason.
  if ((config.role === "all" || config.role === "edge") && !steps.aborted) {
    logger.debug({ step: "composing the graph" }, "start-up");
    await composeGraph().catch(() => undefined);
  }
  return steps.run("waiting for the database", async () => {
    const db = options.database ?? (await opening!);
    if (!options.database) steps.opens(() => db.close());
    return db;
  });
}

function serviceMetrics(database: Database): ServiceMetrics {
  const metrics = new ServiceMetrics();
  // Neither driver reports how busy its connections are; the database counts it where statements are handed over.
  const pool = () => database.poolUse();
  metrics.gauge("activities_database_connections_max", "Connections the database driver may open: both pools' sizes on PostgreSQL (drizzle/database.ts, forKeyLookups), 1 on the embedded database", (set) => set(pool().maxConnections));
  metrics.gauge("activities_database_connections_reserved", "Connections held by a transaction until it ends", (set) => set(pool().connectionsReserved));
  metrics.gauge("activities_database_transactions_waiting", "Transactions waiting for a connection", (set) => set(pool().transactionsWaiting));
  metrics.gauge("activities_database_statements_in_flight", "Statements handed to the database driver and not answered yet", (set) => set(pool().statementsInFlight));
  metrics.gauge("activities_database_statements_queued", "Statements waiting for their account's turn at a connection", (set) => set(pool().statementsQueued));
  if (database.replicaState()) {
    // Only with a read replica: a series that is always absent says nothing, one always 0 would say something false.
    const replica = () => database.replicaState()!;
    metrics.gauge("activities_database_replica_serving", "1 while the read replica (DATABASE_READ_URL) serves the reads that tolerate lag, 0 while they go to the primary", (set) => set(replica().usable ? 1 : 0));
    metrics.gauge("activities_database_replica_lag_seconds", "How far the read replica's replay is behind the primary, as its last probe read it; NaN while it cannot be reached, +Inf before it replayed anything", (set) => set(replica().lagSeconds ?? Number.NaN));
  }
  return metrics;
}

function warnWithoutEngineSecretsKey(config: Config, logger: Logger): void {
  if (config.environment === "production" && !config.engineSecretsKey && config.role !== "edge" && config.role !== "reporting") {
    // Not a reason to refuse the start: a deployment without webhooks or OCTO engines needs no key.
    logger.warn("ENGINE_SECRETS_KEY is not set: webhook endpoints cannot be created or given a new secret, and OCTO engines cannot be registered (409 ENGINE_SECRETS_KEY_MISSING)");
  }
}

/** Booking transitions are counted once they commit (LISTEN delivers then), and only by the process that made them. */
async function countBookingTransitions({ database, metrics }: ServiceBasis, steps: StartUpSteps): Promise<() => Promise<void>> {
  const stop = await database.events.subscribe(channels.bookingEvents, (payload) => {
    const event = payload as { type?: string; status?: string; origin?: string };
    if (event.type === "booking.status" && event.origin === PROCESS_ORIGIN && typeof event.status === "string") metrics.bookingTransitions.inc({ status: event.status });
  });
  steps.opens(stop);
  return stop;
}

/** What every role needs loaded before it serves; gives back the exchange rates file's stop. */
async function loadServingState({ config, database, identity, logger, clock }: ServiceBasis, steps: StartUpSteps): Promise<() => void> {
  // The first key is made before serving, so concurrent first requests cannot each make one.
  await steps.run("loading the signing key", () => identity.keys.signingKey());
  // Where this environment's users are sent: the operator CLI builds its links from it when run without PUBLIC_URL.
  if ((config.role === "all" || config.role === "edge") && config.publicUrlGiven) {
    await steps.run("recording the public address", () => publicAddressRepository.record(database.db, config.environment, config.publicUrl, clock.now()));
  }
  if (config.role !== "worker") {
    await steps.run("loading revoked sessions", async () => {
      steps.opens(() => identity.revocations.close());
      await identity.revocations.start(logger);
    });
  }
  const stopRates = config.exchangeRatesFile ? await useExchangeRatesFile(config.exchangeRatesFile, logger, steps) : () => {};
  // Reference data every role relies on (category codes are validated against it).
  await steps.run("loading the taxonomy", () => taxonomyRepository.ensureSeed(database.db));
  return stopRates;
}

function useExchangeRatesFile(file: string, logger: Logger, steps: StartUpSteps): Promise<() => void> {
  return steps.run("loading the exchange rates file", async () => {
    const stop = await useRatesFile(file, logger);
    steps.opens(async () => stop());
    return stop;
  });
}

const nothingSeeded = () => ({ seeded: [], demoCatalogue: { suppliers: 0, products: 0 } });

async function startRole(basis: ServiceBasis, steps: StartUpSteps, signal: AbortSignal | undefined): Promise<RoleParts> {
  const { role } = basis.config;
  if (role === "all" || role === "edge") return startEdgeRole(basis, steps, signal);
  if (role === "worker") return { ...nothingSeeded(), ...(await workerApp(basis)) };
  return { ...nothingSeeded(), ...(await startSubgraphRole(basis, steps)) };
}

/** The edge, in the single-process start with its subgraphs and the demo's seed. */
async function startEdgeRole(basis: ServiceBasis, steps: StartUpSteps, signal: AbortSignal | undefined): Promise<RoleParts> {
  const { config, database, identity, clock } = basis;
  let seeded: SeededAccount[] = [];
  let demoCatalogue = { suppliers: 0, products: 0 };
  if (config.role === "all" && config.seedDemo) {
    seeded = await steps.run("seeding the demo accounts", () => seedDemo(database, identity.accounts, config.environment));
    demoCatalogue = await steps.run("seeding the demo catalogue", () => seedDemoCatalogue(database, clock.now(), signal));
  }
  const edge = await steps.run("building the edge", async () => {
    const built = await buildEdge({ ...basis, mode: config.role === "all" ? "in-process" : "remote" });
    steps.opens(() => built.close());
    return built;
  });
  const demoOcto = config.role === "all" && config.seedDemo && config.environment === "sandbox" ? await startDemoOcto(basis, edge, steps) : undefined;
  return { app: edge.app, closeApp: edge.close, edge, seeded, demoCatalogue, demoOcto };
}

/** A demo extra: the service runs without it if it cannot start. */
async function startDemoOcto({ config, database, octo, clock, logger }: ServiceBasis, edge: Edge, steps: StartUpSteps): Promise<DemoOctoSupplier | undefined> {
  const graphs = edge.graphs;
  const demoOcto = await steps.run("registering the demo OCTO supplier", () =>
    startDemoOctoSupplier({ database, octo, graphs, clock, logger, port: config.demoOctoSupplierPort }).catch((error: unknown) => {
      // A pinned port that is taken is the likeliest cause: say which setting pinned it.
      const pinned = config.demoOctoSupplierPort ? ` (DEMO_OCTO_SUPPLIER_PORT=${config.demoOctoSupplierPort})` : "";
      logger.warn({ err: error }, `the demo OCTO supplier could not be started or registered${pinned}; the service runs without it`);
      return undefined;
    }),
  );
  if (demoOcto) steps.opens(() => demoOcto.close());
  return demoOcto;
}

/** The worker's app serves its health and metrics only. */
async function workerApp({ config, database, logger, metrics }: ServiceBasis): Promise<Pick<RoleParts, "app" | "closeApp">> {
  const app = await createHttpApp({
    logger,
    trustProxy: config.trustProxy,
    http: config.http,
    metrics,
    metricsAccess: config.metrics,
    readiness: async () => {
      await database.ping();
      return true;
    },
  });
  return { app, closeApp: () => app.close() };
}

async function startSubgraphRole(basis: ServiceBasis, steps: StartUpSteps): Promise<Pick<RoleParts, "app" | "closeApp">> {
  const subgraph = await steps.run(`building the ${basis.config.role} subgraph`, async () => {
    const built = await buildSubgraphApp(basis.config.role as SubgraphName, { ...basis });
    steps.opens(() => built.close());
    return built;
  });
  return { app: subgraph.app, closeApp: subgraph.close };
}

/** The worker calls the subgraphs in process beside the edge, or over HTTP in a process of its own. */
async function startServiceWorker({ config, database, logger, clock, octo, metrics }: ServiceBasis, edge: Edge | undefined): Promise<Worker> {
  const graphs = edge?.graphs ?? remoteServiceGraphs(() => config.subgraphUrls, await GatewayCredential.load(database.db, clock));
  return startWorker({
    database,
    logger,
    clock,
    loops: config.workerLoops,
    jobConcurrency: config.workerJobConcurrency,
    pollIntervalMs: config.workerPollMs,
    octoImportIntervalMs: config.octoImportIntervalMs,
    signIn: config.signIn,
    graphs,
    octo,
    webhooks: { allowPrivate: config.webhookAllowPrivateTargets, timeoutMs: config.webhookTimeoutMs },
    metrics,
  });
}

function serviceOf(basis: ServiceBasis, role: RoleParts, worker: Worker | undefined, stops: ServiceStops): Service {
  const { config, database, identity, logger, octo, metrics } = basis;
  const { app, closeApp, edge, seeded, demoCatalogue, demoOcto } = role;
  const { ownsDatabase, stopCountingTransitions, stopRates } = stops;
  const service: Service = {
    config,
    database,
    identity,
    logger,
    app,
    edge,
    worker,
    octo,
    metrics,
    seeded,
    demoCatalogue,
    demoOcto,
    async listen() {
      const address = await app.listen({ port: config.port, host: config.host });
      const { port } = app.server.address() as { port: number };
      service.url = `http://127.0.0.1:${port}`;
      return address;
    },
    drain() {
      app.connections.drain();
    },
    /**
     * Drains, then closes: HTTP stops accepting, cuts connections with nothing to answer (idle,
     * a head or body still arriving) and answers every request in flight (GraphQL operations over
     * WebSocket too) while the worker finishes its current job; only then do the
     * graph and the database close.
     */
    async close() {
      await Promise.all([worker?.stop(), closeApp()]);
      // After the requests that may still be calling it.
      await demoOcto?.close();
      await identity.revocations.close();
      await stopCountingTransitions();
      stopRates();
      if (ownsDatabase) await database.close();
    },
  };
  return service;
}
