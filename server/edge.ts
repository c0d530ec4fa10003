import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { unauthenticated } from "../core/errors.js";
import type { Clock } from "../core/clock.js";
import type { Config } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../drizzle/database.js";
import type { EdgeContext } from "../gateway/edge-context.js";
import { startEdgeGraph, type EdgeGraph, type SubgraphTargets } from "../gateway/gateway.js";
import { edgeSubscriptions } from "../gateway/subscriptions/edge-subscriptions.js";
import { SubscriptionEngine } from "../gateway/subscriptions/subscription-engine.js";
import { attachGraphqlWs } from "../gateway/subscriptions/ws-server.js";
import { identityRoutes } from "../identity/identity.routes.js";
import type { Identity } from "../identity/identity.js";
import { bearerToken, InvalidTokenError } from "../identity/token-verifier.js";
import { mountApollo } from "../core/apollo-fastify.js";
import { registerOpenApi, restCompatPlugin } from "../rest-compat/rest-compat.plugin.js";
import { composeGraph } from "../schema/compose.js";
import { startSubgraph, type RunningSubgraph } from "../subgraphs/common/subgraph-server.js";
import { subgraphDefinitions, subgraphNames, type SubgraphName } from "../subgraphs/subgraphs.js";
import { createHttpApp } from "./http-app.js";

/** The principal signed links act as: no roles, no scopes, no organisation. */
const LINK_PRINCIPAL = "00000000-0000-0000-0000-000000000000";

export const GRAPHQL_PATH = "/graphql";

export interface EdgeDeps {
  config: Config;
  database: Database;
  identity: Identity;
  logger: Logger;
  clock: Clock;
  /** In-process subgraphs (the single-process start) unless the config names subgraph URLs. */
  mode: "in-process" | "remote";
}

export interface Edge {
  app: FastifyInstance;
  graph: EdgeGraph;
  subgraphs: Partial<Record<SubgraphName, RunningSubgraph>>;
  close(): Promise<void>;
}

/**
 * The edge: identity endpoints, the gateway at /graphql (HTTP and graphql-ws), the REST
 * compatibility layer and its console. In the single-process start it also hosts the three
 * subgraphs, each on its own Apollo Server at /subgraphs/<name>/graphql.
 */
export async function buildEdge(deps: EdgeDeps): Promise<Edge> {
  const { config, database, identity, logger } = deps;
  let graph: EdgeGraph | undefined;
  const app = await createHttpApp({
    logger,
    readiness: async () => {
      await database.ping();
      return graph !== undefined;
    },
  });
  await app.register(identityRoutes, { identity, config });

  const composed = await composeGraph();
  const subgraphs: Partial<Record<SubgraphName, RunningSubgraph>> = {};
  let targets: SubgraphTargets;
  if (deps.mode === "in-process") {
    for (const name of subgraphNames) {
      const running = await startSubgraph(subgraphDefinitions[name], {
        database,
        verifier: identity.verifier,
        logger,
        clock: deps.clock,
        publicUrl: () => deps.config.publicUrl,
        schema: composed.subgraphs[name].schema,
      });
      subgraphs[name] = running;
      mountApollo(app, `/subgraphs/${name}/graphql`, running.server, (request) => running.createContext(request.headers));
    }
    targets = { kind: "in-process", subgraphs: subgraphs as Record<SubgraphName, RunningSubgraph> };
  } else {
    targets = { kind: "remote", urls: config.subgraphUrls as Record<SubgraphName, string> };
  }
  graph = await startEdgeGraph({ supergraphSdl: composed.supergraphSdl, targets, logger });
  const edgeGraph = graph;

  mountApollo(app, GRAPHQL_PATH, edgeGraph.server, async (request): Promise<EdgeContext> => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthenticated();
    try {
      const caller = await identity.verifier.verify(token);
      return { caller, token, requestId: String(request.id), acceptLanguage: request.headers["accept-language"] };
    } catch (error) {
      if (error instanceof InvalidTokenError) throw unauthenticated(`Invalid access token: ${error.message}`);
      throw error;
    }
  });

  await registerOpenApi(app, { config, identityPaths: identity.paths });
  // Signed links (vouchers) carry their own authorisation; the graph still wants a verified caller.
  const linkContext = async (requestId: string): Promise<EdgeContext> => {
    const now = deps.clock.now();
    const caller: EdgeContext["caller"] = {
      accountId: LINK_PRINCIPAL,
      username: "signed-link",
      roles: [],
      scopes: [],
      organisationId: null,
      environment: config.environment,
      sessionId: randomUUID(),
      authTime: now,
      expiresAt: new Date(now.getTime() + 60_000),
    };
    return { caller, token: await identity.tokens.delegatedAccessToken(caller, 30), requestId };
  };
  await app.register(restCompatPlugin, { graph: edgeGraph, verifier: identity.verifier, linkContext });

  const delegatedToken = (caller: EdgeContext["caller"]) => identity.tokens.delegatedAccessToken(caller);
  const ws = attachGraphqlWs({
    httpServer: app.server,
    path: GRAPHQL_PATH,
    graph: edgeGraph,
    engine: new SubscriptionEngine({ graph: edgeGraph, events: database.events, subscriptions: edgeSubscriptions, delegatedToken, logger }),
    verifier: identity.verifier,
    delegatedToken,
    logger,
  });

  return {
    app,
    graph: edgeGraph,
    subgraphs,
    close: async () => {
      await ws.close();
      await app.close();
      await edgeGraph.stop();
      await Promise.all(Object.values(subgraphs).map((s) => s.server.stop()));
    },
  };
}
