import type { ApolloServerPlugin } from "@apollo/server";
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import type { ServiceMetrics } from "../core/metrics.js";

/** Times every operation the gateway runs (REST paths run one each) by name, type and outcome. */
export function operationMetricsPlugin<TContext extends object>(metrics: ServiceMetrics): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async willSendResponse({ operationName, operation, errors, response }) {
          const failed = Boolean(errors?.length) || (response.body.kind === "single" && Boolean(response.body.singleResult.errors?.length));
          metrics.graphqlDuration.observe(
            { operation: metrics.operationNames.of(operationName), type: operation?.operation ?? "unparsed", outcome: failed ? "error" : "ok" },
            (performance.now() - started) / 1000,
          );
        },
      };
    },
  };
}

/** A subgraph's data source that times each fetch the gateway makes to it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bound @apollo/gateway puts on a data source's context
export function timedDataSource<TContext extends Record<string, any>>(subgraph: string, source: GraphQLDataSource<TContext>, metrics: ServiceMetrics): GraphQLDataSource<TContext> {
  return {
    async process(options: GraphQLDataSourceProcessOptions<TContext>) {
      const started = performance.now();
      let outcome = "error";
      try {
        const response = await source.process(options);
        outcome = response.errors?.length ? "error" : "ok";
        return response;
      } finally {
        metrics.subgraphFetchDuration.observe({ subgraph, outcome }, (performance.now() - started) / 1000);
      }
    },
  };
}
