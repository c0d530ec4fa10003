import type { ServiceMetrics } from "../core/metrics.js";
import { octoEnginesFor, type OctoEngines } from "../subgraphs/common/octo/octo.engines.js";
import type { FastifyInstance } from "fastify";
import { mountApollo } from "../core/apollo-fastify.js";
import type { Clock } from "../core/clock.js";
import type { Config } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../drizzle/database.js";
import { GATEWAY_CREDENTIAL_HEADER, GatewayCredential, SERVICE_CREDENTIAL_HEADER, type GraphService } from "../identity/gateway-credential.js";
import { remoteServiceGraphs } from "../subgraphs/common/service.graph.js";
import type { Identity } from "../identity/identity.js";
import { bearerToken } from "../identity/token-verifier.js";
import { restRefusal } from "../rest-compat/error-body.js";
import { startSubgraph } from "../gateway/subgraph-server.js";
import { subgraphDefinitions, type SubgraphName } from "../subgraphs/subgraph.names.js";
import { createHttpApp } from "./http-app.js";

/**
 * One subgraph run as its own role: its Apollo Server at /graphql, plus health endpoints. It
 * answers only the gateway (a signed credential on every request) and other subgraphs' service
 * code (a service credential, keyed the same way): entity references (`_entities`) resolve by key
 * without the read rules of the root fields, so a caller reaching a subgraph directly could read
 * what the graph refuses it.
 */
export async function buildSubgraphApp(
  name: SubgraphName,
  deps: { config: Config; database: Database; identity: Identity; logger: Logger; clock: Clock; octo?: OctoEngines; metrics?: ServiceMetrics },
) {
  const credential = await GatewayCredential.load(deps.database.db, deps.clock);
  const subgraph = await startSubgraph(subgraphDefinitions[name], {
    database: deps.database,
    verifier: deps.identity.verifier,
    logger: deps.logger,
    clock: deps.clock,
    publicUrl: () => deps.config.publicUrl,
    disclosure: deps.config.graphql,
    graphs: remoteServiceGraphs(() => deps.config.subgraphUrls, credential),
    octo: deps.octo ?? octoEnginesFor(deps.config, deps.database, deps.logger, deps.clock, deps.metrics),
    webhookTargets: { allowPrivate: deps.config.webhookAllowPrivateTargets, environment: deps.config.environment },
  });
  const app: FastifyInstance = await createHttpApp({
    logger: deps.logger,
    trustProxy: deps.config.trustProxy,
    // Its callers are the deployment's own edges and subgraphs, each with a pool of connections
    // from one address: the process's cap and the timeouts hold, a cap per address would
    // throttle the gateway itself.
    http: { ...deps.config.http, maxConnectionsPerAddress: 0 },
    metrics: deps.metrics,
    metricsAccess: deps.config.metrics,
    // Only the gateway and other subgraphs' service code get past the credential check: their
    // traceparent continues the trace. It is read for tracing only; access is the credential's and the token's.
    incomingTraceContext: "continue",
    readiness: async () => {
      await deps.database.ping();
      return true;
    },
  });
  // Who signed each request: the gateway for a caller, or another subgraph's service code in its own name.
  const services = new WeakMap<object, GraphService>();
  app.addHook("onRequest", async (request) => {
    if (request.routeOptions.config?.public) return;
    const serviceHeader = request.headers[SERVICE_CREDENTIAL_HEADER];
    const service = credential.verifyService(typeof serviceHeader === "string" ? serviceHeader : undefined);
    if (service) {
      services.set(request, service);
      return;
    }
    const header = request.headers[GATEWAY_CREDENTIAL_HEADER];
    if (!credential.verify(typeof header === "string" ? header : undefined, bearerToken(request.headers.authorization))) {
      throw restRefusal("FORBIDDEN", "This subgraph answers only the gateway");
    }
  });
  mountApollo(app, "/graphql", subgraph.server, async (request) => {
    const service = services.get(request);
    return service ? subgraph.createServiceContext(service) : subgraph.createContext(request.headers);
  });
  return {
    app,
    close: async () => {
      await app.close();
      await subgraph.server.stop();
    },
  };
}
