import type { WebhookTargets } from "../subgraphs/common/webhooks/webhook-endpoint.rules.js";
import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import { execute, getOperationAST, GraphQLError, Kind, parse, type OperationDefinitionNode, type FormattedExecutionResult, type GraphQLFormattedError, type GraphQLSchema } from "graphql";
import { EDGE_REFUSALS, edgeError } from "../core/edge-refusals.js";
import { HTTP_STATUS_OF_CODE } from "../core/errors.js";
import { checkOperationText } from "../core/input-text.js";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../drizzle/database.js";
import type { TokenVerifier } from "../identity/token-verifier.js";
import type { SchemaDisclosure } from "./gateway.js";
import { apolloLimitOptions, checkOperationCost, parseOptionsFor, ValidatedDocuments } from "./operation-limits.js";
import type { SubgraphDefinition } from "../subgraphs/subgraph.names.js";
import { readWithLag, subgraphContextFactory, type SubgraphContext } from "../subgraphs/common/subgraph.context.js";
import type { OctoEngines } from "../subgraphs/common/octo/octo.engines.js";
import type { ServiceGraphs } from "../subgraphs/common/service.graph.js";
import type { InProcessRequest, RunningSubgraph } from "../subgraphs/common/subgraph.running.js";

/** One subgraph on its own Apollo Server, whether mounted in the single process or run as a role. */
export async function startSubgraph(
  definition: SubgraphDefinition,
  deps: {
    database: Database;
    verifier: TokenVerifier;
    logger: Logger;
    clock: Clock;
    publicUrl: () => string;
    disclosure: SchemaDisclosure;
    schema?: GraphQLSchema;
    /** How this subgraph's service code reads other subgraphs. */
    graphs: ServiceGraphs;
    octo: OctoEngines;
    webhookTargets: WebhookTargets;
    /** In process, an admitted text's later calls skip Apollo Server's pipeline (PERFORMANCE_SHORTCUTS_OFF=subgraph-direct-execution turns it off); on when absent. */
    directExecution?: boolean;
  },
): Promise<RunningSubgraph> {
  const schema = deps.schema ?? (await definition.buildSchema());
  const logger = deps.logger.child({ subgraph: definition.name });
  const { limitPlugins, ...limits } = apolloLimitOptions<SubgraphContext>("subgraph");
  const requestIds = errorRequestIds<SubgraphContext>();
  const laggingReads = laggingReadsPlugin(definition.readsTolerateLag);
  const server = new ApolloServer<SubgraphContext>({
    schema,
    ...limits,
    introspection: deps.disclosure.introspection,
    hideSchemaDetailsFromClientErrors: !deps.disclosure.suggestions,
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    formatError: (formatted, error) => hideUnexpected(formatted, error, logger, requestIds.of(error)),
    logger,
    // Traces are for Apollo's hosted studio, which this service does not report to; cache hints
    // would serve shared HTTP caches, which per-caller answers must not use. Both wrap every field
    // resolver: without them a 500-row report resolves in about half the time.
    // Only the gateway calls a subgraph: no landing page (Apollo's would load from its CDN).
    plugins: [ApolloServerPluginInlineTraceDisabled(), ApolloServerPluginCacheControlDisabled(), ApolloServerPluginLandingPageDisabled(), executionResultsAnswer200, ...limitPlugins, requestIds.plugin, laggingReads],
  });
  await server.start();
  const inProcessCounts = { pipeline: 0, direct: 0 };
  const executeInProcess = inProcessExecutor(server, schema, logger, inProcessCounts, definition.readsTolerateLag, deps.directExecution ?? true);
  const database = definition.findsRowsByKey ? deps.database.forKeyLookups : deps.database;
  const contexts = subgraphContextFactory(deps.verifier, database, definition.makeLoaders, deps.clock, deps.publicUrl, { graphs: deps.graphs, octo: deps.octo, webhookTargets: deps.webhookTargets, logger, clock: deps.clock });
  return {
    name: definition.name,
    schema,
    server,
    createContext: contexts.forCaller as RunningSubgraph["createContext"],
    createServiceContext: contexts.forService as RunningSubgraph["createServiceContext"],
    executeInProcess,
    inProcessCounts,
  };
}

/**
 * The gateway's fetches repeat a few dozen texts (one per step of a query plan), and each went
 * through Apollo Server's whole request pipeline: hashing the text, plugins' hooks, error
 * normalisation. A text's first call still goes through it, with every validation rule of the
 * subgraph (parse limits, depth, aliases, recursive selections, introspection); once a text has
 * answered without any error it is remembered, and later calls run what depends on their
 * variables (text checks, coercion, cost) and then execute. An answer's errors are formatted as
 * Apollo Server formats them (a code on every error, the unexpected hidden). Nothing reaches this
 * from outside the process; test/integration/in-process-subgraph.test.ts holds the answers equal.
 * Without `direct`, every call goes through the pipeline and no text is remembered.
 */
function inProcessExecutor(server: ApolloServer<SubgraphContext>, schema: GraphQLSchema, logger: Logger, counts: { pipeline: number; direct: number }, readsTolerateLag: ReadonlySet<string>, direct: boolean) {
  const admitted = new ValidatedDocuments(500, 50_000);
  const format = (error: GraphQLError, requestId: string): GraphQLFormattedError => {
    // Variables were coerced by the cost check already, so execution cannot fail on them.
    const code = error.extensions.code ?? EDGE_REFUSALS.INTERNAL_SERVER_ERROR.code;
    return hideUnexpected({ ...error.toJSON(), extensions: { ...error.extensions, code } }, error, logger, requestId);
  };
  return async (request: InProcessRequest, contextValue: SubgraphContext): Promise<FormattedExecutionResult> => {
    const document = direct ? admitted.get(request.query) : undefined;
    if (!document) {
      counts.pipeline++;
      const response = await server.executeOperation(request, { contextValue });
      if (response.body.kind !== "single") throw new Error("a subgraph answered with incremental delivery");
      const result = response.body.singleResult;
      if (direct && !result.errors?.length) admitted.set(request.query, parse(request.query, parseOptionsFor("subgraph")));
      return result;
    }
    counts.direct++;
    try {
      checkOperationText(document, request.variables);
      checkOperationCost("subgraph", schema, document, request.variables, request.operationName);
    } catch (error) {
      if (error instanceof GraphQLError) return { errors: [format(error, contextValue.requestId)] };
      throw error;
    }
    if (toleratesLag(getOperationAST(document, request.operationName), readsTolerateLag)) readWithLag(contextValue);
    const result = await execute({ schema, document, contextValue, variableValues: request.variables, operationName: request.operationName });
    return result.errors?.length ? { ...result, errors: result.errors.map((error) => format(error, contextValue.requestId)) } : result;
  };
}

/** A query whose every root field is one of `fields` (`__typename` aside): its answer may lag the primary. */
export function toleratesLag(operation: OperationDefinitionNode | null | undefined, fields: ReadonlySet<string>): boolean {
  if (operation?.operation !== "query" || fields.size === 0) return false;
  let reads = 0;
  for (const selection of operation.selectionSet.selections) {
    // A fragment on Query could hide any field: the primary, rather than look inside.
    if (selection.kind !== Kind.FIELD) return false;
    if (selection.name.value === "__typename") continue;
    if (!fields.has(selection.name.value)) return false;
    reads++;
  }
  return reads > 0;
}

/** Through Apollo Server's pipeline (HTTP from the gateway of another process, an in-process text's first call): the same decision, once the operation is known. */
function laggingReadsPlugin(fields: ReadonlySet<string>): ApolloServerPlugin<SubgraphContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          if (toleratesLag(operation, fields)) readWithLag(contextValue);
        },
      };
    },
  };
}

/**
 * A subgraph's execution result is answered with 200 whatever its errors say about HTTP: the
 * gateway reads a non-2xx answer over HTTP as a failed fetch and drops the errors in it (a 400
 * for bad input would reach the client as an internal error). Refusals before execution (no
 * credential, no token, invalid operation) keep their status.
 */
const executionResultsAnswer200: ApolloServerPlugin<SubgraphContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind === "single" && "data" in response.body.singleResult) response.http.status = 200;
      },
    };
  },
};

/**
 * The codes an error keeps on its way out: every code of the two refusal tables, the services'
 * (core/errors.ts, which core/refusals.ts names) and the edge's (core/edge-refusals.ts), but the
 * unexpected's own. Any other code (a library's, the gateway's DOWNSTREAM_SERVICE_ERROR) is hidden.
 */
export const EXPECTED_CODES: ReadonlySet<string> = new Set(
  [...Object.keys(HTTP_STATUS_OF_CODE), ...Object.values(EDGE_REFUSALS).map((refusal) => refusal.code)].filter((code) => code !== "INTERNAL_SERVER_ERROR"),
);

/** PostgreSQL cancelled a statement at its statement_timeout (drizzle wraps the driver's error as `cause`). */
function isStatementTimeout(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === "57014") return true;
    current = (current as { originalError?: unknown; cause?: unknown }).originalError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}

const PUBLIC_EXTENSIONS = ["problems", "errorCode", "reason", "retryAfterSeconds"] as const;

/**
 * Which request an error arose in, for its log line: Apollo Server's `formatError` is not told,
 * its plugins are, with the very error objects it then formats.
 */
export function errorRequestIds<TContext extends { requestId: string }>() {
  const ids = new WeakMap<object, string>();
  const plugin: ApolloServerPlugin<TContext> = {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) if (contextValue.requestId) ids.set(error, contextValue.requestId);
        },
      };
    },
  };
  return { plugin, of: (error: unknown) => (typeof error === "object" && error !== null ? ids.get(error) : undefined) };
}

/**
 * Expected errors pass through; anything else is logged (statements and their values left out:
 * core/error-log.ts) with the request's id, and shown only as an internal error.
 */
export function hideUnexpected(formatted: GraphQLFormattedError, error: unknown, logger: Logger, requestId?: string): GraphQLFormattedError {
  const code = formatted.extensions?.code;
  if (typeof code === "string" && EXPECTED_CODES.has(code)) {
    // Only the documented extensions leave the service: never a downstream response, URL or stack.
    const extensions: Record<string, unknown> = { code };
    for (const key of PUBLIC_EXTENSIONS) if (formatted.extensions?.[key] !== undefined) extensions[key] = formatted.extensions[key];
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions };
  }
  if (isStatementTimeout(error)) {
    logger.warn({ err: error, requestId }, "statement timeout");
    return edgeError("OPERATION_TIMEOUT", "The operation took longer than the service allows; try again, or ask for less", { path: formatted.path }).toJSON();
  }
  logger.error({ err: error, requestId }, "unexpected GraphQL error");
  return edgeError("INTERNAL_SERVER_ERROR", "Internal server error", { path: formatted.path }).toJSON();
}
