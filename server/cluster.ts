import cluster, { type Worker } from "node:cluster";
import type { Config } from "../core/config.js";
import { serveClusterMetrics } from "./cluster-metrics.js";

/** A process that keeps failing is not restarted forever: this many exits within the window stop the service. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

/**
 * The primary of WEB_CONCURRENCY > 1 (PostgreSQL only): it serves nothing itself. Node's cluster
 * hands the port's connections to the serving processes in turn. The first process starts alone,
 * so that it alone migrates, seeds the demo data, prints the start-up lines and runs the worker
 * loops; the others follow once it listens. A signal stops them all, each draining its requests;
 * the primary exits 0 only if every process did.
 */
export function runPrimary(config: Config): void {
  const processes = new Map<number, Worker>();
  const restarts: number[] = [];
  let stopping: string | undefined;
  let failed = false;
  /** Whether the service ever listened: until then a failing first process is a failed start. */
  let served = false;

  const fork = (index: number) => {
    const first = index === 1;
    const worker = cluster.fork({ ...(first ? {} : { SEED_DEMO: "false", WORKER_LOOPS: "false" }), SERVICE_PROCESS_INDEX: String(index) });
    processes.set(index, worker);
    worker.on("exit", (code, signal) => {
      processes.delete(index);
      if (stopping) {
        if (code !== 0) failed = true;
        if (processes.size === 0) process.exit(failed ? 1 : 0);
        return;
      }
      const now = Date.now();
      restarts.push(now);
      while (restarts.length && restarts[0] < now - RESTART_WINDOW_MS) restarts.shift();
      if (!served) {
        // The first process never came up (a wrong setting, an unreachable database): nothing to serve.
        console.error(`activities service: the first process exited before listening (${signal ?? `code ${code}`})`);
        stopAll("start-up failure");
        return;
      }
      if (restarts.length > MAX_RESTARTS) {
        console.error(`activities service: processes exited ${restarts.length} times within a minute; stopping`);
        stopAll("restart limit");
        return;
      }
      console.error(`activities service: process ${index} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); starting another`);
      setTimeout(() => stopping || fork(index), 1000).unref();
    });
    worker.on("listening", () => {
      served = true;
      if (first) for (let next = 2; next <= config.webConcurrency; next++) if (!processes.has(next)) fork(next);
    });
  };

  const stopAll = (reason: string) => {
    if (stopping) return;
    stopping = reason;
    if (reason !== "SIGTERM" && reason !== "SIGINT") failed = true;
    if (processes.size === 0) process.exit(failed ? 1 : 0);
    for (const worker of processes.values()) worker.process.kill("SIGTERM");
    // Each process enforces SHUTDOWN_GRACE_SECONDS itself; this only catches one that hangs past it.
    setTimeout(() => {
      for (const worker of processes.values()) worker.process.kill("SIGKILL");
      process.exit(1);
    }, config.shutdownGraceMs + 5000).unref();
  };
  process.on("SIGTERM", () => stopAll("SIGTERM"));
  process.on("SIGINT", () => stopAll("SIGINT"));

  serveClusterMetrics();
  console.log(`activities service starting: ${config.webConcurrency} processes (WEB_CONCURRENCY), role ${config.role}`);
  fork(1);
}
