import type { ServiceMetrics } from "../core/metrics.js";
import { registerMetricsRoute, type MetricsAccess } from "./metrics-route.js";
import formbody from "@fastify/formbody";
import helmet from "helmet";
import underPressure from "@fastify/under-pressure";
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from "fastify";
import type { Config } from "../core/config.js";
import { EDGE_REFUSALS, edgeRefusalBody, type EdgeRefusalBody, type EdgeRefusalName } from "../core/edge-refusals.js";
import type { Logger } from "../core/logger.js";
import { redactUrl, requestIdFor } from "../core/logger.js";
import { clientErrorHandler, RestError, restRefusal, sendError } from "../rest-compat/error-body.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../core/input-text.js";
import { activeTracer } from "../core/tracing.js";
import { graphqlRefusal } from "./api-access.js";
import { ConnectionGuard, RETRY_AFTER_SECONDS } from "./connection-guard.js";
import { nameRequestSpan, tracedRequests, type IncomingTraceContext } from "./http-tracing.js";
import { routeSchemaCompilers } from "./route-schema-compilers.js";

/** The refusals a 4xx of Fastify's or a plugin's is answered as, by their status. */
const FRAMEWORK_REFUSALS = new Map<number, EdgeRefusalName>(
  (["BAD_REQUEST", "UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "METHOD_NOT_ALLOWED", "NOT_ACCEPTABLE", "CONFLICT", "PAYLOAD_TOO_LARGE", "URI_TOO_LONG", "UNSUPPORTED_MEDIA_TYPE", "TOO_MANY_REQUESTS"] as const).map(
    (name) => [EDGE_REFUSALS[name].status, name],
  ),
);

/** A 4xx of Fastify's: its refusal, or BAD_REQUEST with the status Fastify gave. */
const frameworkRefusal = (status: number, message: string): EdgeRefusalBody => ({ ...edgeRefusalBody(FRAMEWORK_REFUSALS.get(status) ?? "BAD_REQUEST", message), status });

declare module "fastify" {
  interface FastifyInstance {
    /** The server's timeouts, connection caps and stop (server/connection-guard.ts). */
    connections: ConnectionGuard;
  }
}

/** How often the event loop's delay is sampled for load shedding. */
const SHED_SAMPLE_MS = 1000;

/** Answered whatever the load, so that probes and scrapes see a busy process as it is. */
const NEVER_SHED = new Set(["/health/live", "/health/ready", "/metrics"]);

interface HttpAppOptions {
  logger: Logger;
  readiness: () => Promise<boolean>;
  /** Config.trustProxy: whose forwarded headers set `request.ip` (throttling keys on it). */
  trustProxy: boolean | string;
  /** Config.http: timeouts, connection caps, load shedding. */
  http: Config["http"];
  /** Request timings, and GET /metrics when `metricsAccess` allows it. */
  metrics?: ServiceMetrics;
  metricsAccess?: MetricsAccess;
  /** With tracing on: whether a caller's traceparent is the parent of its request's span or only linked (the default). */
  incomingTraceContext?: IncomingTraceContext;
}

/**
 * The Fastify instance every role serves on: request ids that follow a request across
 * services, JSON-schema validation reporting every problem, and one error body for every path;
 * the server's timeouts and connection caps, and load shedding when the event loop falls behind.
 */
export async function createHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const tracer = activeTracer();
  const metrics = options.metrics;
  const guard = new ConnectionGuard(options.http, options.trustProxy, (reason) => metrics?.httpRefusals.inc({ reason }));
  const app = Fastify({
    // One server with or without tracing, so both get the same timeouts and caps.
    serverFactory: (handler) => guard.createServer(tracer ? tracedRequests(tracer, options.incomingTraceContext ?? "link", handler) : handler),
    loggerInstance: options.logger as FastifyBaseLogger,
    genReqId: requestIdFor,
    bodyLimit: 1024 * 1024,
    // While stopping, a request on an already open connection is still answered (below), not
    // refused with Fastify's own 503 body.
    return503OnClosing: false,
    trustProxy: options.trustProxy,
    ajv: { customOptions: { allErrors: true, coerceTypes: "array", useDefaults: true, removeAdditional: false } },
    schemaController: { compilersFactory: routeSchemaCompilers },
    // A path Fastify cannot route (bad percent-encoding, an overlong parameter) is refused before
    // any hook or the error handler runs: without this it would answer in Fastify's own body.
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      const message = error.code === "FST_ERR_BAD_URL" ? "The request path is not valid percent-encoded UTF-8" : status === 414 ? "A path segment is too long" : "The request is not valid";
      reply.header("x-request-id", request.id).header("x-content-type-options", "nosniff").header("cache-control", "no-store");
      return sendError(request, reply, frameworkRefusal(status, message));
    },
    // What Node's HTTP parser refuses before Fastify sees a request (an oversized head, a malformed one).
    clientErrorHandler,
  });

  app.decorate("connections", guard);
  const security = securityHeaders();
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id).headers(security);
    done();
  });
  if (tracer) app.addHook("onRequest", nameRequestSpan);
  if (options.http.loadShedEventLoopDelayMs > 0) await shedLoad(app, options.http.loadShedEventLoopDelayMs, guard, metrics);
  if (metrics) measureRequests(app, metrics, guard, options.metricsAccess);
  boundJsonNesting(app);
  closeConnectionsWhenStopping(app, guard);
  answerErrorsInOneBody(app);
  await app.register(formbody);
  addHealthRoutes(app, guard, options.readiness);
  return app;
}

/**
 * Refuses every request but the probes while the event loop falls behind by more than
 * `maxEventLoopDelay` milliseconds.
 */
async function shedLoad(app: FastifyInstance, maxEventLoopDelay: number, guard: ConnectionGuard, metrics: ServiceMetrics | undefined): Promise<void> {
  // The samples that cover start-up (modules compiling, the graph composed, all before the
  // port opens) say nothing of load: a sample covers the second before it, so the second one
  // after listening is the first to count.
  let listeningAt = Infinity;
  app.server.once("listening", () => (listeningAt = Date.now()));
  const shedding = () => Date.now() - listeningAt >= 2 * SHED_SAMPLE_MS + 500 && app.isUnderPressure();
  // @fastify/under-pressure samples the event loop's delay each second (the mean over its
  // turns, so one long pause is diluted and a loop that stays behind is not); past the
  // threshold every request but the probes is refused before any work is done for it.
  await app.register(underPressure, {
    maxEventLoopDelay,
    sampleInterval: SHED_SAMPLE_MS,
    // Answers and returns: Fastify runs nothing more for a request whose answer has been sent.
    pressureHandler: async (request, reply) => {
      if (NEVER_SHED.has(request.routeOptions.url ?? "") || !shedding()) return;
      metrics?.httpRefusals.inc({ reason: "event_loop_delay" });
      reply.header("retry-after", String(RETRY_AFTER_SECONDS)).header("cache-control", "no-store");
      const refusal = edgeRefusalBody("OVERLOADED", "The service is overloaded; retry shortly");
      if (request.routeOptions.url === "/graphql") graphqlRefusal(request, reply, refusal);
      else sendError(request, reply, refusal);
    },
  });
  guard.underPressure = shedding;
}

/** Connections held, each answer's duration, and GET /metrics where allowed. */
function measureRequests(app: FastifyInstance, metrics: ServiceMetrics, guard: ConnectionGuard, metricsAccess: MetricsAccess | undefined): void {
  metrics.gauge("activities_http_connections", "Client connections this process holds (WebSockets included), not counting those being refused", (set) => set(guard.stats().connections));
  app.addHook("onResponse", async (request, reply) => {
    // The route template, never the path: ids in paths would make a series per request.
    const route = request.routeOptions.url ?? "unmatched";
    metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  if (metricsAccess) registerMetricsRoute(app, metrics, metricsAccess);
}

/** Fastify's own JSON parser (prototype poisoning refused), and a bound on nesting before any code walks the value. */
function boundJsonNesting(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "ignore");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) =>
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error) return done(error);
      if (nestsDeeperThan(value)) return done(restRefusal("BAD_REQUEST", `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`));
      done(null, value);
    }),
  );
}

function closeConnectionsWhenStopping(app: FastifyInstance, guard: ConnectionGuard): void {
  // Once a stop begins, every answer closes its connection, so clients reconnect to a replica
  // that is not stopping and the drain ends with the requests in flight. Connections with no
  // request being answered are cut as the port closes: waiting for an idle or slow one would
  // only spend the grace.
  app.addHook("preClose", async () => guard.closing());
  // An answer sent before its request has arrived whole (a 401 before a slow body) closes the
  // connection too: the rest of the body is not waited for.
  app.addHook("onSend", async (request, reply) => {
    if (guard.stopping || !request.raw.complete) reply.header("connection", "close");
  });
}

/** Every failure and unknown path answered in the one error body, every validation problem named. */
function answerErrorsInOneBody(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof RestError) {
      if (error.throttle) reply.header("retry-after", String(error.throttle.retryAfterSeconds));
      return sendError(request, reply, { status: error.status, code: error.code, message: error.message, details: error.details, errorCode: error.errorCode, reason: error.throttle?.reason });
    }
    if (error.validation) {
      const details = error.validation.map((problem) => ({
        field: fieldOf(error.validationContext, problem.instancePath, problem.params),
        rule: problem.keyword,
        message: problem.message ?? "is not valid",
      }));
      return sendError(request, reply, edgeRefusalBody("VALIDATION_FAILED", "The request is not valid", details));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(request, reply, frameworkRefusal(status, error.message));
    }
    request.log.error({ err: error }, "unhandled error");
    return sendError(request, reply, edgeRefusalBody("INTERNAL_SERVER_ERROR", "Internal server error"));
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, edgeRefusalBody("NOT_FOUND", `No route ${request.method} ${redactUrl(request.url.split("?")[0])}`)),
  );
}

function addHealthRoutes(app: FastifyInstance, guard: ConnectionGuard, readiness: () => Promise<boolean>): void {
  app.get("/health/live", { config: { public: true }, schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/health/ready", { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    if (guard.stopping) return reply.code(503).send({ status: "stopping" });
    const ready = await readiness().catch(() => false);
    return reply.code(ready ? 200 : 503).send({ status: ready ? "ready" : "not ready" });
  });
}

/**
 * helmet's headers (nosniff, frame and referrer protection, …) for every answer. Answers are JSON,
 * so the policy allows nothing; HTML pages (the console, the password page) set their own. The
 * headers are the same for every request, so helmet runs once here: @fastify/helmet rebuilt
 * helmet's middleware, policy parsing included, on every request.
 */
function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet({ contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] } } })(
    {} as never,
    response as never,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return headers;
}

/** The offending field as the subgraph validators name it: `geoLocation.latitude`, `galleryImage[0].url`, `pageNumber`. */
function fieldOf(_context: string | undefined, instancePath: string, params: Record<string, unknown>): string {
  const path = instancePath
    .split("/")
    .filter(Boolean)
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`))
    .join("")
    .replace(/^\./, "");
  const missing = typeof params.missingProperty === "string" ? params.missingProperty : undefined;
  const extra = typeof params.additionalProperty === "string" ? params.additionalProperty : undefined;
  return [path, missing ?? extra].filter(Boolean).join(".");
}
