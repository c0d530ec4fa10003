import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../core/config.js";

const problemsOf = (env: Record<string, string>, argv: string[] = []): string[] => {
  try {
    loadConfig(env, argv);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe("configuration read from the environment", () => {
  it("gives the documented defaults when nothing is set", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      environment: "sandbox",
      authRealm: "activities",
      seedDemo: true,
      role: "all",
      databaseUrl: undefined,
      publicUrl: "http://localhost:4000",
      workerJobConcurrency: 8,
      workerPollMs: 5000,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it("keeps DATA_DIR=memory as the in-memory database", () => {
    expect(loadConfig({ DATA_DIR: "memory" }).dataDir).toBe("memory");
  });

  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ ENVIRONMENT: "staging" }, "ENVIRONMENT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ SEED_DEMO: "maybe" }, "SEED_DEMO"],
    [{ AUTH_REALM: "bad realm!" }, "AUTH_REALM"],
    [{ PUBLIC_URL: "not a url" }, "PUBLIC_URL"],
    [{ ROLE: "cook" }, "ROLE"],
    [{ WORKER_JOB_CONCURRENCY: "0" }, "WORKER_JOB_CONCURRENCY"],
    [{ WORKER_JOB_CONCURRENCY: "2.5" }, "WORKER_JOB_CONCURRENCY"],
    [{ WORKER_POLL_SECONDS: "never" }, "WORKER_POLL_SECONDS"],
    [{ WORKER_POLL_SECONDS: "0" }, "WORKER_POLL_SECONDS"],
  ])("refuses %o naming the variable", (env, variable) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0].startsWith(`${variable}=`)).toBe(true);
  });

  it("reports every wrong variable at once", () => {
    expect(problemsOf({ PORT: "x", ENVIRONMENT: "y" }).map((p) => p.split("=")[0]).sort()).toEqual(["ENVIRONMENT", "PORT"]);
  });

  it("takes the role from --role before ROLE", () => {
    expect(loadConfig({ ROLE: "worker", DATABASE_URL: "postgres://h/db", CATALOGUE_URL: "http://c/graphql" }, ["--role", "booking"]).role).toBe("booking");
    expect(loadConfig({ DATABASE_URL: "postgres://h/db" }, ["--role=catalogue"]).role).toBe("catalogue");
  });

  it("refuses a single role on the embedded database, and an edge without subgraph URLs", () => {
    expect(problemsOf({ ROLE: "booking" })[0]).toMatch(/^ROLE=booking: .*DATABASE_URL/);
    const edge = problemsOf({ ROLE: "edge", DATABASE_URL: "postgres://h/db" });
    expect(edge.map((p) => p.split(":")[0])).toEqual(["CATALOGUE_URL", "BOOKING_URL", "REPORTING_URL"]);
    // Booking and the worker ask the catalogue for product facts through the graph.
    for (const role of ["booking", "worker"]) expect(problemsOf({ ROLE: role, DATABASE_URL: "postgres://h/db" })).toEqual([expect.stringMatching(/^CATALOGUE_URL: required when ROLE=/)]);
    expect(problemsOf({ ROLE: "reporting", DATABASE_URL: "postgres://h/db" })).toEqual([]);
  });

  it("runs one process per core on PostgreSQL, one on the embedded database, and refuses more there", () => {
    expect(loadConfig({}).webConcurrency).toBe(1);
    expect(loadConfig({ DATABASE_URL: "postgres://h/db" }).webConcurrency).toBe(availableParallelism());
    expect(loadConfig({ DATABASE_URL: "postgres://h/db", WEB_CONCURRENCY: "3" }).webConcurrency).toBe(3);
    expect(loadConfig({ DATABASE_URL: "postgres://h/db", ROLE: "worker", CATALOGUE_URL: "http://c/graphql" }).webConcurrency).toBe(1);
    expect(problemsOf({ WEB_CONCURRENCY: "2" })).toEqual([expect.stringMatching(/^WEB_CONCURRENCY=2: several processes need DATABASE_URL/)]);
    expect(problemsOf({ WEB_CONCURRENCY: "2", DATABASE_URL: "postgres://h/db", ROLE: "worker", CATALOGUE_URL: "http://c/graphql" })).toEqual([expect.stringMatching(/^WEB_CONCURRENCY=2: ROLE=worker serves no requests/)]);
    for (const bad of ["0", "65", "two", "1.5"]) expect(problemsOf({ WEB_CONCURRENCY: bad })[0]).toMatch(/^WEB_CONCURRENCY=/);
  });
});
