import { createHash } from "node:crypto";
import type { ApolloGateway } from "@apollo/gateway";
import type { ApolloServer } from "@apollo/server";
import type { GatewayGraphQLRequestContext } from "@apollo/server-gateway-interface";
import { getOperationAST, GraphQLError, parse, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { checkOperationText } from "../core/input-text.js";
import type { Logger } from "../core/logger.js";
import type { ServiceMetrics } from "../core/metrics.js";
import { onlyIntrospection } from "./client-introspection.js";
import type { EdgeContext } from "./edge-context.js";
import type { OperationRequest, OperationResult } from "./gateway.js";
import { checkOperationCost, parseOptionsFor, ValidatedDocuments } from "./operation-limits.js";

interface Admitted {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  queryHash: string;
}

/**
 * The operations the edge runs itself (each REST path's one operation, each subscription message)
 * repeat a few dozen texts, and each went through the edge's Apollo Server pipeline: hashing the
 * text, every plugin's hooks, error normalisation. A text's first run (with its operation name)
 * still goes through it, with every rule of the edge; once it has answered without errors it is
 * remembered, and later runs check what depends on their variables (text no database stores,
 * coercion, cost), time the operation as the metrics plugin does, and hand the gateway's executor
 * the request context Apollo Server would. Errors are formatted as Apollo Server formats them (a
 * code on every error, then the edge's `formatError`). Operations answered from the client schema
 * (introspection) are never remembered. Clients' HTTP requests always take the whole pipeline.
 */
export function directGatewayExecution(options: {
  server: ApolloServer<EdgeContext>;
  gateway: ApolloGateway;
  apiSchema: () => GraphQLSchema;
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  logger: Logger;
  metrics?: ServiceMetrics;
}) {
  const admitted = new ValidatedDocuments<Admitted>(500, 50_000);
  const counts = { pipeline: 0, direct: 0 };
  const format = (error: GraphQLError): GraphQLFormattedError => {
    const { http: _http, ...extensions } = error.extensions as Record<string, unknown>;
    return options.formatError({ ...error.toJSON(), extensions: { ...extensions, code: extensions.code ?? "INTERNAL_SERVER_ERROR" } }, error);
  };
  const keyOf = (request: OperationRequest) => (request.operationName ? `${request.operationName}\n${request.query}` : request.query);

  async function throughPipeline<TData>(request: OperationRequest, contextValue: EdgeContext): Promise<OperationResult<TData>> {
    counts.pipeline++;
    const response = await options.server.executeOperation<TData & Record<string, unknown>>(request, { contextValue });
    if (response.body.kind !== "single") throw new Error("incremental delivery is not used by internal operations");
    const result = response.body.singleResult as OperationResult<TData>;
    if (!result.errors?.length) {
      const document = parse(request.query, parseOptionsFor("edge"));
      const operation = getOperationAST(document, request.operationName);
      if (operation && operation.operation !== "subscription" && !onlyIntrospection(operation.selectionSet, document)) {
        admitted.set(keyOf(request), { document, operation, queryHash: createHash("sha256").update(request.query).digest("hex") });
      }
    }
    return result;
  }

  async function direct<TData>(entry: Admitted, request: OperationRequest, contextValue: EdgeContext): Promise<OperationResult<TData>> {
    counts.direct++;
    const started = performance.now();
    let result: OperationResult<TData>;
    try {
      checkOperationText(entry.document, request.variables);
      checkOperationCost("edge", options.apiSchema(), entry.document, request.variables, request.operationName);
      const requestContext = {
        request: { query: request.query, variables: request.variables, operationName: request.operationName },
        response: { http: { headers: new Headers(), status: undefined } },
        logger: options.logger,
        schema: options.apiSchema(),
        context: contextValue,
        queryHash: entry.queryHash,
        document: entry.document,
        source: request.query,
        operationName: entry.operation.name?.value ?? null,
        operation: entry.operation,
        metrics: {},
        requestIsBatched: false,
      } as unknown as GatewayGraphQLRequestContext<EdgeContext>;
      const answer = await options.gateway.executor(requestContext);
      result = { ...(answer as OperationResult<TData>), errors: answer.errors?.length ? answer.errors.map((error) => format(asGraphQLError(error))) : undefined };
      if (!result.errors) delete result.errors;
    } catch (error) {
      result = { errors: [format(asGraphQLError(error))] };
    }
    options.metrics?.graphqlDuration.observe(
      { operation: options.metrics.operationNames.of(entry.operation.name?.value ?? request.operationName ?? null), type: entry.operation.operation, outcome: result.errors?.length ? "error" : "ok" },
      (performance.now() - started) / 1000,
    );
    return result;
  }

  return {
    counts,
    execute<TData>(request: OperationRequest, contextValue: EdgeContext): Promise<OperationResult<TData>> {
      const entry = admitted.get(keyOf(request));
      return entry ? direct<TData>(entry, request, contextValue) : throughPipeline<TData>(request, contextValue);
    },
  };
}

function asGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  const original = error instanceof Error ? error : new Error(`Unexpected error value: ${String(error)}`);
  return new GraphQLError(original.message, { originalError: original });
}
