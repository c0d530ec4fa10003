import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { edgeRefusalBody } from "../core/edge-refusals.js";
import type { ServiceMetrics } from "../core/metrics.js";
import { sendError } from "../rest-compat/error-body.js";
import { clusterMetricsSource } from "./cluster-metrics.js";

/** Who may read /metrics: holders of METRICS_TOKEN, or anyone in the sandbox when it is unset. */
export interface MetricsAccess {
  token: string | undefined;
  /** No token configured: served to anyone (sandbox) or not at all (production). */
  openWithoutToken: boolean;
}

export const METRICS_PATH = "/metrics";

/** GET /metrics in Prometheus's text format. Not an API path: no account, no rate limit, not in the OpenAPI document. */
export function registerMetricsRoute(app: FastifyInstance, metrics: ServiceMetrics, access: MetricsAccess): void {
  if (!access.token && !access.openWithoutToken) return;
  const expected = access.token ? Buffer.from(`Bearer ${access.token}`) : undefined;
  // In a cluster, every process's series, whichever process takes the scrape.
  const read = clusterMetricsSource(metrics.registry) ?? (() => metrics.registry.metrics());
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (expected) {
      const given = Buffer.from(request.headers.authorization ?? "");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        reply.header("www-authenticate", 'Bearer realm="metrics"');
        return sendError(request, reply, edgeRefusalBody("UNAUTHENTICATED", "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>"));
      }
    }
    let text: string;
    try {
      text = await read();
    } catch (error) {
      request.log.warn({ err: error }, "metrics not gathered");
      return sendError(request, reply, edgeRefusalBody("SERVICE_UNAVAILABLE", (error as Error).message));
    }
    reply.header("content-type", metrics.registry.contentType).header("cache-control", "no-store");
    return text;
  });
}
