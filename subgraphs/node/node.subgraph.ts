import DataLoader from "dataloader";
import type { GraphQLSchema } from "graphql";
import { Arg, Ctx, ID, Query, Resolver } from "type-graphql";
import type { Caller } from "../../core/caller.js";
import { badInput } from "../../core/errors.js";
import { parseGlobalId } from "../../core/global-id.js";
import type { Database } from "../../drizzle/database.js";
import { buildFederatedSchema } from "../common/subgraph.build.js";
import type { SubgraphContext } from "../common/subgraph.context.js";
import type { NodeType } from "../common/relay/relay.node-type.js";
import { Node, nodeStub, type NodeReference } from "./node.type.js";

/** The most ids one `nodes` call resolves. */
export const MAX_NODES = 100;

type NodeLoaders = Map<string, DataLoader<string, boolean>>;
type NodeContext = SubgraphContext<NodeLoaders>;

/** One loader a type a request: the ids of one type asked in one operation cost one statement. */
function nodeLoaders(types: readonly NodeType[], database: Database, caller: Caller): NodeLoaders {
  return new Map(
    types.map((type) => [
      type.typeName,
      new DataLoader<string, boolean>(async (keys) => {
        const visible = await type.visibleKeys({ database, caller }, keys);
        return keys.map((key) => visible.has(key));
      }),
    ]),
  );
}

/** The entity an id names, when it exists and the caller may see it; null otherwise, alike. */
async function resolveNode(ctx: NodeContext, id: string): Promise<NodeReference | null> {
  const parsed = parseGlobalId(id);
  const loader = parsed && ctx.loaders.get(parsed.typeName);
  if (!parsed || !loader) return null;
  return (await loader.load(parsed.key)) ? { __typename: parsed.typeName, id } : null;
}

@Resolver()
class NodeResolver {
  @Query(() => Node, { nullable: true, description: "The entity a global id names; null when it does not exist or the caller may not see it" })
  node(@Arg("id", () => ID, { description: "A global id, as an entity's `id` gave it" }) id: string, @Ctx() ctx: NodeContext): Promise<NodeReference | null> {
    return resolveNode(ctx, id);
  }

  @Query(() => [Node], { nullable: "items", description: `The entities of several global ids (at most ${MAX_NODES}), in their order; null in the place of each that does not exist or that the caller may not see` })
  nodes(@Arg("ids", () => [ID], { description: "Global ids" }) ids: string[], @Ctx() ctx: NodeContext): Promise<(NodeReference | null)[]> {
    if (ids.length > MAX_NODES) throw badInput(`At most ${MAX_NODES} ids`, [{ field: "ids", rule: "maxItems", message: `at most ${MAX_NODES}` }]);
    return Promise.all(ids.map((id) => resolveNode(ctx, id)));
  }
}

/**
 * The `node` subgraph: `Node`, `node` and `nodes`, for the types the other subgraphs declare
 * (each subgraph's definition lists its own, so this one imports no other's code); each entity's
 * fields come from its owner.
 */
export function nodeSubgraph(types: readonly NodeType[]): { buildSchema: () => Promise<GraphQLSchema>; makeLoaders: (database: Database, caller: Caller) => NodeLoaders } {
  // Declared once: type-graphql keeps every class it is shown.
  const stubs = types.map((type) => nodeStub(type.typeName));
  const echo = { __resolveReference: (reference: NodeReference) => reference };
  return {
    buildSchema: () => buildFederatedSchema([NodeResolver], Object.fromEntries(types.map((type) => [type.typeName, echo])), stubs),
    makeLoaders: (database, caller) => nodeLoaders(types, database, caller),
  };
}
