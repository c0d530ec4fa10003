import { getNamedType, isInterfaceType, isLeafType, isNonNullType, isObjectType, type GraphQLField, type GraphQLNamedType } from "graphql";

/** A selection set as a tree: each field selected, with its own selection (null for a leaf). */
export type Selection = Map<string, Selection | null>;

/** A field the bench can select without arguments of its own: none required, or each defaulted. */
const selectable = (field: GraphQLField<unknown, unknown>) => !field.name.startsWith("__") && field.args.every((arg) => !isNonNullType(arg.type) || arg.defaultValue !== undefined);

/**
 * Every selectable field of a type down to `depth` levels: depth 1 selects the type's leaves,
 * depth 2 adds its objects' leaves, and so on. Unions and types with nothing selectable get
 * `__typename`. Generated from the schema, so a field added to the graph is measured with it.
 */
export function selectionOf(type: GraphQLNamedType, depth: number): Selection | null {
  if (isLeafType(type)) return null;
  const selection: Selection = new Map();
  if (isObjectType(type) || isInterfaceType(type)) {
    for (const field of Object.values(type.getFields())) {
      if (!selectable(field)) continue;
      const named = getNamedType(field.type);
      if (isLeafType(named)) selection.set(field.name, null);
      else if (depth > 1) {
        const inner = selectionOf(named, depth - 1);
        if (inner?.size) selection.set(field.name, inner);
      }
    }
  }
  if (!selection.size) selection.set("__typename", null);
  return selection;
}

/** The smallest selection of a type: its id, or else its first leaf, or else `__typename`. */
export function minimalSelectionOf(type: GraphQLNamedType): Selection | null {
  if (isLeafType(type)) return null;
  const full = selectionOf(type, 1)!;
  const leaf = full.has("id") ? "id" : [...full.keys()].find((name) => full.get(name) === null) ?? "__typename";
  return new Map([[leaf, null]]);
}

export function render(selection: Selection | null): string {
  if (!selection) return "";
  return `{ ${[...selection].map(([name, inner]) => (inner ? `${name} ${render(inner)}` : name)).join(" ")} }`;
}

/** Removes the field at a response path (aliases and list indexes skipped): what the caller may not read, or what is null but not nullable here. */
export function removePath(selection: Selection, path: readonly (string | number)[]): boolean {
  const names = path.filter((step): step is string => typeof step === "string");
  let node: Selection | null | undefined = selection;
  for (const name of names.slice(0, -1)) {
    node = node?.get(name);
    if (!node) return false;
  }
  const last = names.at(-1);
  if (!node || last === undefined || !node.has(last)) return false;
  node.delete(last);
  if (!node.size) node.set("__typename", null);
  return true;
}

export function cloneSelection(selection: Selection | null): Selection | null {
  return selection ? new Map([...selection].map(([name, inner]) => [name, cloneSelection(inner)])) : null;
}
