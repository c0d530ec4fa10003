import { SpanKind } from "@opentelemetry/api";
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import { inSpan, markFailed } from "../core/tracing.js";

/**
 * A subgraph's data source whose every fetch is a span, under the gateway's own `gateway.fetch`:
 * in process it is the subgraph's execution (its SQL beneath it); over HTTP it is the client side
 * of the call, whose traceparent the subgraph's process continues.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bound @apollo/gateway puts on a data source's context
export function tracedDataSource<TContext extends Record<string, any>>(subgraph: string, source: GraphQLDataSource<TContext>, where: "in-process" | "remote"): GraphQLDataSource<TContext> {
  return {
    process: (options: GraphQLDataSourceProcessOptions<TContext>) =>
      inSpan(
        `subgraph ${subgraph}`,
        {
          kind: where === "remote" ? SpanKind.CLIENT : SpanKind.INTERNAL,
          attributes: { "activities.subgraph": subgraph, ...(options.request.operationName ? { "graphql.operation.name": options.request.operationName } : {}) },
        },
        async (span) => {
          const response = await source.process(options);
          if (response.errors?.length) markFailed(span, "graphql-errors");
          return response;
        },
      ),
  };
}
