import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { fileURLToPath } from "node:url";

export interface ProfileRow {
  /** file:function:line, the file relative to the repository (packages as node_modules/<name>/…). */
  location: string;
  selfMs: number;
  /** Of the profile's busy time (idle excluded). */
  percent: number;
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  top: ProfileRow[];
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

const root = fileURLToPath(new URL("../..", import.meta.url));

function shortFile(url: string): string {
  if (!url) return "(native)";
  const path = url.startsWith("file://") ? fileURLToPath(url) : url;
  const modules = path.lastIndexOf("node_modules/");
  if (modules >= 0) return path.slice(modules);
  return path.startsWith(root) ? path.slice(root.length) : path;
}

/** Self time per function of a V8 CPU profile, the `top` heaviest first. */
export function summariseProfile(profile: CpuProfile, top = 15): ProfileSummary {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  // timeDeltas[i] is the time from sample i-1 to sample i: charged to sample i's function.
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const frame = byNode.get(id)!.callFrame;
    totalMs += ms;
    if (frame.functionName === "(idle)") {
      idleMs += ms;
      return;
    }
    const key = `${shortFile(frame.url)}:${frame.functionName || "(anonymous)"}${frame.url ? `:${frame.lineNumber + 1}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + ms);
  });
  const busy = totalMs - idleMs;
  return {
    totalMs,
    idleMs,
    top: [...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([location, selfMs]) => ({ location, selfMs, percent: busy > 0 ? (100 * selfMs) / busy : 0 })),
  };
}

/** A CPU profile of this process (node:inspector, 100 µs sampling) while `run` runs; the whole profile is written to `file` when given. */
export async function profileWhile(run: () => Promise<void>, file?: string): Promise<ProfileSummary> {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 100 });
    await session.post("Profiler.start");
    let profile: CpuProfile;
    try {
      await run();
    } finally {
      profile = (await session.post("Profiler.stop")).profile as unknown as CpuProfile;
    }
    if (file) writeFileSync(file, JSON.stringify(profile));
    return summariseProfile(profile);
  } finally {
    session.disconnect();
  }
}
