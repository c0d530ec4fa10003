import type { GraphQLResolveInfo, SelectionSetNode } from "graphql";

/** Whether the field's selection names `field` anywhere, fragments and conditional selections included. */
export function asksFor(info: GraphQLResolveInfo, field: string): boolean {
  const seen = new Set<string>();
  const within = (selectionSet: SelectionSetNode | undefined): boolean =>
    (selectionSet?.selections ?? []).some((selection) => {
      if (selection.kind === "Field") return selection.name.value === field || within(selection.selectionSet);
      if (selection.kind === "InlineFragment") return within(selection.selectionSet);
      const name = selection.name.value;
      if (seen.has(name)) return false;
      seen.add(name);
      return within(info.fragments[name]?.selectionSet);
    });
  return info.fieldNodes.some((node) => within(node.selectionSet));
}
