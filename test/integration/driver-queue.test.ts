import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { driverRoot as installedDriverRoot, installedQueue, renderDriverQueueSection, runDriverQueueRounds } from "../../bench/driver-queue/driver-queue-core.js";

interface DriverQueue<T> {
  readonly length: number;
  readonly capacity?: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}
type QueueFactory = <T>(initial?: T[]) => DriverQueue<T>;

const require = createRequire(import.meta.url);
const driverRoot = installedDriverRoot();

/** Each build of the installed postgres.js: what `npm ci` left in node_modules, not our source. */
const builds: [string, () => Promise<QueueFactory>][] = [
  ["ESM (what the service imports)", async () => (await import(pathToFileURL(path.join(driverRoot, "src/queue.js")).href)).default],
  ["Cloudflare", async () => (await import(pathToFileURL(path.join(driverRoot, "cf/src/queue.js")).href)).default],
  ["CommonJS", async () => require(path.join(driverRoot, "cjs/src/queue.js"))],
];

describe.each(builds)("postgres.js's connection queue, %s build", (_, load) => {
  it("keeps its array bounded while it never runs empty, as the pool's idle connections do", async () => {
    const Queue = await load();
    // Ten connections, three of them always idle: each statement takes one and gives it back.
    const idle = Queue(["c1", "c2", "c3"]);
    for (let statement = 1; statement <= 100_000; statement++) {
      const connection = idle.shift()!;
      // The pool then moves the connection out of the queue it came from: a miss, searched.
      expect(idle.remove(connection)).toBeNull();
      idle.push(connection);
      if (statement % 1000 === 0) expect(idle.capacity).toBeLessThanOrEqual(2 * 3 + 64 + 1);
    }
    expect(idle.length).toBe(3);
    expect(idle.capacity).toBeLessThanOrEqual(2 * 3 + 64 + 1);
    expect([idle.shift(), idle.shift(), idle.shift()]).toEqual(["c2", "c3", "c1"]);
  });

  it("keeps the driver's order and its removals", async () => {
    const Queue = await load();
    const queue = Queue<number>();
    for (let n = 0; n < 200; n++) queue.push(n);
    for (let n = 0; n < 150; n++) expect(queue.shift()).toBe(n);
    expect(queue.remove(10)).toBeNull();
    expect(queue.remove(160)).toBe(160);
    expect(queue.length).toBe(49);
    const rest: number[] = [];
    while (queue.length) rest.push(queue.shift()!);
    expect(rest).toEqual(Array.from({ length: 50 }, (_, i) => 150 + i).filter((n) => n !== 160));
    queue.push(7);
    expect([queue.length, queue.shift(), queue.length]).toEqual([1, 7, 0]);
  });
});

describe("the install step", () => {
  const installer = fileURLToPath(new URL("../../drizzle/driver-queue/install.mjs", import.meta.url));
  const original = readFileSync(new URL("../../drizzle/driver-queue/install.mjs", import.meta.url), "utf8").match(/const ORIGINAL = `([\s\S]*?)`;/)![1];
  const bounded = readFileSync(new URL("../../drizzle/driver-queue/queue.js", import.meta.url), "utf8");
  const files = ["src/queue.js", "cf/src/queue.js", "cjs/src/queue.js"];

  function fakeDriver(queueText: string): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), "driver-queue-"));
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "postgres", version: "3.4.9" }));
    for (const file of files) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), file.startsWith("cjs") ? queueText.replace("export default Queue", "module.exports = Queue") : queueText);
    }
    return dir;
  }

  it("replaces postgres.js 3.4.9's queue in every build, and leaves it be when run again", () => {
    const dir = fakeDriver(original);
    try {
      for (let run = 0; run < 2; run++) {
        const result = spawnSync(process.execPath, [installer, dir], { encoding: "utf8" });
        expect(result.status).toBe(0);
        expect(result.stdout.includes("bounded queue written")).toBe(run === 0);
      }
      expect(readFileSync(path.join(dir, "src/queue.js"), "utf8")).toBe(bounded);
      expect(readFileSync(path.join(dir, "cjs/src/queue.js"), "utf8")).toBe(bounded.replace("export default Queue", "module.exports = Queue"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stops the install on a queue it does not know, and changes nothing", () => {
    const changed = original.replace("const index = xs.indexOf(x)", "const index = xs.lastIndexOf(x)");
    const dir = fakeDriver(changed);
    try {
      const result = spawnSync(process.execPath, [installer, dir], { encoding: "utf8" });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("is not postgres.js 3.4.9's queue");
      expect(readFileSync(path.join(dir, "src/queue.js"), "utf8")).toBe(changed);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// `npm run bench:driver-queue` is run on demand; its core runs here at a tiny scale so that it
// cannot rot. PostgreSQL only, as the bench: the queue belongs to postgres.js.
if (process.env.DATABASE_URL) {
  it("bench:driver-queue runs its rounds through a pool with idle connections and renders them", async () => {
    const rounds = await runDriverQueueRounds({ databaseUrl: process.env.DATABASE_URL!, rounds: 2, statements: 200, concurrency: 2, pool: 4 });
    expect(rounds.map((r) => [r.round, r.before])).toEqual([
      [1, 0],
      [2, 200],
    ]);
    expect(rounds.every((r) => r.ms > 0)).toBe(true);
    const section = renderDriverQueueSection(rounds, { machine: "m", date: "2026-11-26", commit: "abc", version: "PostgreSQL 15", queue: installedQueue(), statements: 200, concurrency: 2, pool: 4 });
    expect(section).toContain("| 2 | 200 |");
    expect(section).toContain("statements in a row: the bounded queue (drizzle/driver-queue)");
  });
}
