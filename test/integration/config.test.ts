import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, defaultStatementsPerAccount } from "../../core/config.js";
import { descriptorLimit, parseProcLimits } from "../../core/descriptor-limit.js";
import { clientKey } from "../../server/connection-guard.js";
import { replicaOfRole } from "../../server/service-database.js";

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

  it("holds an account to DATABASE_STATEMENTS_PER_ACCOUNT statements at once while others use PostgreSQL, and refuses what is no number of statements", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://db.example.com/activities", DATABASE_STATEMENTS_PER_ACCOUNT: "4" }).databaseStatementsPerAccount).toBe(4);
    expect(loadConfig({ DATABASE_URL: "postgres://127.0.0.1/activities", DATABASE_STATEMENTS_PER_ACCOUNT: "7" }).databaseStatementsPerAccount).toBe(7);
    for (const wrong of ["0", "101", "1.5", "some"]) expect(problemsOf({ DATABASE_STATEMENTS_PER_ACCOUNT: wrong }).map((p) => p.split("=")[0])).toEqual(["DATABASE_STATEMENTS_PER_ACCOUNT"]);
  });

  it("unset, gives an account about half the database server's processors: this machine's for a server on it, 2 for one elsewhere", () => {
    expect(defaultStatementsPerAccount("postgres://db.example.com/activities", 16)).toBe(2);
    expect(defaultStatementsPerAccount("postgres://10.0.0.5:5432/activities", 16)).toBe(2);
    expect(defaultStatementsPerAccount("postgres://127.0.0.1:5432/activities", 16)).toBe(8);
    expect(defaultStatementsPerAccount("postgres://localhost/activities", 2)).toBe(1);
    expect(defaultStatementsPerAccount("postgres://[::1]/activities", 4)).toBe(2);
    expect(defaultStatementsPerAccount("postgres:///activities?host=/var/run/postgresql", 8)).toBe(4);
    expect(defaultStatementsPerAccount("postgres://127.0.0.1/activities", 1)).toBe(1);
    expect(defaultStatementsPerAccount(undefined, 16)).toBe(2);
    // Behind a pooler on this machine, the server is the direct address's.
    expect(loadConfig({ DATABASE_URL: "postgres://127.0.0.1:6432/activities", DATABASE_DIRECT_URL: "postgres://db.example.com/activities" }).databaseStatementsPerAccount).toBe(2);
    expect(loadConfig({ DATABASE_URL: "postgres://db.example.com/activities" }).databaseStatementsPerAccount).toBe(2);
  });

  it("reads DATABASE_DIRECT_URL beside a pooler's DATABASE_URL, and refuses it alone", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://pooler:6432/db", DATABASE_DIRECT_URL: "postgres://server:5432/db" })).toMatchObject({ databaseUrl: "postgres://pooler:6432/db", databaseDirectUrl: "postgres://server:5432/db" });
    expect(loadConfig({ DATABASE_URL: "postgres://server/db" }).databaseDirectUrl).toBeUndefined();
    expect(problemsOf({ DATABASE_DIRECT_URL: "postgres://server:5432/db" })).toEqual([expect.stringMatching(/^DATABASE_DIRECT_URL is set without DATABASE_URL/)]);
  });

  it("reads libpq's sslmode and sslrootcert in either database URL, and refuses what it cannot honour by name", () => {
    const ca = fileURLToPath(import.meta.url);
    for (const mode of ["disable", "prefer", "require"]) expect(problemsOf({ DATABASE_URL: `postgres://db.example/app?sslmode=${mode}` })).toEqual([]);
    expect(problemsOf({ DATABASE_URL: `postgres://db.example/app?sslmode=verify-full&sslrootcert=${ca}` })).toEqual([]);
    expect(problemsOf({ DATABASE_URL: "postgres://db.example/app?sslmode=verify-ca&sslrootcert=system" })).toEqual([]);
    expect(problemsOf({ DATABASE_URL: "postgres://pooler/app", DATABASE_DIRECT_URL: "postgres://db/app?sslmode=verify-full" })).toEqual([
      expect.stringMatching(/^DATABASE_DIRECT_URL: sslmode=verify-full: needs sslrootcert/),
    ]);
    expect(problemsOf({ DATABASE_URL: "postgres://db/app?sslmode=verify-full&sslrootcert=/nowhere/ca.pem" })).toEqual([expect.stringMatching(/^DATABASE_URL: sslrootcert=\/nowhere\/ca.pem: cannot read .*ENOENT/)]);
    expect(problemsOf({ DATABASE_URL: "postgres://db/app?sslmode=allow" })).toEqual([expect.stringMatching(/^DATABASE_URL: sslmode=allow: must be one of disable, prefer, require, verify-ca, verify-full/)]);
    expect(problemsOf({ DATABASE_URL: "postgres://db/app?sslmode=require&sslcert=/client.pem" })).toEqual([expect.stringMatching(/^DATABASE_URL: sslcert: not supported/)]);
  });

  it("reads a read replica beside PostgreSQL, its lag limit, the migrations' mode and the runtime role, and refuses them where they mean nothing", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://primary/app" })).toMatchObject({ databaseReadUrl: undefined, databaseReadMaxLagSeconds: 10, databaseMigrations: "apply", databaseRuntimeRole: undefined });
    expect(
      loadConfig({ DATABASE_URL: "postgres://primary/app", DATABASE_READ_URL: "postgres://replica/app?sslmode=require", DATABASE_READ_MAX_LAG_SECONDS: "2.5", DATABASE_MIGRATIONS: "verify", DATABASE_RUNTIME_ROLE: "activities_app" }),
    ).toMatchObject({ databaseReadUrl: "postgres://replica/app?sslmode=require", databaseReadMaxLagSeconds: 2.5, databaseMigrations: "verify", databaseRuntimeRole: "activities_app" });
    expect(problemsOf({ DATABASE_READ_URL: "postgres://replica/app" })).toEqual([expect.stringMatching(/^DATABASE_READ_URL is set without DATABASE_URL/)]);
    expect(problemsOf({ DATABASE_MIGRATIONS: "verify" })).toEqual([expect.stringMatching(/^DATABASE_MIGRATIONS=verify: needs DATABASE_URL/)]);
    expect(problemsOf({ DATABASE_URL: "postgres://p/app", DATABASE_READ_URL: "postgres://r/app?sslmode=verify-ca" })).toEqual([expect.stringMatching(/^DATABASE_READ_URL: sslmode=verify-ca: needs sslrootcert/)]);
    for (const [name, value] of [["DATABASE_MIGRATIONS", "auto"], ["DATABASE_READ_MAX_LAG_SECONDS", "-1"], ["DATABASE_READ_MAX_LAG_SECONDS", "soon"], ["DATABASE_RUNTIME_ROLE", "app; drop table x"], ["DATABASE_READ_URL", "mysql://r"]]) {
      expect(problemsOf({ DATABASE_URL: "postgres://p/app", [name]: value }).map((problem) => problem.split("=")[0]), `${name}=${value}`).toEqual([name]);
    }
  });

  it("gives the read replica to the roles whose subgraphs read from it, and to the single process, not to the others", () => {
    const replica = "postgres://replica/app";
    const roleOf = (role: string) => replicaOfRole(loadConfig({ DATABASE_URL: "postgres://p/app", DATABASE_READ_URL: replica, CATALOGUE_URL: "http://c/graphql", BOOKING_URL: "http://b/graphql", REPORTING_URL: "http://r/graphql" }, ["--role", role]));
    expect(["all", "catalogue", "reporting"].map(roleOf)).toEqual([replica, replica, replica]);
    expect(["edge", "booking", "worker"].map(roleOf)).toEqual([undefined, undefined, undefined]);
  });

  it("never repeats a database URL's password in a problem", () => {
    const problems = problemsOf({ DATABASE_URL: "postgresx://service:s3cret@db/app", DATABASE_DIRECT_URL: "mysql://owner:hunter2@db/app" });
    expect(problems.join("\n")).not.toMatch(/s3cret|hunter2/);
    expect(problems).toEqual([expect.stringContaining("postgresx://service:***@db/app"), expect.stringContaining("mysql://owner:***@db/app")]);
  });

  it("keeps DATA_DIR=memory as the in-memory database", () => {
    expect(loadConfig({ DATA_DIR: "memory" }).dataDir).toBe("memory");
  });

  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ ENVIRONMENT: "staging" }, "ENVIRONMENT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ DATABASE_URL: "postgres://pooler/db", DATABASE_DIRECT_URL: "mysql://x" }, "DATABASE_DIRECT_URL"],
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

/** The HTTP server's hygiene and the stop's drain (server/connection-guard.ts, docs/spec-decisions.md "Connections"). */
describe("connection settings", () => {
  it("gives timeouts well under a minute, a cap per address, load shedding and a drain by default", () => {
    expect(loadConfig({}, [], { descriptorLimit: 20_000 })).toMatchObject({
      http: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnections: 18_000, maxConnectionsPerAddress: 100, loadShedEventLoopDelayMs: 200 },
      shutdownGraceMs: 25_000,
      shutdownDrainMs: 1_000,
    });
    // A quarter of a grace shorter than four seconds.
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: "2" }).shutdownDrainMs).toBe(500);
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_SECONDS: "1.5", HTTP_REQUEST_TIMEOUT_SECONDS: "2", HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "0.5" }).http).toMatchObject({ headersTimeoutMs: 1500, requestTimeoutMs: 2000, keepAliveTimeoutMs: 500 });
    expect(loadConfig({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0", LOAD_SHED_EVENT_LOOP_DELAY_MS: "0", SHUTDOWN_DRAIN_SECONDS: "0" })).toMatchObject({ http: { maxConnectionsPerAddress: 0, loadShedEventLoopDelayMs: 0 }, shutdownDrainMs: 0 });
  });

  it("caps graphql-ws sockets and subscriptions per account and a socket's unsent bytes by default, 0 lifting a cap", () => {
    expect(loadConfig({}).websocket).toEqual({ maxSocketsPerAccount: 100, maxSubscriptionsPerAccount: 500, maxBufferedBytes: 4 * 1024 * 1024 });
    expect(loadConfig({ WS_MAX_SOCKETS_PER_ACCOUNT: "0", WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: "0", WS_MAX_BUFFERED_BYTES: "65536" }).websocket).toEqual({
      maxSocketsPerAccount: 0,
      maxSubscriptionsPerAccount: 0,
      maxBufferedBytes: 65_536,
    });
    expect(problemsOf({ WS_MAX_BUFFERED_BYTES: "1024" })[0]).toMatch(/^WS_MAX_BUFFERED_BYTES="1024": /);
    expect(problemsOf({ WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: "-1" })[0]).toMatch(/^WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT="-1": /);
  });

  it("keeps the process's connection cap below its descriptor limit, leaving room for the database, files and outbound calls", () => {
    // A tenth of the limit, 256 at least.
    expect(loadConfig({}, [], { descriptorLimit: 1024 }).http.maxConnections).toBe(768);
    expect(loadConfig({}, [], { descriptorLimit: 1_048_576 }).http.maxConnections).toBe(943_718);
    expect(loadConfig({}, [], { descriptorLimit: null }).http.maxConnections).toBe(10_000);
    expect(loadConfig({ HTTP_MAX_CONNECTIONS: "500" }, [], { descriptorLimit: 1024 }).http.maxConnections).toBe(500);
    expect(loadConfig({}).http.maxConnections).toBe(descriptorLimit()! - Math.max(256, Math.ceil(descriptorLimit()! / 10)));
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS: "19000" }, [], { descriptorLimit: 20_000 })).toThrow(ConfigError);
    try {
      loadConfig({ HTTP_MAX_CONNECTIONS: "19000" }, [], { descriptorLimit: 20_000 });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        "HTTP_MAX_CONNECTIONS=19000: the process may hold 20000 descriptors (RLIMIT_NOFILE, ulimit -n); at most 18000 connections leave room for the database, files and outbound calls (raise the limit or lower this)",
      ]);
    }
  });

  it.each([
    [{ HTTP_HEADERS_TIMEOUT_SECONDS: "0" }, "HTTP_HEADERS_TIMEOUT_SECONDS"],
    [{ HTTP_HEADERS_TIMEOUT_SECONDS: "soon" }, "HTTP_HEADERS_TIMEOUT_SECONDS"],
    [{ HTTP_HEADERS_TIMEOUT_SECONDS: "20", HTTP_REQUEST_TIMEOUT_SECONDS: "15" }, "HTTP_HEADERS_TIMEOUT_SECONDS"],
    [{ HTTP_REQUEST_TIMEOUT_SECONDS: "-1" }, "HTTP_REQUEST_TIMEOUT_SECONDS"],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "forever" }, "HTTP_KEEP_ALIVE_TIMEOUT_SECONDS"],
    [{ HTTP_MAX_CONNECTIONS: "0" }, "HTTP_MAX_CONNECTIONS"],
    [{ HTTP_MAX_CONNECTIONS: "1.5" }, "HTTP_MAX_CONNECTIONS"],
    [{ HTTP_MAX_CONNECTIONS_PER_ADDRESS: "-1" }, "HTTP_MAX_CONNECTIONS_PER_ADDRESS"],
    [{ HTTP_MAX_CONNECTIONS_PER_ADDRESS: "many" }, "HTTP_MAX_CONNECTIONS_PER_ADDRESS"],
    [{ LOAD_SHED_EVENT_LOOP_DELAY_MS: "fast" }, "LOAD_SHED_EVENT_LOOP_DELAY_MS"],
    [{ SHUTDOWN_DRAIN_SECONDS: "-1" }, "SHUTDOWN_DRAIN_SECONDS"],
    [{ SHUTDOWN_DRAIN_SECONDS: "30" }, "SHUTDOWN_DRAIN_SECONDS"],
  ])("refuses %o naming the variable", (env, variable) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0].startsWith(`${variable}=`)).toBe(true);
  });

  it("reads the soft descriptor limit from /proc/self/limits", () => {
    const limits = ["Limit                     Soft Limit           Hard Limit           Units     ", "Max open files            20000                524288               files     ", ""].join("\n");
    expect(parseProcLimits(limits)).toBe(20_000);
    expect(parseProcLimits(limits.replace("20000     ", "unlimited "))).toBeUndefined();
    expect(parseProcLimits("")).toBeUndefined();
  });

  it("counts a client by its IPv4 address (IPv4-mapped IPv6 as IPv4) or its IPv6 /64", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:ffff:eeee:dddd:cccc")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientKey("not an address")).toBe("not an address");
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
