import { describe, expect, it } from "vitest";
import { connectionsPerProcess, planPoolSize } from "../../../drizzle/connection-budget.js";

/** PostgreSQL's defaults: max_connections 100, superuser_reserved_connections 3. */
const stock = { maxConnections: 100, reservedConnections: 3 };

describe("the pools' size against the server's connection limit", () => {
  it("gives each pool 10 connections while the processes take at most half of what the server allows", () => {
    expect(planPoolSize(stock, { processes: 1 })).toEqual({ poolSize: 10 });
    expect(planPoolSize(stock, { processes: 2 })).toEqual({ poolSize: 10 });
    expect(planPoolSize({ maxConnections: 1000, reservedConnections: 3 }, { processes: 16 })).toEqual({ poolSize: 10 });
  });

  it("shrinks the default pools as processes are added, keeping them within half of the server's limit", () => {
    expect(planPoolSize(stock, { processes: 4 })).toEqual({ poolSize: 5 });
    expect(planPoolSize(stock, { processes: 8 })).toEqual({ poolSize: 2 });
    expect(planPoolSize(stock, { processes: 16 })).toEqual({ poolSize: 1 });
    for (let processes = 1; processes <= 16; processes++) {
      const plan = planPoolSize(stock, { processes });
      expect("poolSize" in plan && processes * connectionsPerProcess(plan.poolSize)).toBeLessThanOrEqual(48);
    }
  });

  it("keeps one connection a pool past half of the limit, and refuses processes that cannot have even that", () => {
    expect(planPoolSize(stock, { processes: 32 })).toEqual({ poolSize: 1 });
    const refused = planPoolSize(stock, { processes: 33 });
    expect(refused).toEqual({ refused: expect.stringContaining("33 processes (WEB_CONCURRENCY) need at least 99 connections") });
    expect("refused" in refused && refused.refused).toContain("PostgreSQL allows 97 (max_connections 100 less 3 reserved)");
  });

  it("keeps DATABASE_POOL_SIZE as set while it fits the whole limit, past the half the default keeps to", () => {
    expect(planPoolSize(stock, { processes: 1, requested: 48 })).toEqual({ poolSize: 48 });
    expect(planPoolSize(stock, { processes: 4, requested: 10 })).toEqual({ poolSize: 10 });
    expect(planPoolSize(stock, { processes: 1, requested: 3 })).toEqual({ poolSize: 3 });
  });

  it("refuses a DATABASE_POOL_SIZE that the server cannot hold, naming the numbers and what to change", () => {
    expect(planPoolSize(stock, { processes: 1, requested: 49 })).toEqual({
      refused: "DATABASE_POOL_SIZE=49 needs up to 99 connections (two pools and one for LISTEN a process), but PostgreSQL allows 97 (max_connections 100 less 3 reserved): lower DATABASE_POOL_SIZE or WEB_CONCURRENCY, or raise max_connections",
    });
    expect(planPoolSize(stock, { processes: 5, requested: 10 })).toEqual({ refused: expect.stringContaining("DATABASE_POOL_SIZE=10 in each of 5 processes (WEB_CONCURRENCY) needs up to 105 connections") });
  });
});
