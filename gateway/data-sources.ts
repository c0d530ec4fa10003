import { RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import type { GatewayGraphQLResponse } from "@apollo/server-gateway-interface";
import { GraphQLError } from "graphql";
import { edgeError } from "../core/edge-refusals.js";
import type { RunningSubgraph } from "../subgraphs/common/subgraph.running.js";
import { type EdgeContext, forwardedHeaders } from "./edge-context.js";
import { GATEWAY_CREDENTIAL_HEADER, type GatewayCredential } from "../identity/gateway-credential.js";
import { traceHeaders } from "../core/tracing.js";
import { nextTurn } from "../core/event-loop-turns.js";

/**
 * Calls a subgraph's own Apollo Server in the same process. The subgraph still builds its
 * context from the forwarded headers, so it verifies the token exactly as over HTTP.
 */
export class InProcessDataSource implements GraphQLDataSource<EdgeContext> {
  constructor(private readonly subgraph: RunningSubgraph) {}

  async process(options: GraphQLDataSourceProcessOptions<EdgeContext>): Promise<GatewayGraphQLResponse> {
    const edgeContext = "context" in options ? (options.context as EdgeContext) : undefined;
    if (!edgeContext?.token) return { errors: [edgeError("UNAUTHENTICATED", "No caller to forward").toJSON()] };
    // The plan was made on this turn; the subgraph's work starts on the next (core/event-loop-turns.ts).
    await nextTurn();
    let contextValue;
    try {
      contextValue = await this.subgraph.createContext(forwardedHeaders(edgeContext));
    } catch (error) {
      if (error instanceof GraphQLError) return { errors: [error.toJSON()] };
      throw error;
    }
    const { request } = options;
    return (await this.subgraph.executeInProcess(
      { query: request.query!, variables: request.variables, operationName: request.operationName },
      contextValue,
    )) as GatewayGraphQLResponse;
  }
}

/**
 * Calls a subgraph run as its own role over HTTP, forwarding the caller's token with the
 * gateway's signed credential: subgraphs answer nobody else.
 */
export class ForwardingRemoteDataSource extends RemoteGraphQLDataSource<EdgeContext> {
  constructor(
    config: ConstructorParameters<typeof RemoteGraphQLDataSource<EdgeContext>>[0],
    private readonly credential: GatewayCredential,
  ) {
    super(config);
  }

  override willSendRequest({ request, context }: Parameters<NonNullable<RemoteGraphQLDataSource<EdgeContext>["willSendRequest"]>>[0]) {
    if (!context?.token) return;
    for (const [name, value] of Object.entries(forwardedHeaders(context as EdgeContext))) request.http?.headers.set(name, value);
    request.http?.headers.set(GATEWAY_CREDENTIAL_HEADER, this.credential.sign(context.token));
    for (const [name, value] of Object.entries(traceHeaders())) request.http?.headers.set(name, value);
  }
}
