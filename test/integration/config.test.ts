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
      signIn: { maxConcurrentPerAccount: 4, maxConcurrentPerAddress: 16 },
    });
    expect(loadConfig({ SIGN_IN_MAX_CONCURRENT_PER_ACCOUNT: "2", SIGN_IN_MAX_CONCURRENT_PER_ADDRESS: "64" }).signIn).toMatchObject({ maxConcurrentPerAccount: 2, maxConcurrentPerAddress: 64 });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it("sizes each of PostgreSQL's two pools by DATABASE_POOL_SIZE, left to fit the server's limit unless set, and refuses a size that is no number of connections", () => {
    expect(loadConfig({}).databasePoolSize).toBeUndefined();
    expect(loadConfig({ DATABASE_POOL_SIZE: "3" }).databasePoolSize).toBe(3);
    for (const wrong of ["0", "101", "2.5", "many"]) expect(problemsOf({ DATABASE_POOL_SIZE: wrong }).map((p) => p.split("=")[0])).toEqual(["DATABASE_POOL_SIZE"]);
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
    [{ SIGN_IN_MAX_CONCURRENT_PER_ACCOUNT: "0" }, "SIGN_IN_MAX_CONCURRENT_PER_ACCOUNT"],
    [{ SIGN_IN_MAX_CONCURRENT_PER_ACCOUNT: "many" }, "SIGN_IN_MAX_CONCURRENT_PER_ACCOUNT"],
    [{ SIGN_IN_MAX_CONCURRENT_PER_ADDRESS: "1.5" }, "SIGN_IN_MAX_CONCURRENT_PER_ADDRESS"],
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

/** OpenTelemetry's standard variables (docs/operations.md, "Traces"). */
describe("tracing configuration read from the OTEL_* variables", () => {
  it("leaves tracing off without them, with OTEL_TRACES_EXPORTER=none, and whenever OTEL_SDK_DISABLED=true", () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_SERVICE_NAME: "named", OTEL_TRACES_SAMPLER: "always_on" }).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" }).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_SDK_DISABLED: "false", OTEL_TRACES_EXPORTER: "console" }).tracing?.exporters).toEqual(["console"]);
  });

  it("turns tracing on with an OTLP endpoint, and reads the exporter's, the resource's and the sampler's variables", () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).tracing).toEqual({
      exporters: ["otlp"],
      otlp: { url: "http://collector:4318/v1/traces", protocol: "http/protobuf", headers: {}, timeoutMs: 10_000, compression: "none" },
      sampler: { name: "parentbased_always_on", ratio: 1 },
      serviceName: "activities",
      resourceAttributes: {},
    });
    const tracing = loadConfig(
      {
        OTEL_TRACES_EXPORTER: "otlp,console",
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example.com/ingest",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=abc%3D%3D,x-tenant=t1",
        OTEL_EXPORTER_OTLP_TIMEOUT: "2500",
        OTEL_EXPORTER_OTLP_COMPRESSION: "gzip",
        OTEL_RESOURCE_ATTRIBUTES: "service.name=from-attributes,deployment.environment.name=staging",
        OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
        OTEL_TRACES_SAMPLER_ARG: "0.25",
        OTEL_PROPAGATORS: "tracecontext",
        DATABASE_URL: "postgres://h/db",
      },
      ["--role", "reporting"],
    ).tracing;
    expect(tracing).toEqual({
      exporters: ["otlp", "console"],
      otlp: { url: "https://traces.example.com/ingest", protocol: "http/json", headers: { "x-api-key": "abc==", "x-tenant": "t1" }, timeoutMs: 2500, compression: "gzip" },
      sampler: { name: "parentbased_traceidratio", ratio: 0.25 },
      serviceName: "from-attributes",
      resourceAttributes: { "deployment.environment.name": "staging" },
    });
  });

  it("names the service after its role unless OTEL_SERVICE_NAME does", () => {
    const on = { OTEL_TRACES_EXPORTER: "console", DATABASE_URL: "postgres://h/db", CATALOGUE_URL: "http://c/graphql" };
    expect(loadConfig(on, ["--role", "booking"]).tracing?.serviceName).toBe("activities-booking");
    expect(loadConfig({ ...on, OTEL_SERVICE_NAME: "bookings-eu", OTEL_RESOURCE_ATTRIBUTES: "service.name=other" }, ["--role", "booking"]).tracing?.serviceName).toBe("bookings-eu");
  });

  it.each([
    [{ OTEL_SDK_DISABLED: "yes please" }, "OTEL_SDK_DISABLED"],
    [{ OTEL_TRACES_EXPORTER: "zipkin" }, "OTEL_TRACES_EXPORTER"],
    [{ OTEL_TRACES_EXPORTER: "none,otlp" }, "OTEL_TRACES_EXPORTER"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" }, "OTEL_EXPORTER_OTLP_ENDPOINT"],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "ftp://collector/v1/traces" }, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, "OTEL_EXPORTER_OTLP_PROTOCOL"],
    [{ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "thrift" }, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"],
    [{ OTEL_EXPORTER_OTLP_HEADERS: "no-equals-sign" }, "OTEL_EXPORTER_OTLP_HEADERS"],
    [{ OTEL_EXPORTER_OTLP_TRACES_HEADERS: "key=%E0%A4%A" }, "OTEL_EXPORTER_OTLP_TRACES_HEADERS"],
    [{ OTEL_EXPORTER_OTLP_TIMEOUT: "soon" }, "OTEL_EXPORTER_OTLP_TIMEOUT"],
    [{ OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: "brotli" }, "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION"],
    [{ OTEL_RESOURCE_ATTRIBUTES: "=value" }, "OTEL_RESOURCE_ATTRIBUTES"],
    [{ OTEL_TRACES_SAMPLER: "jaeger_remote" }, "OTEL_TRACES_SAMPLER"],
    [{ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "1.5" }, "OTEL_TRACES_SAMPLER_ARG"],
    [{ OTEL_TRACES_SAMPLER_ARG: "0.5" }, "OTEL_TRACES_SAMPLER_ARG"],
    [{ OTEL_PROPAGATORS: "tracecontext,b3" }, "OTEL_PROPAGATORS"],
  ])("refuses %o naming the variable", (env, variable) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0].startsWith(`${variable}=`)).toBe(true);
  });

  it("never shows the exporter's headers, which carry a collector's key", () => {
    expect(problemsOf({ OTEL_EXPORTER_OTLP_HEADERS: "Authorization Bearer secret-key" })).toEqual(["OTEL_EXPORTER_OTLP_HEADERS=(not shown): must be key=value pairs separated by commas (values percent-encoded)"]);
  });

  it("reports a wrong OTEL_* variable together with the other wrong variables", () => {
    expect(problemsOf({ PORT: "x", OTEL_TRACES_SAMPLER: "sometimes" }).map((p) => p.split("=")[0]).sort()).toEqual(["OTEL_TRACES_SAMPLER", "PORT"]);
  });
});
