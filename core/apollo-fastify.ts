import { Readable } from "node:stream";
import { HeaderMap, type ApolloServer, type BaseContext, type HTTPGraphQLRequest } from "@apollo/server";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";

/** Answers a POST itself instead of Apollo Server (the edge's admitted texts), or returns undefined to leave it to Apollo Server. */
export type DirectAnswer = (request: FastifyRequest) => Promise<{ status: number; headers: Map<string, string>; body: string } | undefined>;

/**
 * Serves an Apollo Server on a Fastify route. Small enough to own, so Fastify and Apollo Server
 * can be upgraded independently of an integration package.
 */
export function mountApollo<TContext extends BaseContext>(
  app: FastifyInstance,
  path: string,
  server: ApolloServer<TContext>,
  context: (request: FastifyRequest) => Promise<TContext>,
  options: { routeOptions?: Partial<RouteOptions>; direct?: DirectAnswer } = {},
): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const answer = request.method === "POST" ? await options.direct?.(request) : undefined;
    if (answer) {
      for (const [name, value] of answer.headers) reply.header(name, value);
      return reply.code(answer.status).send(answer.body);
    }
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const httpGraphQLRequest: HTTPGraphQLRequest = {
      method: request.method.toUpperCase(),
      headers,
      search: new URL(request.url, "http://local").search,
      body: request.body,
    };
    const response = await server.executeHTTPGraphQLRequest({ httpGraphQLRequest, context: () => context(request) });
    for (const [name, value] of response.headers) reply.header(name, value);
    reply.code(response.status ?? 200);
    if (response.body.kind === "complete") return reply.send(response.body.string);
    // Incremental delivery (@defer): stream the chunks as they come.
    return reply.send(Readable.from(response.body.asyncIterator));
  };
  app.route({ ...options.routeOptions, method: ["GET", "POST"], url: path, handler, schema: { hide: true } });
}
