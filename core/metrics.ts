import { randomUUID } from "node:crypto";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** Names this process signs the events it publishes with, so it counts its own once they commit. */
export const PROCESS_ORIGIN = randomUUID();

/** Seconds: from a fast cached read to a slow import page. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * A label a caller chooses (a GraphQL operation name) must not grow the series without end: names
 * that are not plain identifiers, and any beyond the first `max` seen, count as "other".
 */
export class BoundedLabel {
  private readonly seen = new Set<string>();
  constructor(private readonly max: number) {}

  of(value: string | null | undefined): string {
    if (!value) return "anonymous";
    if (this.seen.has(value)) return value;
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(value) || this.seen.size >= this.max) return "other";
    this.seen.add(value);
    return value;
  }
}

/**
 * The service's Prometheus metrics, one registry per service (tests run several in a process).
 * Served at /metrics (server/metrics-route.ts); docs/operations.md says which queries answer
 * "is it healthy?".
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly operationNames = new BoundedLabel(200);

  readonly httpDuration = this.histogram("activities_http_request_duration_seconds", "HTTP requests by method, route template (unmatched for 404s) and status", ["method", "route", "status"] as const);

  readonly graphqlDuration = this.histogram("activities_graphql_operation_duration_seconds", "GraphQL operations at the gateway (REST paths included) by operation name, type and outcome", ["operation", "type", "outcome"] as const);

  readonly subgraphFetchDuration = this.histogram("activities_graphql_subgraph_fetch_duration_seconds", "Fetches the gateway makes to each subgraph, by outcome", ["subgraph", "outcome"] as const);

  readonly bookingTransitions = new Counter({
    name: "activities_booking_transitions_total",
    help: "Booking status changes committed by this process, by the status entered",
    labelNames: ["status"] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: "activities_webhook_deliveries_total",
    help: "Webhook delivery attempts by outcome: delivered, retried (to be tried again) or failed (out of retries)",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });

  readonly httpRefusals = new Counter({
    name: "activities_http_refusals_total",
    help: "Connections, requests and WebSocket upgrades refused with 503, by reason: per_client (a client address's cap), max_connections (the process's cap), event_loop_delay (load shed), stopping",
    labelNames: ["reason"] as const,
    registers: [this.registry],
  });

  readonly engineCalls = this.histogram("activities_engine_call_duration_seconds", "Calls to supplier systems (OCTO engines) by engine, path template and outcome", ["engine", "path", "outcome"] as const);

  private histogram<T extends string>(name: string, help: string, labelNames: readonly T[]): Histogram<T> {
    return new Histogram({ name, help, labelNames, buckets: LATENCY_BUCKETS, registers: [this.registry] });
  }

  constructor() {
    this.registry.setDefaultLabels({ pid: String(process.pid) });
    // Event-loop lag, heap, GC, handles, CPU: prefixed like ours.
    collectDefaultMetrics({ register: this.registry, prefix: "activities_" });
    // prom-client's totals of active handles, requests and resources are gauges named like
    // counters (promtool refuses a _total gauge); each is the sum of the gauge by type beside it.
    for (const kind of ["handles", "requests", "resources"]) this.registry.removeSingleMetric(`activities_nodejs_active_${kind}_total`);
  }

  /** A gauge read when scraped (queue depth, open sockets). */
  gauge(name: string, help: string, collect: (set: (value: number, labels?: Record<string, string>) => void) => Promise<void> | void, labelNames: string[] = []): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        await collect((value, labels) => (labels ? this.set(labels, value) : this.set(value)));
      },
    });
  }
}
