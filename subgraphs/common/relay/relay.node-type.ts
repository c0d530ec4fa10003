import type { Caller } from "../../../core/caller.js";
import type { Database } from "../../../drizzle/database.js";

/**
 * What the `node` subgraph needs of each type that implements `Node`: which of a batch of keys
 * name an entity the caller may see. The owning subgraph's module provides it, from the same
 * rule its own queries apply, so that `node(id)` and the owner's fields answer alike: `null`
 * for what does not exist and for what the caller may not see.
 */
export interface NodeType {
  typeName: string;
  visibleKeys(access: { database: Database; caller: Caller }, keys: readonly string[]): Promise<ReadonlySet<string>>;
}
