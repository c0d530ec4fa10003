import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { ServiceMetrics } from "../core/metrics.js";
import { sendError } from "../rest-compat/error-body.js";

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
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (expected) {
      const given = Buffer.from(request.headers.authorization ?? "");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        reply.header("www-authenticate", 'Bearer realm="metrics"');
        return sendError(request, reply, { status: 401, code: "UNAUTHENTICATED", message: "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>" });
      }
    }
    reply.header("content-type", metrics.registry.contentType).header("cache-control", "no-store");
    return metrics.registry.metrics();
  });
}
