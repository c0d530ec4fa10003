import type { ApolloGateway } from "@apollo/gateway";
import type { PerformanceShortcuts } from "../core/performance-shortcuts.js";
import { buildGatewayOperationsPlainly, cacheGatewayOperations } from "./operation-cache.js";
import { shapeGatewayResultsFast, shapeGatewayResultsPlainly } from "./result-shaping.js";

/**
 * The operation cache and the planned shaping replace functions of @apollo/gateway's modules, for
 * every gateway of the process at once (the only seam there is). A gateway with either turned off
 * has its API schema named to it, and its calls take the gateway's own function, even when another
 * gateway of the process (tests start several) installed the shortcut. A process whose gateways
 * all have one off never installs it: the library runs untouched.
 *
 * Called once the gateway has loaded its (static) supergraph and before it runs an operation: the
 * gateway reads both functions from their modules at each call.
 */
export function useGatewayShortcuts(gateway: ApolloGateway, shortcuts: PerformanceShortcuts): void {
  if (shortcuts["operation-cache"]) cacheGatewayOperations();
  if (shortcuts["result-shaping"]) shapeGatewayResultsFast();
  if (shortcuts["operation-cache"] && shortcuts["result-shaping"]) return;
  const apiSchema = federationApiSchema(gateway);
  if (!shortcuts["operation-cache"]) buildGatewayOperationsPlainly(apiSchema);
  if (!shortcuts["result-shaping"]) shapeGatewayResultsPlainly(apiSchema);
}

/**
 * The federation-internals `Schema` the gateway hands `operationFromDocument` and from which its
 * operations answer `schema()`: a private member of ApolloGateway (`apiSchema`), set when it loads
 * the supergraph. Not the graphql-js schema its schema listeners receive.
 */
function federationApiSchema(gateway: ApolloGateway): object {
  const apiSchema = (gateway as unknown as { apiSchema?: unknown }).apiSchema;
  if (typeof apiSchema !== "object" || apiSchema === null || typeof (apiSchema as { toGraphQLJSSchema?: unknown }).toGraphQLJSSchema !== "function") {
    throw new Error("@apollo/gateway no longer keeps its API schema as `apiSchema`: the switches of the operation cache and the result shaping cannot name it (docs/performance-machinery.md, upgrades)");
  }
  return apiSchema;
}
