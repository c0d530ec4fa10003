import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import { execute, Kind, type DocumentNode, type FormattedExecutionResult, type GraphQLSchema, type SelectionSetNode } from "graphql";

/**
 * Introspection over HTTP answered from the client schema (the gateway's API schema plus the
 * subscriptions the edge serves over graphql-ws), so code generators, IDEs and registries see
 * `Subscription` exactly as the WebSocket serves it. The gateway's own schema has no
 * subscriptions: it cannot execute them. Only operations that select nothing but introspection
 * are answered here; the disclosure rule (introspection off in production) and the operation
 * limits have refused anything they should before this runs.
 */
export function clientIntrospectionPlugin<TContext extends BaseContext>(clientSchema: () => GraphQLSchema): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async responseForOperation({ document, operation, request, contextValue, response }) {
          // No operation when operationName names none in the document: Apollo refuses it next.
          if (!operation || operation.operation !== "query" || !onlyIntrospection(operation.selectionSet, document)) return null;
          const result = await execute({ schema: clientSchema(), document, operationName: request.operationName, variableValues: request.variables, contextValue });
          const singleResult: FormattedExecutionResult = { data: result.data, ...(result.errors ? { errors: result.errors.map((error) => error.toJSON()) } : {}) };
          return { http: response.http, body: { kind: "single", singleResult } };
        },
      };
    },
  };
}

/** True when every root field, through fragments, is `__schema`, `__type` or `__typename`. */
export function onlyIntrospection(selectionSet: SelectionSetNode, document: DocumentNode): boolean {
  return selectionSet.selections.every((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value.startsWith("__");
    if (selection.kind === Kind.INLINE_FRAGMENT) return onlyIntrospection(selection.selectionSet, document);
    const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
    // Validation has refused unknown fragments and fragment cycles before this runs.
    return fragment?.kind === Kind.FRAGMENT_DEFINITION && onlyIntrospection(fragment.selectionSet, document);
  });
}
