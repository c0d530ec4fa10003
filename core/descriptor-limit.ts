import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * The soft RLIMIT_NOFILE of this process: how many descriptors it may hold at once (sockets,
 * files, database connections). Node raises the soft limit to the hard one as it starts, so this
 * is the number in force. Read from /proc on Linux, else from `ulimit -n` in a child shell (which
 * inherits the limit); undefined when neither says (no limit, or no way to ask).
 */
export function descriptorLimit(): number | undefined {
  try {
    return parseProcLimits(readFileSync("/proc/self/limits", "utf8"));
  } catch {
    // No /proc (macOS, a container without it): ask a shell.
  }
  try {
    const said = execFileSync("/bin/sh", ["-c", "ulimit -n"], { encoding: "utf8", timeout: 5000, stdio: ["ignore", "pipe", "ignore"] }).trim();
    return /^\d+$/.test(said) ? Number(said) : undefined;
  } catch {
    return undefined;
  }
}

/** The soft limit of `Max open files` in /proc/<pid>/limits; undefined when unlimited or absent. */
export function parseProcLimits(text: string): number | undefined {
  const line = text.split("\n").find((row) => row.startsWith("Max open files"));
  const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
  return soft && /^\d+$/.test(soft) ? Number(soft) : undefined;
}

/**
 * Descriptors kept back from client connections: the database's pools (up to 2 × 100 + 1 on
 * PostgreSQL), files (modules, the embedded database, logs), outbound calls (suppliers, webhooks,
 * a gateway's fetches to its subgraphs) and the connections being refused. A tenth of the limit,
 * 256 at least.
 */
export function reservedDescriptors(limit: number): number {
  return Math.max(256, Math.ceil(limit / 10));
}
