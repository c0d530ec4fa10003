import { createRequire } from "node:module";
import type { DefinitionNode, DocumentNode } from "graphql";

/**
 * @apollo/gateway turns the request's operation into a federation `Operation` on every request
 * before it shapes the answer (`executeQueryPlan` calls `operationFromDocument` with
 * `validate: false` on a document it assembles from the operation and its fragments). The query
 * plan is cached per operation text, but that `Operation` is not: it cost about 4 % of a booking
 * flow's CPU. Apollo Server hands the gateway the same parsed document for the same text (its
 * document store), so the same operation node comes back, and the `Operation` built from it (read
 * only by the gateway) can be reused while that node lives.
 *
 * The gateway reads the function from the federation internals' module exports at every call, so
 * replacing the export is the only seam. Only calls shaped like the gateway's are cached: not
 * validated, and keyed by the schema and the very definition nodes, so a document assembled
 * from other nodes, or a different schema, is built anew. Anything else goes straight through.
 */
type OperationFromDocument = (schema: unknown, document: DocumentNode, options?: { validate?: boolean; operationName?: string }) => unknown;

interface Cached {
  definitions: readonly DefinitionNode[];
  operation: unknown;
}

const PATCHED = Symbol.for("activities.operationFromDocumentCache");
const counts = { built: 0, reused: 0 };
/** The API schemas of gateways that run with the cache off (PERFORMANCE_SHORTCUTS_OFF=operation-cache): their calls go straight through. */
const plainSchemas = new WeakSet<object>();

/** Leaves the gateway's own build in place for every operation on this (federation) API schema, whoever installed the cache. */
export function buildGatewayOperationsPlainly(apiSchema: object): void {
  plainSchemas.add(apiSchema);
}

export function cacheGatewayOperations(): void {
  const require = createRequire(import.meta.url);
  const operations = require("@apollo/federation-internals/dist/operations.js") as { operationFromDocument: OperationFromDocument & { [PATCHED]?: true } };
  if (operations.operationFromDocument[PATCHED]) return;
  const build = operations.operationFromDocument;
  const bySchema = new WeakMap<object, WeakMap<DefinitionNode, Cached>>();
  const cached: OperationFromDocument & { [PATCHED]?: true } = (schema, document, options) => {
    const first = document.definitions[0];
    if (options?.validate !== false || options.operationName !== undefined || !first || typeof schema !== "object" || schema === null || plainSchemas.has(schema)) return build(schema, document, options);
    let byNode = bySchema.get(schema);
    if (!byNode) bySchema.set(schema, (byNode = new WeakMap()));
    const hit = byNode.get(first);
    if (hit && sameDefinitions(hit.definitions, document.definitions)) {
      counts.reused++;
      return hit.operation;
    }
    counts.built++;
    const operation = build(schema, document, options);
    byNode.set(first, { definitions: [...document.definitions], operation });
    return operation;
  };
  cached[PATCHED] = true;
  operations.operationFromDocument = cached;
}

function sameDefinitions(a: readonly DefinitionNode[], b: readonly DefinitionNode[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** How often the gateway's operations were built and reused in this process (tests read it). */
export function gatewayOperationCounts(): { built: number; reused: number } {
  return { ...counts };
}
