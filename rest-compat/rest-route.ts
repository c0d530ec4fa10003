import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from "fastify";
import type { EdgeContext } from "../gateway/edge-context.js";
import type { EdgeGraph } from "../gateway/gateway.js";
import { RestError } from "./error-body.js";
import { restErrorFrom } from "./graphql-errors.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the REST layer's authentication hook for every protected route. */
    edgeContext?: EdgeContext;
  }
  interface FastifyContextConfig {
    /** Reachable without a bearer token. */
    public?: boolean;
  }
}

export interface RestRoute<TData> {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  schema: FastifySchema & { summary: string; tags: string[]; description?: string };
  /** The one GraphQL operation the route runs on the gateway. */
  operation: string;
  variables?: (request: FastifyRequest) => Record<string, unknown>;
  /** GraphQL error codes this path answers with another status than the default mapping. */
  statusOverrides?: Record<string, number>;
  /** Shapes the documented body from the operation's data; may set the status on `reply`. */
  respond: (data: TData, request: FastifyRequest, reply: FastifyReply) => unknown;
}

const errorReference = (description: string) => ({ description, $ref: "ErrorBody#" });
/** Every REST path can answer these; a route's own schema adds or overrides statuses. */
const documentedErrors = {
  400: errorReference("Bad request or validation failure"),
  401: errorReference("No valid bearer token"),
  403: errorReference("Authenticated but not permitted"),
  500: errorReference("Internal server error"),
};

/**
 * Registers one documented REST path: input validated by its JSON schema (which also feeds the
 * OpenAPI document), one operation on the gateway, errors mapped to the REST error body. No
 * domain rule lives here.
 */
export function registerRestRoute<TData>(app: FastifyInstance, graph: EdgeGraph, route: RestRoute<TData>): void {
  app.route({
    method: route.method,
    url: route.url,
    schema: {
      security: [{ bearerAuth: [] }, { oauth2Password: [] }],
      ...route.schema,
      response: { ...documentedErrors, ...(route.schema.response as object) },
    },
    handler: async (request, reply) => {
      const context = request.edgeContext;
      if (!context) throw new RestError(401, "UNAUTHENTICATED", "A valid bearer access token is required");
      const result = await graph.execute<TData>({ query: route.operation, variables: route.variables?.(request) ?? {} }, context);
      if (result.errors?.length) throw restErrorFrom(result.errors, route.statusOverrides);
      if (!result.data) throw new RestError(500, "INTERNAL_SERVER_ERROR", "Internal server error");
      return route.respond(result.data, request, reply);
    },
  });
}

/** The {pageNumber, resultsPerPage, totalResults, items} page the list operations answer with. */
export interface PageOf<T> {
  pageNumber: number;
  resultsPerPage: number;
  totalResults: number;
  items: T[];
}
