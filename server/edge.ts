import type { ServiceMetrics } from "../core/metrics.js";
import { octoEnginesFor, type OctoEngines } from "../subgraphs/common/octo/octo.engines.js";
import { randomUUID } from "node:crypto";
import { inProcessServiceGraphs, remoteServiceGraphs, type ServiceGraphs } from "../subgraphs/common/service.graph.js";
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { Clock } from "../core/clock.js";
import type { Config } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../drizzle/database.js";
import type { EdgeContext } from "../gateway/edge-context.js";
import { startEdgeGraph, type EdgeGraph, type SubgraphTargets } from "../gateway/gateway.js";
import { GatewayCredential } from "../identity/gateway-credential.js";
import { persistedQueryCheck } from "../gateway/persisted-queries.js";
import { edgeSubscriptions } from "../gateway/subscriptions/edge-subscriptions.js";
import { SubscriptionEngine } from "../gateway/subscriptions/subscription-engine.js";
import { subscriptionCosts } from "../gateway/cost-budget.js";
import { attachGraphqlWs } from "../gateway/subscriptions/ws-server.js";
import { identityRoutes } from "../identity/identity.routes.js";
import type { Identity } from "../identity/identity.js";
import { mountApollo } from "../core/apollo-fastify.js";
import { registerOpenApi, restCompatPlugin } from "../rest-compat/rest-compat.plugin.js";
import { sendError } from "../rest-compat/error-body.js";
import { apiAccessHook, graphqlRefusal, type Admission } from "./api-access.js";
import { apiLimitsAdmission } from "./api-limits.js";
import { AccountLimits } from "../identity/account-limits.js";
import { composeGraph, type ComposedGraph } from "../schema/compose.js";
import { startSubgraph } from "../gateway/subgraph-server.js";
import type { RunningSubgraph } from "../subgraphs/common/subgraph.running.js";
import { subgraphDefinitions, subgraphNames, type SubgraphName } from "../subgraphs/subgraph.names.js";
import { createHttpApp } from "./http-app.js";
import { graphqlIde, type GraphqlIde } from "./graphql-ide/graphql-ide.js";

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
  /** The service's OCTO engines (one per process); made here when not given. */
  octo?: OctoEngines;
  metrics?: ServiceMetrics;
}

export interface Edge {
  app: FastifyInstance;
  graph: EdgeGraph;
  subgraphs: Partial<Record<SubgraphName, RunningSubgraph>>;
  /** Service-to-service calls on the subgraphs this edge reaches (the worker of the same process uses them). */
  graphs: ServiceGraphs;
  /** The engine serving graphql-ws subscriptions (its `stats` say how many this process holds). */
  subscriptions: SubscriptionEngine;
  close(): Promise<void>;
}

/**
 * The edge: identity endpoints, the gateway at /graphql (HTTP and graphql-ws), the REST
 * compatibility layer and its console. In the single-process start it also runs the three
 * subgraphs, each on its own Apollo Server, called by the gateway in process.
 */
export async function buildEdge(deps: EdgeDeps): Promise<Edge> {
  const { config, database, identity, logger } = deps;
  let graph: EdgeGraph | undefined;
  const app = await edgeApp(deps, () => graph !== undefined);
  // First, so that every route after it (the token endpoint, the REST paths) is in the document.
  await registerOpenApi(app, { config, identityPaths: identity.paths });
  await app.register(identityRoutes, { identity, config });

  const composed = await composeGraph();
  const octo = deps.octo ?? octoEnginesFor(config, database, logger, deps.clock, deps.metrics);
  const { subgraphs, targets, graphs } = deps.mode === "in-process" ? await startInProcessSubgraphs(deps, composed, octo) : await remoteSubgraphs(deps);
  const edgeGraph = (graph = await startEdgeGraph({ supergraphSdl: composed.supergraphSdl, targets, logger, disclosure: config.graphql, metrics: deps.metrics, shortcuts: config.performanceShortcuts }));

  const limits = new AccountLimits(config.apiLimits, { db: database.db, clock: deps.clock, logger });
  const admit = apiLimitsAdmission(limits);
  await mountGraphql(app, edgeGraph, deps, { admit, limits });
  const restAccess = apiAccessHook({ verifier: identity.verifier, admit, limits, refuse: (request, reply, refusal) => sendError(request, reply, refusal) });
  await app.register(restCompatPlugin, { graph: edgeGraph, access: restAccess, linkContext: signedLinkContext(deps), publicUrl: () => config.publicUrl });
  const { ws, subscriptions } = serveSubscriptions(app, edgeGraph, deps, limits);

  return {
    app,
    graph: edgeGraph,
    subgraphs,
    graphs,
    subscriptions,
    close: async () => {
      // Both drain at once: HTTP answers what is in flight (with `Connection: close`) and cuts idle
      // and slow connections; the sockets close once their running operations answered. The
      // graph serves both until then.
      await Promise.all([ws.close(), app.close()]);
      await limits.close();
      await edgeGraph.stop();
      await Promise.all(Object.values(subgraphs).map((s) => s.server.stop()));
    },
  };
}

/** The edge's HTTP app, ready once the database answers and the graph has started. */
function edgeApp({ config, database, logger, metrics }: EdgeDeps, graphStarted: () => boolean): Promise<FastifyInstance> {
  return createHttpApp({
    logger,
    trustProxy: config.trustProxy,
    http: config.http,
    metrics,
    metricsAccess: config.metrics,
    readiness: async () => {
      await database.ping();
      return graphStarted();
    },
  });
}

/** The edge's subgraphs, and where the gateway and the service code find them. */
interface SubgraphPlaces {
  subgraphs: Partial<Record<SubgraphName, RunningSubgraph>>;
  targets: SubgraphTargets;
  graphs: ServiceGraphs;
}

/**
 * Called in process only, never mounted on HTTP: a subgraph resolves entity references
 * (`_entities`) without the graph's read rules, so it must not be reachable from outside.
 */
async function startInProcessSubgraphs(deps: EdgeDeps, composed: ComposedGraph, octo: OctoEngines): Promise<SubgraphPlaces> {
  const { config, database, identity, logger } = deps;
  const subgraphs: Partial<Record<SubgraphName, RunningSubgraph>> = {};
  const graphs = inProcessServiceGraphs((name) => subgraphs[name]);
  for (const name of subgraphNames) {
    subgraphs[name] = await startSubgraph(subgraphDefinitions[name], {
      database,
      verifier: identity.verifier,
      logger,
      clock: deps.clock,
      publicUrl: () => deps.config.publicUrl,
      disclosure: config.graphql,
      schema: composed.subgraphs[name].schema,
      graphs,
      octo,
      webhookTargets: { allowPrivate: config.webhookAllowPrivateTargets, environment: config.environment },
      directExecution: config.performanceShortcuts["subgraph-direct-execution"],
    });
  }
  return { subgraphs, targets: { kind: "in-process", subgraphs: subgraphs as Record<SubgraphName, RunningSubgraph> }, graphs };
}

/** Subgraphs run as roles of their own, at the configured URLs. */
async function remoteSubgraphs({ config, database, clock }: EdgeDeps): Promise<SubgraphPlaces> {
  const credential = await GatewayCredential.load(database.db, clock);
  return {
    subgraphs: {},
    targets: { kind: "remote", urls: config.subgraphUrls as Record<SubgraphName, string>, credential },
    graphs: remoteServiceGraphs(() => config.subgraphUrls, credential),
  };
}

/** /graphql over HTTP, behind the API's access checks and limits; a browser may get the IDE there. */
async function mountGraphql(app: FastifyInstance, edgeGraph: EdgeGraph, { config, identity }: EdgeDeps, { admit, limits }: { admit: Admission | undefined; limits: AccountLimits }): Promise<void> {
  const ide = config.graphqlIde ? graphqlIde({ tokenPath: identity.paths.token }) : undefined;
  if (ide) await ide.register(app);
  await app.register(async (api) => {
    api.addHook("onRequest", idePageOr(ide, apiAccessHook({ verifier: identity.verifier, admit, limits, refuse: graphqlRefusal })));
    mountApollo(api, GRAPHQL_PATH, edgeGraph.server, async (request) => request.edgeContext!, {
      direct: (request) => edgeGraph.answerClient({ body: request.body, contentType: request.headers["content-type"], accept: request.headers.accept }, request.edgeContext!),
      routeOptions: { preHandler: persistedQueryCheck() },
    });
  });
}

/** Signed links (vouchers) carry their own authorisation; the graph still wants a verified caller. */
function signedLinkContext({ config, identity, clock }: EdgeDeps): (requestId: string) => Promise<EdgeContext> {
  return async (requestId) => {
    const now = clock.now();
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
}

/** Subscriptions over graphql-ws on /graphql, and the gauges of their sockets and subscribers. */
function serveSubscriptions(app: FastifyInstance, edgeGraph: EdgeGraph, deps: EdgeDeps, limits: AccountLimits) {
  const { config, database, identity, logger } = deps;
  const delegatedToken = delegatedTokens(deps);
  const subscriptions = new SubscriptionEngine({ graph: edgeGraph, events: database.events, subscriptions: edgeSubscriptions, delegatedToken, logger, costs: subscriptionCosts(limits) });
  const ws = attachGraphqlWs({
    httpServer: app.server,
    path: GRAPHQL_PATH,
    graph: edgeGraph,
    engine: subscriptions,
    verifier: identity.verifier,
    revocations: identity.revocations,
    clock: deps.clock,
    disclosure: config.graphql,
    accountLimits: limits,
    // A WebSocket is a connection like any other: it counts against the caps until it closes.
    admitUpgrade: (request, socket) => app.connections.admitUpgrade(request, socket),
    delegatedToken,
    logger,
    // Sockets and subscriptions per account, and the send buffer of a socket.
    limits: config.websocket,
  });
  deps.metrics?.gauge("activities_websocket_connections", "Open graphql-ws connections of this process", (set) => set(ws.connections()));
  deps.metrics?.gauge("activities_subscriptions", "Subscriptions this process holds (bookingStatusChanged and others)", (set) => set(subscriptions.stats().subscribers));
  return { ws, subscriptions };
}

/**
 * Work the edge does later on a caller's behalf (subscription messages) stops with the session.
 * A token is signed per caller and used while it has 30 s of its 60 left: signing one for every
 * message cost an ES256 signature, and the subgraph a full check of a text it had never seen.
 */
function delegatedTokens({ identity, clock }: EdgeDeps): (caller: EdgeContext["caller"]) => Promise<string> {
  const delegated = new WeakMap<EdgeContext["caller"], { token: string; expiresAt: number }>();
  return async (caller) => {
    const revoked = identity.revocations.reasonAgainst(caller);
    if (revoked) throw new Error(revoked);
    const held = delegated.get(caller);
    if (held && held.expiresAt - clock.now().getTime() >= 30_000) return held.token;
    const token = await identity.tokens.delegatedAccessToken(caller);
    delegated.set(caller, { token, expiresAt: expiryOf(token) });
    return token;
  };
}

/**
 * A browser opening /graphql (GET, no operation, asking for HTML) gets the IDE's page, which
 * carries no data: every operation it runs sends the token its user signs in for. With the IDE
 * off, a browser is answered like any other client (401 without a token).
 */
function idePageOr(ide: GraphqlIde | undefined, access: onRequestAsyncHookHandler): onRequestAsyncHookHandler {
  return async function (request, reply) {
    const wantsPage = request.method === "GET" && !Object.hasOwn(request.query as object, "query") && /text\/html/.test(request.headers.accept ?? "");
    if (ide && wantsPage) return ide.page(reply);
    return access.call(this, request, reply);
  };
}

/** The `exp` of a token this process signed, in milliseconds. */
function expiryOf(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as { exp: number };
  return payload.exp * 1000;
}
