import { composeServices } from "@apollo/composition";
import { printSubgraphSchema } from "@apollo/subgraph";
import { extendSchema, lexicographicSortSchema, parse, printSchema, type GraphQLSchema } from "graphql";
import { edgeSubscriptionsSdl } from "./edge-subscriptions.js";
import { subgraphDefinitions, subgraphNames, type SubgraphName } from "../subgraphs/subgraph.names.js";

export interface ComposedGraph {
  subgraphs: Record<SubgraphName, { sdl: string; schema: import("graphql").GraphQLSchema }>;
  supergraphSdl: string;
  /** What clients see: the supergraph's API schema with the edge's subscriptions (schema/api.graphql). */
  apiSchema: GraphQLSchema;
}

/** The client-facing schema: the gateway's API schema plus the subscriptions the edge serves over graphql-ws. */
export const withEdgeSubscriptions = (gatewayApiSchema: GraphQLSchema): GraphQLSchema => extendSchema(gatewayApiSchema, parse(edgeSubscriptionsSdl));

export const printApiSchema = (schema: GraphQLSchema): string => `${printSchema(lexicographicSortSchema(schema)).trim()}\n`;

let composed: Promise<ComposedGraph> | undefined;

/**
 * Builds every subgraph and composes the supergraph in code (no external binary). The gateway
 * uses this result at start-up; `npm run schema` writes the same text into schema/, and a test
 * fails when the committed files differ from it.
 *
 * The graph depends on the code alone (no schema holds a service's dependencies: resolvers get
 * them from the request's context), so a process that starts several services, as the test suite
 * and the benchmarks do, composes it once: 0.2–0.4 s of CPU a start.
 */
export function composeGraph(): Promise<ComposedGraph> {
  composed ??= composeOnce().catch((error: unknown) => {
    composed = undefined;
    throw error;
  });
  return composed;
}

async function composeOnce(): Promise<ComposedGraph> {
  const subgraphs = {} as ComposedGraph["subgraphs"];
  for (const name of subgraphNames) {
    const schema = await subgraphDefinitions[name].buildSchema();
    subgraphs[name] = { schema, sdl: `${printSubgraphSchema(schema).trim()}\n` };
  }
  const result = composeServices(
    subgraphNames.map((name) => ({ name, url: `http://${name}.subgraph.local/graphql`, typeDefs: parse(subgraphs[name].sdl) })),
  );
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((e) => `  - ${e.message}`).join("\n")}`);
  }
  return { subgraphs, supergraphSdl: `${result.supergraphSdl.trim()}\n`, apiSchema: withEdgeSubscriptions(result.schema.toAPISchema().toGraphQLJSSchema()) };
}
