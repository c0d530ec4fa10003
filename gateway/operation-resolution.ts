import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import { GraphQLError } from "graphql";

/**
 * An operationName that names no operation of the document (or none given for a document with
 * several) is the client's mistake. Apollo Server leaves the check to the executor, and the
 * gateway's executor throws an error without a code, which would be answered as a 500.
 */
export function operationResolutionPlugin<TContext extends BaseContext>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, request }) {
          if (operation) return;
          const message = request.operationName ? `Unknown operation named "${request.operationName}".` : "Must provide operation name if query contains multiple operations.";
          throw new GraphQLError(message, { extensions: { code: "OPERATION_RESOLUTION_FAILURE", http: { status: 400 } } });
        },
      };
    },
  };
}
