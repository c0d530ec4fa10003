import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from "@apollo/server/plugin/disabled";
import type { GraphQLFormattedError, GraphQLSchema } from "graphql";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../core/logger.js";
import type { Database } from "../../drizzle/database.js";
import type { TokenVerifier } from "../../identity/token-verifier.js";
import type { SubgraphDefinition, SubgraphName } from "../subgraphs.js";
import { type HeaderMap, subgraphContextFactory, type SubgraphContext } from "./context.js";

export interface RunningSubgraph {
  name: SubgraphName;
  schema: GraphQLSchema;
  server: ApolloServer<SubgraphContext>;
  createContext: (headers: HeaderMap) => Promise<SubgraphContext>;
}

/** One subgraph on its own Apollo Server, whether mounted in the single process or run as a role. */
export async function startSubgraph(
  definition: SubgraphDefinition,
  deps: { database: Database; verifier: TokenVerifier; logger: Logger; clock: Clock; publicUrl: () => string; schema?: GraphQLSchema },
): Promise<RunningSubgraph> {
  const schema = deps.schema ?? (await definition.buildSchema());
  const logger = deps.logger.child({ subgraph: definition.name });
  const server = new ApolloServer<SubgraphContext>({
    schema,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    formatError: (formatted, error) => hideUnexpected(formatted, error, logger),
    logger,
    // Traces are for Apollo's hosted studio, which this service does not report to; cache hints
    // would serve shared HTTP caches, which per-caller answers must not use. Both wrap every field
    // resolver: without them a 500-row report resolves in about half the time.
    plugins: [ApolloServerPluginInlineTraceDisabled(), ApolloServerPluginCacheControlDisabled()],
  });
  await server.start();
  return {
    name: definition.name,
    schema,
    server,
    createContext: subgraphContextFactory(deps.verifier, deps.database, definition.makeLoaders, deps.clock, deps.publicUrl) as RunningSubgraph["createContext"],
  };
}

const EXPECTED_CODES = new Set([
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "NOT_FOUND",
  "BAD_USER_INPUT",
  "CONFLICT",
  "GONE",
  "NO_LONGER_AVAILABLE",
  "GRAPHQL_VALIDATION_FAILED",
  "GRAPHQL_PARSE_FAILED",
  "BAD_REQUEST",
  "PERSISTED_QUERY_NOT_FOUND",
  "OPERATION_RESOLUTION_FAILURE",
]);

const PUBLIC_EXTENSIONS = ["problems", "errorCode", "reason"] as const;

/** Expected errors pass through; anything else is logged in full and shown only as an internal error. */
export function hideUnexpected(formatted: GraphQLFormattedError, error: unknown, logger: Logger): GraphQLFormattedError {
  const code = formatted.extensions?.code;
  if (typeof code === "string" && EXPECTED_CODES.has(code)) {
    // Only the documented extensions leave the service: never a downstream response, URL or stack.
    const extensions: Record<string, unknown> = { code };
    for (const key of PUBLIC_EXTENSIONS) if (formatted.extensions?.[key] !== undefined) extensions[key] = formatted.extensions[key];
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions };
  }
  logger.error({ err: error }, "unexpected GraphQL error");
  return { message: "Internal server error", path: formatted.path, extensions: { code: "INTERNAL_SERVER_ERROR" } };
}
