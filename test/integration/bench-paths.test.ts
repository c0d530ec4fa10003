import { executionAsyncId } from "node:async_hooks";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATHS, runPaths, slicesFor, type PathsResult } from "../../bench/paths/paths-core.js";
import { renderPathsSection } from "../../bench/paths/report.js";
import type { Database } from "../../drizzle/database.js";
import { suppliers } from "../../drizzle/schema.js";
import { cities } from "../../seed/catalogue-data.js";
import { insertProducts, productFor, randomSource } from "../../seed/catalogue.js";
import { bookingEngineRepository } from "../../subgraphs/catalogue/booking-engine/booking-engine.repository.js";
import { supplierValues } from "../../subgraphs/catalogue/supplier/supplier.rules.js";
import { openOwnTestDatabase, startStack, type Stack } from "../support/stack.js";
import { NO_ACCOUNT_LIMITS } from "../../bench/service-settings.js";

/**
 * `npm run bench:paths` is run on demand, not in CI: its core runs here at a tiny scale (72
 * products of `npm run seed`'s generator, one or two requests per cell) so that it cannot rot.
 * Only the shape of the result is checked; timings mean nothing at this scale. It runs with the
 * PostgreSQL run only (vitest.config.ts), where the documented runs are measured.
 */
const PRODUCTS = 72;
describe("bench:paths at a tiny scale", () => {
  let own: Awaited<ReturnType<typeof openOwnTestDatabase>>;
  let database: Database;
  let stack: Stack;
  let result: PathsResult;
  const logged: string[] = [];

  beforeAll(async () => {
    own = await openOwnTestDatabase();
    database = own.database;
    stack = await startStack({ database, env: { WORKER_LOOPS: "false", ...NO_ACCOUNT_LIMITS } });
    // Every template of the generator twice, so that each search expression has matches.
    const { engine } = await bookingEngineRepository.ensure(database.db, "BENCHMARK_ENGINE");
    const [supplier] = await database.db
      .insert(suppliers)
      .values(supplierValues({ externalId: "GEN-TEST-0", country: "FR", name: "Generated supplier", channel: "generator" }, engine.id))
      .returning();
    const random = randomSource(1);
    const requests = Array.from({ length: PRODUCTS }, (_, i) => productFor(i, cities[i % cities.length], random, "GEN-TEST-0"));
    await database.db.transaction((tx) => insertProducts(tx, supplier, requests, new Date()));
    result = await runPaths({
      service: stack.service,
      database,
      databaseUrl: own.url,
      concurrencies: [1, 2],
      seconds: 1,
      amount: 2,
      fresh: 1,
      rounds: 2,
      warmUpSeconds: 1,
      warmUpFresh: false,
      profileSeconds: 1,
      profileConcurrency: 2,
      poolSize: 4,
      log: (line) => logged.push(line),
    });
  }, 240_000);
  afterAll(async () => {
    await stack?.close();
    await database?.close();
    await own?.drop();
  });

  it("measures every scenario through every path, with finite positive numbers and no failed request", () => {
    const names = result.scenarios.map((s) => s.name);
    for (const expected of [
      "search `title:museum`",
      "search `taxonomy:activities-tours-walking-tours`",
      "search `title:tour AND countryCode:FR AND rating:>4`",
      "product read",
      "change detection (100)",
      "active import (1,000)",
      "report page (500)",
      "booking: dates (a week)",
      "booking: options (new availability)",
      "booking: set option",
      "booking: prices (GET)",
      "booking: set prices",
      "booking: create booking",
      "booking: questions",
      "booking: confirm",
      "booking: get booking",
    ])
      expect(names).toContain(expected);
    expect(result.liveProducts).toBeGreaterThanOrEqual(PRODUCTS);
    for (const scenario of result.scenarios) {
      expect(scenario.statements, scenario.name).toBeGreaterThan(0);
      expect(scenario.subgraphCalls, scenario.name).toBeGreaterThan(0);
      for (const path of PATHS) {
        const cells = scenario.paths[path];
        expect(cells.map((c) => c.concurrency), `${scenario.name} ${path}`).toEqual(scenario.fresh ? [1] : [1, 2]);
        for (const cell of cells) {
          expect(cell.failures, `${scenario.name} ${path} c${cell.concurrency}: ${cell.firstFailure}`).toBe(0);
          // Two rounds of two requests a read-only cell; a fresh step's one state is one round.
          expect(cell.requests).toBe(scenario.fresh ? 1 : 4);
          for (const value of [cell.rps, cell.p50, cell.p95, cell.p99, cell.seconds]) {
            expect(Number.isFinite(value), `${scenario.name} ${path}`).toBe(true);
            expect(value).toBeGreaterThan(0);
          }
        }
      }
    }
    expect(result.scenarios.filter((s) => s.fresh).map((s) => s.name)).toEqual(["booking: set option", "booking: set prices", "booking: create booking", "booking: questions", "booking: confirm"]);
  });

  it("measures a cell in rounds that take the paths in turn, each round starting with the next path", () => {
    const order = (round: number) => logged.filter((line) => line.startsWith("product read |") && line.includes(`| c1 | round ${round}/2 |`)).map((line) => line.split(" | ")[1]);
    expect(order(1)).toEqual(["REST", "gateway", "subgraph", "limit"]);
    expect(order(2)).toEqual(["gateway", "subgraph", "limit", "REST"]);
    const fresh = logged.filter((line) => line.startsWith("booking: confirm |"));
    expect(fresh.every((line) => line.includes("| round 1/1 |"))).toBe(true);
  });

  it("splits a timed cell only as far as each slice stays long against its latency", () => {
    const options = { rounds: 5, fresh: 40, seconds: 5 };
    // A search page at about 110 a second: c1 and c4 in five rounds, c16 (550 answers against 320) in one.
    expect([1, 4, 16].map((c) => slicesFor(options, false, c, 110))).toEqual([5, 5, 1]);
    // A page of 1,000 records at 18 a second: four rounds at c1, one above.
    expect([1, 4, 16].map((c) => slicesFor(options, false, c, 18))).toEqual([4, 1, 1]);
    // Fresh steps split their states (never more rounds than states); counted requests keep every round.
    expect(slicesFor(options, true, 1, 18)).toBe(5);
    expect(slicesFor({ ...options, fresh: 2 }, true, 1, 18)).toBe(2);
    expect(slicesFor({ ...options, amount: 2 }, false, 16, 18)).toBe(5);
    expect(slicesFor(options, false, 4, Infinity)).toBe(5);
  });

  it("leaves no promise hook on once its statement capture is done (production runs without one)", async () => {
    // With an AsyncLocalStorage enabled, every promise gets an async id of its own.
    const probe = () => Promise.resolve().then(() => executionAsyncId());
    expect([await probe(), await probe()]).toEqual([0, 0]);
  });

  it("answers the REST body on the limit route, for the same request", () => {
    for (const scenario of result.scenarios.filter((s) => !s.fresh)) expect(scenario.limitMatchesRest, scenario.name).toBe(true);
  });

  it("measures only the scenarios asked for with `only` (a name part or a group), and writes each cell's profile when asked", async () => {
    const profiles = mkdtempSync(join(tmpdir(), "bench-paths-profiles-"));
    const some = await runPaths({
      service: stack.service,
      database,
      databaseUrl: own.url,
      concurrencies: [1],
      seconds: 1,
      amount: 1,
      fresh: 1,
      rounds: 1,
      warmUpSeconds: 0,
      warmUpFresh: false,
      profileSeconds: 1,
      profileConcurrency: 1,
      poolSize: 2,
      only: ["product read", "reporting"],
      cellProfiles: profiles,
    });
    expect(some.scenarios.map((s) => s.name)).toEqual(["product read", "report page (500)"]);
    const written = readdirSync(profiles).sort();
    expect(written).toEqual(["product-read", "report-page-500"].flatMap((page) => PATHS.map((path) => `${page}.${path}.c1.cpuprofile`)).sort());
    const profile = JSON.parse(readFileSync(join(profiles, "report-page-500.gateway.c1.cpuprofile"), "utf8")) as { nodes: unknown[]; samples: unknown[] };
    expect(profile.nodes.length).toBeGreaterThan(0);
    rmSync(profiles, { recursive: true, force: true });
    await expect(runPaths({ service: stack.service, database, databaseUrl: own.url, concurrencies: [1], seconds: 1, amount: 1, fresh: 1, rounds: 1, warmUpSeconds: 0, profileSeconds: 1, profileConcurrency: 1, poolSize: 2, only: ["no such page"] })).rejects.toThrow(/no scenario matches no such page/);
  }, 120_000);

  it("profiles the REST search page and renders the doc section", () => {
    expect(result.profile.requests).toBe(2);
    expect(result.profile.top.length).toBeGreaterThan(0);
    expect(result.profile.top.length).toBeLessThanOrEqual(15);
    for (const row of result.profile.top) {
      expect(row.location).toMatch(/:/);
      expect(row.selfMs).toBeGreaterThan(0);
    }
    const section = renderPathsSection(result, { date: "2026-01-01", machine: "test", commit: "abc", driver: result.driver, command: "npm run bench:paths", concurrencies: [1, 2], seconds: 1, fresh: 1, rounds: 2, warmUpSeconds: 1, poolSize: 4 });
    expect(section).toContain("× limit (p50)");
    expect(section).toContain("CPU profile of the REST search page");
    for (const scenario of result.scenarios) expect(section).toContain(scenario.name);
  });
});
