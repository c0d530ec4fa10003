import type { IncomingMessage, RequestListener } from "node:http";
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Link, type Span, type Tracer } from "@opentelemetry/api";
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PEER_ADDRESS,
  ATTR_NETWORK_PEER_PORT,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from "@opentelemetry/semantic-conventions";
import type { FastifyRequest } from "fastify";
import type { TLSSocket } from "node:tls";
import { serverQueryAttributes } from "../core/http-span-attributes.js";

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
 * Fastify's request handler, with each request in a span of its own from the moment it arrives:
 * the span is the active context of everything Fastify then does for it (hooks, body parsing, the
 * handler), and ends when the answer has gone, named by method and route template, with the
 * status. The server around it is the same as without tracing (server/connection-guard.ts).
 */
export function tracedRequests(tracer: Tracer, incoming: IncomingTraceContext, handler: RequestListener): RequestListener {
  return (request, response) => {
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
          [ATTR_URL_PATH]: (request.url ?? "/").split("?")[0],
          // Secret values (the password-setup page's token) redacted.
          ...serverQueryAttributes(request.url ?? ""),
          // What the socket says; the onRequest hook corrects them from a trusted proxy's headers.
          [ATTR_URL_SCHEME]: (request.socket as TLSSocket).encrypted ? "https" : "http",
          ...hostAttributes(request.headers.host),
          ...(request.socket.remoteAddress ? { [ATTR_CLIENT_ADDRESS]: request.socket.remoteAddress, [ATTR_NETWORK_PEER_ADDRESS]: request.socket.remoteAddress } : {}),
          ...(request.socket.remotePort ? { [ATTR_NETWORK_PEER_PORT]: request.socket.remotePort } : {}),
          [ATTR_NETWORK_PROTOCOL_VERSION]: request.httpVersion,
          ...(request.headers["user-agent"] ? { [ATTR_USER_AGENT_ORIGINAL]: request.headers["user-agent"].slice(0, 512) } : {}),
          ...(typeof callerRequestId === "string" ? { "http.request.header.x-request-id": [callerRequestId.slice(0, 128)] } : {}),
        },
      },
      parent,
    );
    spans.set(request, span);
    response.once("close", () => {
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, response.statusCode);
      if (response.statusCode >= 500) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute(ATTR_ERROR_TYPE, String(response.statusCode));
      } else if (!response.writableFinished) {
        // The client went away before the answer was written.
        span.setAttribute(ATTR_ERROR_TYPE, "aborted");
      }
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
  };
}

/** server.address and server.port from a Host header ("example.com:8443", "[::1]:4000"). */
function hostAttributes(host: string | undefined): Record<string, string | number> {
  if (!host) return {};
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
  if (!match) return {};
  return { [ATTR_SERVER_ADDRESS]: match[1].replace(/^\[|\]$/g, "").slice(0, 255), ...(match[2] ? { [ATTR_SERVER_PORT]: Number(match[2]) } : {}) };
}

/**
 * Once Fastify has the request (an onRequest hook): the span is named by its route template, and
 * the scheme, host and client address become what Fastify makes of them, which is what a proxy
 * TRUST_PROXY names forwarded (X-Forwarded-Proto, -Host, -For), the socket's otherwise.
 */
export async function nameRequestSpan(request: FastifyRequest): Promise<void> {
  const span = spans.get(request.raw);
  if (!span) return;
  span.setAttribute(ATTR_URL_SCHEME, request.protocol);
  span.setAttribute(ATTR_CLIENT_ADDRESS, request.ip);
  span.setAttributes(hostAttributes(request.host));
  const route = request.routeOptions.url;
  if (!route) return;
  span.updateName(`${request.method} ${route}`);
  span.setAttribute(ATTR_HTTP_ROUTE, route);
}
