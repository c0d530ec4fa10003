import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from "graphql";

/**
 * Refuses operations nested deeper than `maxDepth` before any subgraph is called: the graph has
 * cycles (organisation → booking engine → …), and depth is what makes a query expensive here.
 */
export function depthLimit(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    const depthOf = (selectionSet: SelectionSetNode | undefined, depth: number, seen: Set<string>): number => {
      if (!selectionSet) return depth;
      let deepest = depth;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          if (selection.name.value.startsWith("__")) continue;
          deepest = Math.max(deepest, depthOf(selection.selectionSet, depth + 1, seen));
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          deepest = Math.max(deepest, depthOf(selection.selectionSet, depth, seen));
        } else {
          const name = selection.name.value;
          const fragment = fragments.get(name);
          if (!fragment || seen.has(name)) continue;
          deepest = Math.max(deepest, depthOf(fragment.selectionSet, depth, new Set([...seen, name])));
        }
      }
      return deepest;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, 0, new Set());
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(`Operation is ${depth} levels deep; the limit is ${maxDepth}`, {
              nodes: [node],
              extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
            }),
          );
        }
      },
    };
  };
}
