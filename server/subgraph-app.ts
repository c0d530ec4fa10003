import type { FastifyInstance } from "fastify";
import { mountApollo } from "../core/apollo-fastify.js";
import type { Clock } from "../core/clock.js";
import type { Config } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../drizzle/database.js";
import { GATEWAY_CREDENTIAL_HEADER, GatewayCredential } from "../gateway/gateway-credential.js";
import type { Identity } from "../identity/identity.js";
import { bearerToken } from "../identity/token-verifier.js";
import { RestError } from "../rest-compat/error-body.js";
import { startSubgraph } from "../subgraphs/common/subgraph-server.js";
import { subgraphDefinitions, type SubgraphName } from "../subgraphs/subgraphs.js";
import { createHttpApp } from "./http-app.js";

/**
 * One subgraph run as its own role: its Apollo Server at /graphql, plus health endpoints. It
 * answers only the gateway (a signed credential on every request): entity references
 * (`_entities`) resolve by key without the read rules of the root fields, so a caller reaching a
 * subgraph directly could read what the graph refuses it.
 */
export async function buildSubgraphApp(
  name: SubgraphName,
  deps: { config: Config; database: Database; identity: Identity; logger: Logger; clock: Clock },
) {
  const subgraph = await startSubgraph(subgraphDefinitions[name], {
    database: deps.database,
    verifier: deps.identity.verifier,
    logger: deps.logger,
    clock: deps.clock,
    publicUrl: () => deps.config.publicUrl,
    disclosure: deps.config.graphql,
  });
  const credential = await GatewayCredential.load(deps.database.db, deps.clock);
  const app: FastifyInstance = await createHttpApp({
    logger: deps.logger,
    trustProxy: deps.config.trustProxy,
    readiness: async () => {
      await deps.database.ping();
      return true;
    },
  });
  app.addHook("onRequest", async (request) => {
    if (request.routeOptions.config?.public) return;
    const header = request.headers[GATEWAY_CREDENTIAL_HEADER];
    if (!credential.verify(typeof header === "string" ? header : undefined, bearerToken(request.headers.authorization))) {
      throw new RestError(403, "FORBIDDEN", "This subgraph answers only the gateway");
    }
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
