import type { ApolloServer } from "@apollo/server";
import type { FormattedExecutionResult, GraphQLSchema } from "graphql";
import type { SubgraphName } from "../subgraph.names.js";
import type { HeaderMap, SubgraphContext } from "./subgraph.context.js";

/*
 * A subgraph as it runs, whoever started it (gateway/subgraph-server.ts serves one): what the
 * gateway fetches from and what other subgraphs' service code calls in-process.
 */

export interface RunningSubgraph {
  name: SubgraphName;
  schema: GraphQLSchema;
  server: ApolloServer<SubgraphContext>;
  createContext: (headers: HeaderMap) => Promise<SubgraphContext>;
  /** For a service credential already checked (or a call within this process). */
  createServiceContext: (service: string) => SubgraphContext;
  /**
   * Runs an operation from this process (the gateway's fetches, other subgraphs' service calls)
   * under the same rules as `server.executeOperation`, without its per-request pipeline once the
   * text has passed that pipeline.
   */
  executeInProcess: (request: InProcessRequest, contextValue: SubgraphContext) => Promise<FormattedExecutionResult>;
  /** How many in-process calls went through Apollo Server's pipeline, and how many ran directly. */
  readonly inProcessCounts: { pipeline: number; direct: number };
}

export interface InProcessRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}
