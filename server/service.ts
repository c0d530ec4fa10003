import "reflect-metadata";
import type { FastifyInstance } from "fastify";
import { systemClock, type Clock } from "../core/clock.js";
import type { Config } from "../core/config.js";
import { createLogger, type Logger } from "../core/logger.js";
import { openDatabase, type Database } from "../drizzle/database.js";
import { seedDemoCatalogue } from "../drizzle/seed/catalogue.js";
import { seedDemo, type SeededAccount } from "../drizzle/seed/demo.js";
import { createIdentity, type Identity } from "../identity/identity.js";
import { taxonomyRepository } from "../subgraphs/catalogue/taxonomy/taxonomy.repository.js";
import { buildEdge, type Edge } from "./edge.js";
import { createHttpApp } from "./http-app.js";
import { buildSubgraphApp } from "./subgraph-app.js";
import { startWorker, type Worker } from "./worker.js";

export interface Service {
  config: Config;
  database: Database;
  identity: Identity;
  logger: Logger;
  app: FastifyInstance;
  edge?: Edge;
  worker?: Worker;
  seeded: SeededAccount[];
  /** What the demo seed added to the catalogue on this start (zeros when it was already there). */
  demoCatalogue: { suppliers: number; products: number };
  /** Address it listens on, once `listen` has run. */
  url?: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  logger?: Logger;
  /** An already open database (tests share one per file). */
  database?: Database;
}

/** Builds the process for its configured role; `npm start`, the role launcher and the tests all come through here. */
export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const ownsDatabase = !options.database;
  const database = options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, statementTimeoutMs: config.statementTimeoutMs }));
  const identity = createIdentity(config, database, clock);
  // The first key is made before serving, so concurrent first requests cannot each make one.
  await identity.keys.signingKey();
  if (config.role !== "worker") await identity.revocations.start(logger);
  // Reference data every role relies on (category codes are validated against it).
  await taxonomyRepository.ensureSeed(database.db);

  let seeded: SeededAccount[] = [];
  let demoCatalogue = { suppliers: 0, products: 0 };
  let edge: Edge | undefined;
  let worker: Worker | undefined;
  let app: FastifyInstance;
  let closeApp: () => Promise<void>;

  if (config.role === "all" || config.role === "edge") {
    if (config.role === "all" && config.seedDemo) {
      seeded = await seedDemo(database, identity.accounts, config.environment);
      demoCatalogue = await seedDemoCatalogue(database, clock.now());
    }
    edge = await buildEdge({ config, database, identity, logger, clock, mode: config.role === "all" ? "in-process" : "remote" });
    app = edge.app;
    closeApp = edge.close;
  } else if (config.role === "worker") {
    app = await createHttpApp({
      logger,
      trustProxy: config.trustProxy,
      readiness: async () => {
        await database.ping();
        return true;
      },
    });
    closeApp = () => app.close();
  } else {
    const subgraph = await buildSubgraphApp(config.role, { config, database, identity, logger, clock });
    app = subgraph.app;
    closeApp = subgraph.close;
  }
  if (config.role === "all" || config.role === "worker") worker = startWorker({ database, logger, clock, loops: config.workerLoops, signIn: config.signIn });

  const service: Service = {
    config,
    database,
    identity,
    logger,
    app,
    edge,
    worker,
    seeded,
    demoCatalogue,
    async listen() {
      const address = await app.listen({ port: config.port, host: config.host });
      const { port } = app.server.address() as { port: number };
      service.url = `http://127.0.0.1:${port}`;
      return address;
    },
    async close() {
      await worker?.stop();
      await closeApp();
      await identity.revocations.close();
      if (ownsDatabase) await database.close();
    },
  };
  return service;
}
