import { edgeSubscriptionsSdl } from "./edge-subscriptions.js";
import { subgraphNames } from "../subgraphs/subgraph.names.js";
import { composeGraphAfresh, GENERATED_HEADER as HEADER, printApiSchema } from "./compose.js";

export { schemaFolder } from "./compose.js";

/** Every generated schema file, by file name, as the code builds it now. */
export async function generatedSchemaFiles(): Promise<Record<string, string>> {
  const graph = await composeGraphAfresh();
  const files: Record<string, string> = {};
  for (const name of subgraphNames) files[`${name}.graphql`] = HEADER + graph.subgraphs[name].sdl;
  files["supergraph.graphql"] = HEADER + graph.supergraphSdl;
  files["edge-subscriptions.graphql"] = HEADER + edgeSubscriptionsSdl;
  files["api.graphql"] = HEADER + printApiSchema(graph.apiSchema);
  return files;
}
