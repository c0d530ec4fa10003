import type { FastifyInstance } from "fastify";
import { mountApollo } from "../core/apollo-fastify.js";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../drizzle/database.js";
import type { Identity } from "../identity/identity.js";
import { startSubgraph } from "../subgraphs/common/subgraph-server.js";
import { subgraphDefinitions, type SubgraphName } from "../subgraphs/subgraphs.js";
import { createHttpApp } from "./http-app.js";

/** One subgraph run as its own role: its Apollo Server at /graphql, plus health endpoints. */
export async function buildSubgraphApp(name: SubgraphName, deps: { database: Database; identity: Identity; logger: Logger; clock: Clock; publicUrl: () => string }) {
  const subgraph = await startSubgraph(subgraphDefinitions[name], {
    database: deps.database,
    verifier: deps.identity.verifier,
    logger: deps.logger,
    clock: deps.clock,
    publicUrl: deps.publicUrl,
  });
  const app: FastifyInstance = await createHttpApp({
    logger: deps.logger,
    readiness: async () => {
      await deps.database.ping();
      return true;
    },
  });
  mountApollo(app, "/graphql", subgraph.server, (request) => subgraph.createContext(request.headers));
  return {
    app,
    close: async () => {
      await app.close();
      await subgraph.server.stop();
    },
  };
}
