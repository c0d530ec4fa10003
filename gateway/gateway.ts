import type { ServiceMetrics } from "../core/metrics.js";
import { operationMetricsPlugin, timedDataSource } from "./metrics-plugin.js";
import { tracedDataSource } from "./tracing-data-source.js";
import { activeTracer } from "../core/tracing.js";
import { ApolloGateway, type GraphQLDataSource } from "@apollo/gateway";
import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import type { GraphQLFormattedError, GraphQLSchema } from "graphql";
import type { Logger } from "../core/logger.js";
import type { RunningSubgraph } from "../subgraphs/common/subgraph.running.js";
import { errorRequestIds, hideUnexpected } from "./subgraph-server.js";
import type { SubgraphName } from "../subgraphs/subgraph.names.js";
import { ForwardingRemoteDataSource, InProcessDataSource } from "./data-sources.js";
import type { EdgeContext } from "./edge-context.js";
import type { GatewayCredential } from "../identity/gateway-credential.js";
import { apolloLimitOptions } from "./operation-limits.js";
import { costBudgetPlugin } from "./cost-budget.js";
import { clientIntrospectionPlugin } from "./client-introspection.js";
import { persistedQueryMissLog } from "./persisted-queries.js";
import { operationResolutionPlugin } from "./operation-resolution.js";
import { withEdgeSubscriptions } from "../schema/compose.js";
import { useGatewayShortcuts } from "./gateway-shortcuts.js";
import { edgeExecution, type ClientHttpAnswer, type ClientHttpRequest, type TextOrigin } from "./direct-execution.js";
import { allShortcutsOn, type PerformanceShortcuts } from "../core/performance-shortcuts.js";

/** Where the gateway finds each subgraph: in this process, or at a URL when run as separate roles. */
export type SubgraphTargets =
  | { kind: "in-process"; subgraphs: Record<SubgraphName, RunningSubgraph> }
  | { kind: "remote"; urls: Record<SubgraphName, string>; credential: GatewayCredential };

export interface OperationRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

export interface OperationResult<TData = Record<string, unknown>> {
  data?: TData | null;
  errors?: readonly GraphQLFormattedError[];
  /** `cost` for an operation charged to its caller's budget (gateway/cost-budget.ts). */
  extensions?: Record<string, unknown>;
}

export interface EdgeGraph {
  server: ApolloServer<EdgeContext>;
  /** The supergraph's API schema: what the gateway executes. */
  apiSchema: GraphQLSchema;
  /** What clients see: the API schema plus the edge's subscriptions (introspection, graphql-ws). */
  clientSchema: GraphQLSchema;
  /** Runs one operation through the gateway as the given caller (REST routes and subscriptions use this; graphql-ws clients' own texts with origin "client"). */
  execute<TData = Record<string, unknown>>(request: OperationRequest, context: EdgeContext, origin?: TextOrigin): Promise<OperationResult<TData>>;
  /** How many of `execute`'s operations went through Apollo Server's pipeline, and how many ran directly (gateway/direct-execution.ts). */
  readonly executeCounts: { pipeline: number; direct: number };
  /** A client's `POST /graphql` answered directly when its text was admitted, or undefined for Apollo Server to answer (gateway/direct-execution.ts). */
  answerClient(request: ClientHttpRequest, context: EdgeContext): Promise<ClientHttpAnswer | undefined>;
  /** How many clients' HTTP requests `answerClient` answered. */
  readonly clientCounts: { direct: number };
  stop(): Promise<void>;
}

/** What clients may learn of the schema (both off in production unless configured). */
export interface SchemaDisclosure {
  introspection: boolean;
  /** "Did you mean …?" in validation errors: they name fields a caller did not know of. */
  suggestions: boolean;
}

export interface EdgeGraphOptions {
  supergraphSdl: string;
  targets: SubgraphTargets;
  logger: Logger;
  disclosure: SchemaDisclosure;
  metrics?: ServiceMetrics;
  /** Which of the gateway's shortcuts run (operation cache, result shaping, direct execution); all when absent. */
  shortcuts?: PerformanceShortcuts;
}

/** @apollo/gateway on the static supergraph composed in code, served by the edge's Apollo Server. */
export async function startEdgeGraph(options: EdgeGraphOptions): Promise<EdgeGraph> {
  const { logger } = options;
  let apiSchema: GraphQLSchema | undefined;
  let clientSchema: GraphQLSchema | undefined;
  // Unless this is set, @apollo/gateway sends anonymous usage metrics to Apollo and, to label
  // them, probes the cloud metadata addresses (169.254.169.254, metadata.google.internal) on every
  // start. The service calls out to nothing it was not configured to call (test/security).
  process.env.APOLLO_TELEMETRY_DISABLED = "true";
  const shortcuts = options.shortcuts ?? allShortcutsOn;
  const gateway = staticGateway(options);
  gateway.onSchemaLoadOrUpdate(({ apiSchema: schema }) => {
    apiSchema = schema;
    clientSchema = withEdgeSubscriptions(schema);
  });
  const edgeLogger = logger.child({ component: "gateway" });
  const requestIds = errorRequestIds<EdgeContext>();
  const formatError = (formatted: GraphQLFormattedError, error: unknown, requestId?: string) => hideUnexpected(formatted, error, edgeLogger, requestId ?? requestIds.of(error));
  const execution = edgeExecution(shortcuts["direct-execution"]);
  const plugins = [...execution.plugins, requestIds.plugin];
  const server = edgeServer(gateway, options, { logger: edgeLogger, formatError, plugins, clientSchema: () => clientSchema! });
  await server.start();
  if (!apiSchema || !clientSchema) throw new Error("gateway started without a schema");
  useGatewayShortcuts(gateway, shortcuts);
  const direct = execution.start({ server, gateway, apiSchema: () => apiSchema!, formatError, logger: edgeLogger, metrics: options.metrics });
  return { server, apiSchema, clientSchema, execute: direct.execute, executeCounts: direct.counts, answerClient: direct.answerClient, clientCounts: direct.clientCounts, stop: () => server.stop() };
}

/** The gateway over the supergraph, calling each subgraph in process or at its URL, traced and timed when those are on. */
function staticGateway({ supergraphSdl, targets, logger, metrics }: EdgeGraphOptions): ApolloGateway {
  return new ApolloGateway({
    supergraphSdl,
    // Composed by @apollo/composition, which validated it: in this process, or as the committed
    // schema/supergraph.graphql that the schema's drift test holds equal to a fresh composition
    // (schema/compose.ts). The gateway's second validation (on unless NODE_ENV=production) cost
    // every start, and every test stack, ~25 ms.
    validateSupergraph: false,
    logger,
    // With tracing on, the gateway's own spans (gateway.request, .plan, .execute, .fetch) join the
    // request's trace. Without the document: it may carry a caller's literal values; exceptions
    // are left out for the same reason (the logs have them, by trace id).
    telemetry: { includeDocument: false, recordExceptions: false },
    buildService: ({ name, url }): GraphQLDataSource<EdgeContext> => {
      const subgraph = name as SubgraphName;
      let source: GraphQLDataSource<EdgeContext> =
        targets.kind === "in-process" ? new InProcessDataSource(targets.subgraphs[subgraph]) : new ForwardingRemoteDataSource({ url: targets.urls[subgraph] ?? url }, targets.credential);
      if (activeTracer()) source = tracedDataSource(subgraph, source, targets.kind);
      return metrics ? timedDataSource(subgraph, source, metrics) : source;
    },
  });
}

/**
 * The edge's Apollo Server over the gateway. `parts.plugins` (the execution's, then the request
 * ids') come after the server's own, before the log of persisted-query misses.
 */
function edgeServer(
  gateway: ApolloGateway,
  { disclosure, metrics }: EdgeGraphOptions,
  parts: { logger: Logger; formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError; plugins: ApolloServerPlugin<EdgeContext>[]; clientSchema: () => GraphQLSchema },
): ApolloServer<EdgeContext> {
  const { limitPlugins, ...limits } = apolloLimitOptions<EdgeContext>("edge");
  return new ApolloServer<EdgeContext>({
    gateway,
    ...limits,
    introspection: disclosure.introspection,
    hideSchemaDetailsFromClientErrors: !disclosure.suggestions,
    includeStacktraceInErrorResponses: false,
    formatError: parts.formatError,
    logger: parts.logger,
    // The process stops its servers itself, in order, after the HTTP requests have drained.
    stopOnTerminationSignals: false,
    // Answers are per caller: no cache hints for shared HTTP caches (and no per-field hook for them).
    // No landing page: Apollo's loads its scripts from Apollo's CDN; browsers get our own IDE (GRAPHQL_IDE).
    plugins: [
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginLandingPageDisabled(),
      operationResolutionPlugin(),
      ...limitPlugins,
      costBudgetPlugin(),
      clientIntrospectionPlugin(parts.clientSchema),
      ...(metrics ? [operationMetricsPlugin<EdgeContext>(metrics)] : []),
      ...parts.plugins,
      persistedQueryMissLog<EdgeContext>(parts.logger),
    ],
  });
}
