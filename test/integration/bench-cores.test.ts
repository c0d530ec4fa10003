import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { npmStartArguments, renderBookingCoresSection, renderCoresSection, runBookingCores, runCores } from "../../bench/cores/cores-core.js";
import { SEARCH_EXPRESSIONS } from "../../bench/paths/paths-core.js";
import { openOwnTestDatabase } from "../support/stack.js";

/**
 * `npm run bench:cores` is run on demand, not in CI: its core runs here once, on the demo
 * catalogue, for half a second a cell, so that it cannot rot. Each of its two runs is checked
 * once, each database taken by one of them: the search on the embedded database (one process),
 * the booking flows on PostgreSQL (two processes, WEB_CONCURRENCY=2), where the harness drives
 * a cluster. Timings mean nothing here.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
describe("bench:cores at a tiny scale", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-cores-test-"));
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    for (const drop of drops) await drop();
  });
  /** A database of the run's own on the suite's server (dropped afterwards). */
  const ownDatabaseUrl = async (): Promise<string | undefined> => {
    const own = await openOwnTestDatabase();
    await own.database.close();
    drops.push(own.drop);
    return own.url;
  };

  it("starts the service with npm start's own node arguments (V8 flags included)", () => {
    const args = npmStartArguments();
    expect(args.slice(-3)).toEqual(["--import", "tsx", "server/main.ts"]);
    expect(args).toContain("--max-semi-space-size=32");
  });

  if (!onPostgres) it("measures REST search through the started service, every cell answered, and renders its table", async () => {
    const processes = 1;
    const runs = await runCores({ dataDir, processes: [processes], concurrencies: [1, 2], seconds: 0.5 });
    expect(runs.map((run) => run.expression)).toEqual(SEARCH_EXPRESSIONS);
    for (const run of runs) {
      expect(run.processes).toBe(processes);
      for (const cell of run.cells) expect(cell, `${run.expression} c${cell.concurrency}`).toMatchObject({ failures: 0, requests: expect.any(Number) });
      expect(run.cells.every((cell) => cell.requests >= cell.concurrency && cell.rps > 0)).toBe(true);
      // The service did work for its pages (the tree of npm start's process), and its CPU is told per page.
      expect(run.cpuPerPage).toHaveLength(run.cells.length);
      expect(run.cpuPerPage.every((cpu) => cpu.service > 0 && Number.isFinite(cpu.postgres))).toBe(true);
    }
    const section = renderCoresSection(runs, { title: "Cores", machine: "test", date: "2026-11-23", commit: "abc", database: "x", products: 252, load: "0", seconds: 0.5 });
    expect(section).toContain(`| ${processes} | \`title:museum\` |`);
    expect(section).not.toContain("failures; first");
  }, 240_000);

  if (onPostgres) it("runs booking flows to CONFIRMED against the started service from a process of their own, and renders its table", async () => {
    const databaseUrl = await ownDatabaseUrl();
    const bookingDir = mkdtempSync(path.join(tmpdir(), "bench-cores-booking-test-"));
    try {
      const processes = 2;
      const runs = await runBookingCores({ databaseUrl, dataDir: bookingDir, processes: [processes], concurrencies: [1, 2], seconds: 1, warmUpFlows: 1 });
      expect(runs).toHaveLength(1);
      expect(runs[0].results.map((r) => r.lanes)).toEqual([1, 2]);
      for (const result of runs[0].results) {
        expect(result.flows).toBeGreaterThan(0);
        // Every flow ended with its subscription's CONFIRMED message, none by polling.
        expect(result.bySubscription).toBe(result.flows);
        expect(result.flowP50).toBeGreaterThan(0);
        expect(result.confirmP50).toBeGreaterThanOrEqual(0);
        // CPU is read from /proc around the timed flows: the service's tree and the driver did work.
        expect(result.cpuPerFlow.service).toBeGreaterThan(0);
        expect(result.cpuPerFlow.driver).toBeGreaterThan(0);
        expect(Number.isFinite(result.cpuPerFlow.postgres)).toBe(true);
      }
      const section = renderBookingCoresSection(runs, { machine: "test", date: "2026-11-25", commit: "abc", database: "x", load: "0", seconds: 1 });
      expect(section).toContain(`| ${processes} | 2 | ${runs[0].results[1].flows} |`);
    } finally {
      rmSync(bookingDir, { recursive: true, force: true });
    }
  }, 240_000);

  it("refuses more than one process on the embedded database", async () => {
    await expect(runCores({ dataDir, processes: [2], concurrencies: [1], seconds: 0.5 })).rejects.toThrow(/needs DATABASE_URL/);
  });
});
