import { composeServices } from "@apollo/composition";
import { printSubgraphSchema } from "@apollo/subgraph";
import { parse } from "graphql";
import { subgraphDefinitions, subgraphNames, type SubgraphName } from "../subgraphs/subgraphs.js";

export interface ComposedGraph {
  subgraphs: Record<SubgraphName, { sdl: string; schema: import("graphql").GraphQLSchema }>;
  supergraphSdl: string;
}

/**
 * Builds every subgraph and composes the supergraph in code (no external binary). The gateway
 * uses this result at start-up; `npm run schema` writes the same text into schema/, and a test
 * fails when the committed files differ from it.
 */
export async function composeGraph(): Promise<ComposedGraph> {
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
  return { subgraphs, supergraphSdl: `${result.supergraphSdl.trim()}\n` };
}
