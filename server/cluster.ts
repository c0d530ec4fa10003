import cluster, { type Worker } from "node:cluster";
import type { Config } from "../core/config.js";
import { serveClusterMetrics } from "./cluster-metrics.js";

/** A process that keeps failing is not restarted forever: this many exits within the window stop the service. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

/** What the primary knows of its serving processes. */
interface Primary {
  config: Config;
  processes: Map<number, Worker>;
  /** When processes exited unasked, within the restart window. */
  restarts: number[];
  /** Why every process is being stopped, once they are. */
  stopping?: string;
  failed: boolean;
  /** Whether the service ever listened: until then a failing first process is a failed start. */
  served: boolean;
}

/**
 * The primary of WEB_CONCURRENCY > 1 (PostgreSQL only): it serves nothing itself. Node's cluster
 * hands the port's connections to the serving processes in turn. The first process starts alone,
 * so that it alone migrates, seeds the demo data, prints the start-up lines and runs the worker
 * loops; the others follow once it listens. A signal stops them all, each draining its requests;
 * the primary exits 0 only if every process did.
 */
export function runPrimary(config: Config): void {
  const primary: Primary = { config, processes: new Map(), restarts: [], failed: false, served: false };
  process.on("SIGTERM", () => stopAll(primary, "SIGTERM"));
  process.on("SIGINT", () => stopAll(primary, "SIGINT"));
  serveClusterMetrics();
  console.log(`activities service starting: ${config.webConcurrency} processes (WEB_CONCURRENCY), role ${config.role}`);
  fork(primary, 1);
}

function fork(primary: Primary, index: number): void {
  const first = index === 1;
  const worker = cluster.fork({ ...(first ? {} : { SEED_DEMO: "false", WORKER_LOOPS: "false" }), SERVICE_PROCESS_INDEX: String(index) });
  primary.processes.set(index, worker);
  worker.on("exit", (code, signal) => afterExit(primary, index, worker, code, signal));
  worker.on("listening", () => {
    primary.served = true;
    if (first) for (let next = 2; next <= primary.config.webConcurrency; next++) if (!primary.processes.has(next)) fork(primary, next);
  });
}

/** Ends the primary once the last process has stopped; otherwise restarts the process, unless it keeps failing. */
function afterExit(primary: Primary, index: number, worker: Worker, code: number, signal: string): void {
  const { processes, restarts } = primary;
  processes.delete(index);
  if (primary.stopping) {
    if (code !== 0) primary.failed = true;
    if (processes.size === 0) process.exit(primary.failed ? 1 : 0);
    return;
  }
  const now = Date.now();
  restarts.push(now);
  while (restarts.length && restarts[0] < now - RESTART_WINDOW_MS) restarts.shift();
  if (!primary.served) {
    // The first process never came up (a wrong setting, an unreachable database): nothing to serve.
    console.error(`activities service: the first process exited before listening (${signal ?? `code ${code}`})`);
    stopAll(primary, "start-up failure");
    return;
  }
  if (restarts.length > MAX_RESTARTS) {
    console.error(`activities service: processes exited ${restarts.length} times within a minute; stopping`);
    stopAll(primary, "restart limit");
    return;
  }
  console.error(`activities service: process ${index} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); starting another`);
  setTimeout(() => primary.stopping || fork(primary, index), 1000).unref();
}

function stopAll(primary: Primary, reason: string): void {
  const { processes } = primary;
  if (primary.stopping) return;
  primary.stopping = reason;
  if (reason !== "SIGTERM" && reason !== "SIGINT") primary.failed = true;
  if (processes.size === 0) process.exit(primary.failed ? 1 : 0);
  for (const worker of processes.values()) worker.process.kill("SIGTERM");
  // Each process enforces SHUTDOWN_GRACE_SECONDS itself; this only catches one that hangs past it.
  setTimeout(() => {
    for (const worker of processes.values()) worker.process.kill("SIGKILL");
    process.exit(1);
  }, primary.config.shutdownGraceMs + 5000).unref();
}
