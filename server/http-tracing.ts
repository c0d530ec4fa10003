import { createServer, type IncomingMessage, type Server, type ServerOptions } from "node:http";
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Link, type Span, type Tracer } from "@opentelemetry/api";
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE, ATTR_URL_PATH } from "@opentelemetry/semantic-conventions";
import type { FastifyRequest, FastifyServerFactory } from "fastify";

/**
 * What a process does with a traceparent it is sent. `continue`: its span is the parent (the
 * subgraph roles, which only the gateway and other subgraphs' service code reach). `link`: a new
 * trace, the caller's span kept as a link (the public edge: a caller must not choose our trace
 * ids, which become request ids, nor whether we record its requests).
 */
export type IncomingTraceContext = "continue" | "link";

/** Probes and scrapes: an orchestrator's every few seconds would bury the requests worth a trace. */
const UNTRACED = /^\/(?:health\/(?:live|ready)|metrics)(?:[?#]|$)/;

const spans = new WeakMap<IncomingMessage, Span>();

/**
 * Fastify's server, with each request in a span of its own from the moment it arrives: the span is
 * the active context of everything Fastify then does for it (hooks, body parsing, the handler), and
 * ends when the answer has gone, named by method and route template, with the status.
 */
export function tracedServerFactory(tracer: Tracer, incoming: IncomingTraceContext): FastifyServerFactory {
  return (handler, options) => {
    const server: Server = createServer((options.http ?? {}) as ServerOptions, (request, response) => {
      if (UNTRACED.test(request.url ?? "")) return handler(request, response);
      const extracted = propagation.extract(ROOT_CONTEXT, request.headers);
      const sent = trace.getSpanContext(extracted);
      const parent = incoming === "continue" ? extracted : ROOT_CONTEXT;
      const links: Link[] = incoming === "link" && sent && trace.isSpanContextValid(sent) ? [{ context: sent }] : [];
      const method = request.method ?? "GET";
      const callerRequestId = request.headers["x-request-id"];
      const span = tracer.startSpan(
        method,
        {
          kind: SpanKind.SERVER,
          links,
          attributes: {
            [ATTR_HTTP_REQUEST_METHOD]: method,
            // Never the query string: password-setup links carry their token there.
            [ATTR_URL_PATH]: (request.url ?? "/").split("?")[0],
            ...(typeof callerRequestId === "string" ? { "http.request.header.x-request-id": [callerRequestId.slice(0, 128)] } : {}),
          },
        },
        parent,
      );
      spans.set(request, span);
      response.once("close", () => {
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, response.statusCode);
        if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
      const active = trace.setSpan(parent, span);
      context.with(active, () => {
        // Body chunks and the answer's events come from the socket, outside this call: bound to
        // the request's context, what they set off (parsing, the handler, the completed-request
        // log line) still runs in its span.
        context.bind(active, request);
        context.bind(active, response);
        handler(request, response);
      });
    });
    // What Fastify sets on the server it makes itself.
    server.keepAliveTimeout = options.keepAliveTimeout as number;
    server.requestTimeout = options.requestTimeout as number;
    server.setTimeout(options.connectionTimeout as number);
    const perSocket = options.maxRequestsPerSocket as number | null | undefined;
    if (perSocket && perSocket > 0) server.maxRequestsPerSocket = perSocket;
    return server;
  };
}

/** Names the request's span by its route template once Fastify has routed it (an onRequest hook). */
export async function nameRequestSpan(request: FastifyRequest): Promise<void> {
  const span = spans.get(request.raw);
  const route = request.routeOptions.url;
  if (!span || !route) return;
  span.updateName(`${request.method} ${route}`);
  span.setAttribute(ATTR_HTTP_ROUTE, route);
}
