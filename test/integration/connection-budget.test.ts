import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { ConnectionBudgetError, connectionsPerProcess, planPoolSize, readConnectionLimit } from "../../drizzle/connection-budget.js";
import { openDatabase } from "../../drizzle/database.js";
import { createService } from "../../server/service.js";
import { testConfig } from "../support/stack.js";

/** The pool sizes a service opens, against the limit of the server it runs on. */
describe("connections a service may open", () => {
  if (!process.env.DATABASE_URL) {
    it("on the embedded database, has its one connection whatever DATABASE_POOL_SIZE and WEB_CONCURRENCY say", async () => {
      const service = await createService(testConfig({ DATABASE_POOL_SIZE: "5", WORKER_LOOPS: "false" }));
      try {
        expect(service.database.poolUse().maxConnections).toBe(1);
      } finally {
        await service.close();
      }
    });
    return;
  }
  const url = process.env.DATABASE_URL;
  const serverLimit = async () => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const [settings] = await sql<{ max: string; reserved: string }[]>`select current_setting('max_connections') as max, current_setting('superuser_reserved_connections') as reserved`;
      const limit = await readConnectionLimit(sql);
      expect(limit.maxConnections).toBe(Number(settings.max));
      expect(limit.reservedConnections).toBeGreaterThanOrEqual(Number(settings.reserved));
      return limit;
    } finally {
      await sql.end();
    }
  };
  const poolSizeOf = async (overrides: Record<string, string>) => {
    const service = await createService(testConfig({ ...overrides, WORKER_LOOPS: "false" }));
    try {
      return service.database.poolUse().maxConnections / 2;
    } finally {
      await service.close();
    }
  };

  it("fits the default pools of WEB_CONCURRENCY processes into half of what the server allows", async () => {
    const limit = await serverLimit();
    const usable = limit.maxConnections - limit.reservedConnections;
    const processes = 8;
    const poolSize = await poolSizeOf({ WEB_CONCURRENCY: String(processes) });
    expect(poolSize).toEqual((planPoolSize(limit, { processes }) as { poolSize: number }).poolSize);
    expect(processes * connectionsPerProcess(poolSize)).toBeLessThanOrEqual(Math.max(Math.floor(usable / 2), processes * connectionsPerProcess(1)));
    // On a server with PostgreSQL's default limit, eight processes of ten a pool would take 168 of 97.
    if (usable < processes * connectionsPerProcess(10)) expect(poolSize).toBeLessThan(10);
    // One process keeps the ten it always had.
    if (connectionsPerProcess(10) <= usable / 2) expect(await poolSizeOf({ WEB_CONCURRENCY: "1" })).toBe(10);
  });

  it("opens DATABASE_POOL_SIZE as set when it fits, past the default's half", async () => {
    expect(await poolSizeOf({ DATABASE_POOL_SIZE: "3", WEB_CONCURRENCY: "8" })).toBe(3);
  });

  it("refuses, before migrating or opening a pool, a DATABASE_POOL_SIZE the server cannot hold", async () => {
    const limit = await serverLimit();
    const usable = limit.maxConnections - limit.reservedConnections;
    const requested = Math.min(100, Math.floor(usable / 2) + 1);
    const processes = Math.floor(usable / connectionsPerProcess(requested)) + 1;
    const opening = openDatabase({ databaseUrl: url, maxConnections: requested, processes });
    await expect(opening).rejects.toBeInstanceOf(ConnectionBudgetError);
    await expect(opening).rejects.toThrow(`PostgreSQL allows ${usable} (max_connections ${limit.maxConnections} less ${limit.reservedConnections} reserved)`);
  });
});
