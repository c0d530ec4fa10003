import http from "node:http";
import { serveOneJob } from "../child-job.js";

/**
 * The noisy-neighbour benchmark's victim, in a process of its own so that the attack's client work
 * never delays its clock: another account, from another client address (a second loopback
 * address), asking at a steady pace and timing every answer.
 */
export interface VictimJob {
  base: string;
  /** What the victim does: a search page with its token, or a sign-in of its own account. */
  kind: "search" | "sign-in";
  token?: string;
  username?: string;
  password?: string;
  tokenPath?: string;
  /** The client address it connects from (127.0.0.2: not the attacker's). */
  localAddress: string;
  seconds: number;
  /** Requests started a second, whatever the answers' pace (an open loop, so a stall shows as latency). */
  rate: number;
}

export interface VictimResult {
  latencies: number[];
  statuses: Record<string, number>;
  /** Requests still unanswered when the run ended, counted as failures. */
  unanswered: number;
}

const SEARCH = "/api/consumer/products?Search=title%3Amuseum&resultsPerPage=20";

function once(job: VictimJob, agent: http.Agent): Promise<{ status: string; ms: number }> {
  const started = performance.now();
  const url = new URL(job.kind === "search" ? SEARCH : job.tokenPath!, job.base);
  const body =
    job.kind === "sign-in" ? new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username: job.username!, password: job.password! }).toString() : undefined;
  return new Promise((resolve) => {
    const request = http.request(
      url,
      {
        method: body ? "POST" : "GET",
        agent,
        headers: {
          ...(job.token ? { authorization: `Bearer ${job.token}` } : {}),
          ...(body ? { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) } : {}),
        },
        timeout: 60_000,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: String(response.statusCode), ms: performance.now() - started }));
        response.on("error", () => resolve({ status: "error", ms: performance.now() - started }));
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", (error: NodeJS.ErrnoException) => resolve({ status: error.code ?? "error", ms: performance.now() - started }));
    request.end(body);
  });
}

export async function runVictim(job: VictimJob): Promise<VictimResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16, localAddress: job.localAddress });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const pending = new Set<Promise<unknown>>();
  const interval = 1000 / job.rate;
  const end = performance.now() + job.seconds * 1000;
  for (let next = performance.now(); next < end; next += interval) {
    const wait = next - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const request = once(job, agent).then(({ status, ms }) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === "200") latencies.push(ms);
      pending.delete(request);
    });
    pending.add(request);
  }
  // What is still in flight a few seconds after the window is counted, unanswered if it never is.
  await Promise.race([Promise.all(pending), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  agent.destroy();
  return { latencies, statuses, unanswered: pending.size };
}

serveOneJob(import.meta.url, runVictim);
