import { execSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const CLOCK_TICKS = Number(execSync("getconf CLK_TCK").toString().trim()) || 100;

interface ProcessStat {
  pid: number;
  parent: number;
  command: string;
  /** utime + stime, ms. */
  cpuMs: number;
}

/** /proc/<pid>/stat of one process, or undefined once it has gone. */
function statOf(pid: number): ProcessStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = text.lastIndexOf(")");
    const fields = text.slice(close + 2).split(" ");
    return { pid, parent: Number(fields[1]), command: text.slice(text.indexOf("(") + 1, close), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS };
  } catch {
    return undefined;
  }
}

/** CPU time of a process in ms (utime + stime), 0 once it has gone. */
export const processCpuMs = (pid: number): number => statOf(pid)?.cpuMs ?? 0;

function everyProcess(): ProcessStat[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => statOf(Number(name)) ?? []);
}

/** CPU time, ms, of a process and all its descendants alive now (a service and its cluster workers). */
export function treeCpuMs(root: number): number {
  const all = everyProcess();
  const inTree = new Set([root]);
  // Parents come before their children in no guaranteed order: repeat until nothing joins.
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (inTree.has(p.pid) || !inTree.has(p.parent)) continue;
      inTree.add(p.pid);
      grew = true;
    }
  }
  return all.filter((p) => inTree.has(p.pid)).reduce((sum, p) => sum + p.cpuMs, 0);
}

/** CPU time, ms, of every PostgreSQL server process on this machine (backends, walwriter, autovacuum…). */
export const postgresCpuMs = (): number => everyProcess().filter((p) => p.command === "postgres").reduce((sum, p) => sum + p.cpuMs, 0);
