import { appendFileSync, readFileSync } from "node:fs";

/**
 * Where a file's time goes, for the CI time's evidence (docs/performance.md): with
 * TEST_TIME_REPORT set to a file, each test file appends its wall time, the CPU its worker spent
 * and the CPU of the child processes it started and waited for, in seconds, tab-separated.
 * The children's CPU is what the kernel counts for a process's reaped children (/proc/self/stat).
 */
export function reportFileTimes(report: string | undefined, hooks: { beforeAll(fn: () => void): void; afterAll(fn: () => void): void }, fileOf: () => string | undefined): void {
  if (!report) return;
  let start = { wall: 0, own: 0, children: 0 };
  hooks.beforeAll(() => {
    start = { wall: Date.now(), ...cpuSeconds() };
  });
  hooks.afterAll(() => {
    const now = cpuSeconds();
    const columns = [(Date.now() - start.wall) / 1000, now.own - start.own, now.children - start.children].map((seconds) => seconds.toFixed(1));
    appendFileSync(report, `${columns.join("\t")}\t${fileOf()}\n`);
  });
}

function cpuSeconds(): { own: number; children: number } {
  // After the command's closing parenthesis: utime, stime, cutime and cstime are fields 14–17.
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  const tick = 100;
  return { own: (Number(fields[11]) + Number(fields[12])) / tick, children: (Number(fields[13]) + Number(fields[14])) / tick };
}
