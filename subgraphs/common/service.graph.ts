import { SpanKind } from "@opentelemetry/api";
import type { GatewayCredential, GraphService } from "../../identity/gateway-credential.js";
import { inSpan, traceHeaders } from "../../core/tracing.js";
import { SERVICE_CREDENTIAL_HEADER } from "../../identity/gateway-credential.js";
import type { SubgraphName } from "../subgraph.names.js";
import type { RunningSubgraph } from "./subgraph.running.js";

/**
 * How one subgraph's service code reads what another owns: an operation on that subgraph in the
 * service's own name, never a query on its tables. Errors are the caller's 5xx: the facts it needs
 * are missing, and no answer is better than one built without them.
 */
export interface ServiceGraph {
  request<T>(subgraph: SubgraphName, query: string, variables?: Record<string, unknown>, options?: RequestOptions): Promise<T>;
}

export interface RequestOptions {
  /** "null": entities the subgraph does not know (NOT_FOUND) come back as null instead of failing the call. */
  missing?: "fail" | "null";
  /** Over HTTP: how long to wait (default 10 s); a content import waits longer. */
  timeoutMs?: number;
}

/** A service's graph calls, by the name it signs them with. */
export type ServiceGraphs = (service: GraphService) => ServiceGraph;

export class ServiceGraphError extends Error {
  constructor(subgraph: SubgraphName, detail: string) {
    super(`${subgraph} subgraph call failed: ${detail}`);
    this.name = "ServiceGraphError";
  }
}

/** Waits no longer than a request to the gateway would for one subgraph fetch. */
const REMOTE_TIMEOUT_MS = 10_000;

interface GraphAnswer<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

function dataOf<T>(subgraph: SubgraphName, answer: GraphAnswer<T>, options: RequestOptions = {}): T {
  const failures = (answer.errors ?? []).filter((error) => options.missing !== "null" || error.extensions?.code !== "NOT_FOUND");
  if (failures.length || !answer.data) throw new ServiceGraphError(subgraph, failures.length ? failures.map((e) => e.message).join("; ") : "no data");
  return answer.data;
}

/** Subgraphs of this process, called through their own Apollo Servers (the same rules as over HTTP). */
export function inProcessServiceGraphs(subgraph: (name: SubgraphName) => RunningSubgraph | undefined): ServiceGraphs {
  return (service) => ({
    async request<T>(name: SubgraphName, query: string, variables?: Record<string, unknown>, options?: RequestOptions): Promise<T> {
      const target = subgraph(name);
      if (!target) throw new ServiceGraphError(name, "not running in this process");
      return inSpan(`subgraph ${name}`, { kind: SpanKind.INTERNAL, attributes: { "activities.subgraph": name, "activities.graph_service": service } }, async () => {
        return dataOf(name, (await target.executeInProcess({ query, variables }, target.createServiceContext(service))) as GraphAnswer<T>, options);
      });
    },
  });
}

/** Subgraphs run as their own roles, called over HTTP with a service credential. */
export function remoteServiceGraphs(urls: () => Partial<Record<SubgraphName, string>>, credential: GatewayCredential): ServiceGraphs {
  return (service) => ({
    async request<T>(name: SubgraphName, query: string, variables?: Record<string, unknown>, options?: RequestOptions): Promise<T> {
      const url = urls()[name];
      if (!url) throw new ServiceGraphError(name, `no address configured (${name.toUpperCase()}_URL)`);
      return inSpan(`subgraph ${name}`, { kind: SpanKind.CLIENT, attributes: { "activities.subgraph": name, "activities.graph_service": service } }, async () => {
        let response: Response;
        try {
          response = await fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json", [SERVICE_CREDENTIAL_HEADER]: credential.signService(service), ...traceHeaders() },
            body: JSON.stringify({ query, variables }),
            signal: AbortSignal.timeout(options?.timeoutMs ?? REMOTE_TIMEOUT_MS),
          });
        } catch (error) {
          throw new ServiceGraphError(name, error instanceof Error ? error.message : String(error));
        }
        if (!response.ok) throw new ServiceGraphError(name, `HTTP ${response.status}`);
        return dataOf(name, (await response.json()) as GraphAnswer<T>, options);
      });
    },
  });
}
