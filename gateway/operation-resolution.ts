import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import { edgeError } from "../core/edge-refusals.js";

/**
 * Refuses, as the client's mistake (400), an operation the gateway cannot run. Apollo Server
 * leaves both cases below to the executor, and the gateway's executor throws errors without a
 * code, which would be answered as a 500:
 * - an operationName that names no operation of the document (or none given for several);
 * - a subscription: the client schema shows `Subscription` (introspection answers from it), but
 *   only graphql-ws serves it.
 */
export function operationResolutionPlugin<TContext extends BaseContext>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, request }) {
          if (!operation) {
            const message = request.operationName ? `Unknown operation named "${request.operationName}".` : "Must provide operation name if query contains multiple operations.";
            throw edgeError("OPERATION_RESOLUTION_FAILURE", message, { http: true });
          }
          if (operation.operation === "subscription") {
            throw edgeError("BAD_REQUEST", "Subscriptions are served over graphql-ws on this path (WebSocket), not over HTTP", { http: true });
          }
        },
      };
    },
  };
}
