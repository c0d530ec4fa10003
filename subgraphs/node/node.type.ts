import { Directive, Field, ID, InterfaceType, ObjectType } from "type-graphql";

/** An entity as the `node` subgraph knows it: its type and its global id; the owner answers the rest. */
export interface NodeReference {
  __typename: string;
  id: string;
}

@Directive('@key(fields: "id")')
@InterfaceType("Node", {
  description: "An entity with a global id: `node(id)` finds it, whatever its type (Relay Global Object Identification)",
  resolveType: (value: NodeReference) => value.__typename,
})
export abstract class Node {
  @Field(() => ID, { description: "The global id: opaque, stable, the same in every answer and in `node(id)`" }) id!: string;
}

/**
 * The `node` subgraph's stub of an entity type: federation's entity interfaces ask the subgraph
 * that declares `Node` to declare each type implementing it, by key only; the owner resolves the rest.
 */
export function nodeStub(typeName: string): typeof Node {
  @Directive('@key(fields: "id")')
  @ObjectType(typeName, { implements: Node })
  class Stub extends Node {}
  Object.defineProperty(Stub, "name", { value: `${typeName}NodeStub` });
  return Stub;
}
