import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import { databaseAddress, DatabaseTlsSettingError } from "./database-tls.js";
import { descriptorLimit, reservedDescriptors } from "./descriptor-limit.js";
import { allShortcutsOn, parseShortcutsOff, type PerformanceShortcuts } from "./performance-shortcuts.js";
import { secretKeyOf } from "./secret-box.js";
import { readOtelVariables, type TracingSettings } from "./tracing-settings.js";

/** Roles a process can take; `all` runs every role in one process (the `npm start` default). */
/** PostgreSQL: statements one account runs at once in a pool while other accounts use the database (drizzle/database.ts, postgresTurns), for a server elsewhere. */
export const DEFAULT_STATEMENTS_PER_ACCOUNT = 2;

/**
 * About half the database server's processors: on this machine (a loopback address or a Unix
 * socket) the service knows how many it has; for a server elsewhere, the default suits one of four.
 */
export function defaultStatementsPerAccount(serverUrl: string | undefined, processors = availableParallelism()): number {
  if (!serverUrl) return DEFAULT_STATEMENTS_PER_ACCOUNT;
  let host: string;
  try {
    const url = new URL(serverUrl);
    host = url.searchParams.get("host") ?? url.hostname;
  } catch {
    return DEFAULT_STATEMENTS_PER_ACCOUNT;
  }
  host = host.replace(/^\[|\]$/g, "").toLowerCase();
  const local = host === "" || host.startsWith("/") || host === "localhost" || host === "::1" || /^127\./.test(host);
  return local ? Math.max(1, Math.floor(processors / 2)) : DEFAULT_STATEMENTS_PER_ACCOUNT;
}

export const processRoles = ["all", "edge", "catalogue", "booking", "reporting", "worker"] as const;
export type ProcessRole = (typeof processRoles)[number];

const booleanFromEnv = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    errorMap: () => ({ message: "must be true or false" }),
  })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const optionalUrl = z.string().url("must be an absolute URL").optional();

const environmentSchema = z.object({
  PORT: z.coerce.number({ invalid_type_error: "must be a port number" }).int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default("0.0.0.0"),
  PUBLIC_URL: optionalUrl,
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATABASE_READ_MAX_LAG_SECONDS: z.coerce.number({ invalid_type_error: "must be seconds" }).min(0).max(3600).default(10),
  DATABASE_MIGRATIONS: z.enum(["apply", "verify"], { errorMap: () => ({ message: "must be apply or verify" }) }).default("apply"),
  DATABASE_RUNTIME_ROLE: z.string().regex(/^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/, "must be a PostgreSQL role name").optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  ENVIRONMENT: z.enum(["sandbox", "production"], {
    errorMap: () => ({ message: "must be sandbox or production" }),
  }).default("sandbox"),
  AUTH_REALM: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1 to 64 letters, digits, - or _").default("activities"),
  SEED_DEMO: booleanFromEnv.optional(),
  GRAPHQL_INTROSPECTION: booleanFromEnv.optional(),
  GRAPHQL_SUGGESTIONS: booleanFromEnv.optional(),
  GRAPHQL_IDE: booleanFromEnv.optional(),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/, "must be true, false, or the comma-separated addresses/CIDR ranges of the proxies")
    .default("false"),
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number({ invalid_type_error: "must be a number" }).int().min(1).max(1_000_000).default(10),
  SIGN_IN_MAX_FAILURES_PER_ADDRESS: z.coerce.number({ invalid_type_error: "must be a number" }).int().min(1).max(1_000_000).default(100),
  SIGN_IN_WINDOW_SECONDS: z.coerce.number({ invalid_type_error: "must be seconds" }).int().min(1).max(86_400).default(900),
  SIGN_IN_MAX_CONCURRENT_PER_ACCOUNT: z.coerce.number({ invalid_type_error: "must be a number" }).int().min(1).max(1000).default(4),
  SIGN_IN_MAX_CONCURRENT_PER_ADDRESS: z.coerce.number({ invalid_type_error: "must be a number" }).int().min(1).max(100_000).default(16),
  API_RATE_LIMIT: z.coerce.number({ invalid_type_error: "must be a number" }).int().min(0).max(10_000_000).default(1200),
  API_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number({ invalid_type_error: "must be seconds" }).int().min(1).max(3600).default(60),
  API_COST_BUDGET: z.coerce.number({ invalid_type_error: "must be a number of points" }).int().min(0).max(1_000_000_000).default(1_000_000),
  API_COST_RESTORE_PER_SECOND: z.coerce.number({ invalid_type_error: "must be a number of points" }).int().min(1).max(1_000_000_000).default(50_000),
  API_MAX_IN_FLIGHT_PER_ACCOUNT: z.coerce.number({ invalid_type_error: "must be a number of operations" }).int().min(0).max(100_000).default(16),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number({ invalid_type_error: "must be milliseconds" }).int().min(0).max(3_600_000).default(15_000),
  DATABASE_POOL_SIZE: z.coerce.number({ invalid_type_error: "must be a number of connections" }).int().min(1).max(100).optional(),
  DATABASE_STATEMENTS_PER_ACCOUNT: z.coerce.number({ invalid_type_error: "must be a number of statements" }).int().min(1).max(100).optional(),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number({ invalid_type_error: "must be seconds" }).min(1).max(3600).default(25),
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number({ invalid_type_error: "must be seconds" }).min(0).max(600).optional(),
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number({ invalid_type_error: "must be seconds" }).min(0.1).max(300).default(10),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number({ invalid_type_error: "must be seconds" }).min(0.1).max(3600).default(30),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number({ invalid_type_error: "must be seconds" }).min(0.1).max(3600).default(5),
  HTTP_MAX_CONNECTIONS: z.coerce.number({ invalid_type_error: "must be a number of connections" }).int().min(1).max(10_000_000).optional(),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number({ invalid_type_error: "must be a number of connections" }).int().min(0).max(10_000_000).default(100),
  LOAD_SHED_EVENT_LOOP_DELAY_MS: z.coerce.number({ invalid_type_error: "must be milliseconds" }).int().min(0).max(60_000).default(200),
  WS_MAX_SOCKETS_PER_ACCOUNT: z.coerce.number({ invalid_type_error: "must be a number of sockets" }).int().min(0).max(1_000_000).default(100),
  WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: z.coerce.number({ invalid_type_error: "must be a number of subscriptions" }).int().min(0).max(10_000_000).default(500),
  WS_MAX_BUFFERED_BYTES: z.coerce.number({ invalid_type_error: "must be a number of bytes" }).int().min(16_384).max(1_073_741_824).default(4_194_304),
  EXCHANGE_RATES_FILE: z.string().min(1).optional(),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  ENGINE_SECRETS_KEY: z
    .string()
    .refine((value) => secretKeyOf(value) !== undefined, "must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)")
    .optional(),
  WORKER_LOOPS: booleanFromEnv.default("true"),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFromEnv.default("false"),
  WEBHOOK_TIMEOUT_MS: z.coerce.number({ invalid_type_error: "must be milliseconds" }).int().min(100).max(60_000).default(10_000),
  OCTO_CALL_TIMEOUT_MS: z.coerce.number({ invalid_type_error: "must be milliseconds" }).int().min(100).max(120_000).default(10_000),
  DEMO_OCTO_SUPPLIER_PORT: z.coerce.number({ invalid_type_error: "must be a port number" }).int().min(0).max(65535).default(0),
  OCTO_IMPORT_INTERVAL_MINUTES: z.coerce.number({ invalid_type_error: "must be minutes" }).int().min(0).max(7 * 24 * 60).default(60),
  WORKER_JOB_CONCURRENCY: z.coerce.number({ invalid_type_error: "must be a number" }).int().min(1).max(256).default(8),
  WORKER_POLL_SECONDS: z.coerce.number({ invalid_type_error: "must be seconds" }).int().min(1).max(3600).default(5),
  WEB_CONCURRENCY: z.coerce.number({ invalid_type_error: "must be a number of processes" }).int().min(1).max(64).optional(),
  ROLE: z.enum(processRoles, { errorMap: () => ({ message: `must be one of ${processRoles.join(", ")}` }) }).default("all"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PASSWORD_SETUP_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(72),
  CATALOGUE_URL: optionalUrl,
  BOOKING_URL: optionalUrl,
  REPORTING_URL: optionalUrl,
  PERFORMANCE_SHORTCUTS_OFF: z
    .string()
    .transform((value, context) => {
      const read = parseShortcutsOff(value);
      if ("shortcuts" in read) return read.shortcuts;
      context.addIssue({ code: z.ZodIssueCode.custom, message: read.problem });
      return z.NEVER;
    })
    .optional(),
});

/** An account's API limits (identity/account-limits.ts). */
export interface AccountLimitSettings {
  /** Requests per account in each window (0: no request limit). */
  requests: number;
  windowSeconds: number;
  /** Cost points the account's bucket holds (0: no cost budget), and how many drain from it each second. */
  costCapacity: number;
  costRestorePerSecond: number;
  /** Operations of one account running at once in this process (0: no cap). */
  maxInFlight: number;
}

export interface Config {
  port: number;
  host: string;
  /** Base address integrators see; links in e-mails and discovery documents are built from it. */
  publicUrl: string;
  /** PUBLIC_URL was given (not the localhost default): a start records it for the operator CLI. */
  publicUrlGiven: boolean;
  databaseUrl: string | undefined;
  /**
   * PostgreSQL itself, when DATABASE_URL is a connection pooler in transaction mode: migrations,
   * LISTEN and the connections' settings go here (drizzle/database.ts). Unset: DATABASE_URL.
   */
  databaseDirectUrl: string | undefined;
  /** A read replica for reads that tolerate lag (drizzle/database.ts, forLaggingReads); unset: none. */
  databaseReadUrl: string | undefined;
  /** The replica serves reads while no further behind than this. */
  databaseReadMaxLagSeconds: number;
  /**
   * PostgreSQL: a start `apply`s the release's pending migrations, or only `verify`s there are
   * none (the service's role may not change the schema; `npm run migrate` runs them as the owner).
   */
  databaseMigrations: "apply" | "verify";
  /** `npm run migrate` grants this role what the service needs (the role the service runs as). */
  databaseRuntimeRole: string | undefined;
  /** Folder of the embedded database, or the string `memory` for an in-memory one. */
  dataDir: string;
  environment: "sandbox" | "production";
  authRealm: string;
  /** Demo accounts and catalogue on first start: the sandbox default; production only when asked. */
  seedDemo: boolean;
  /** What clients may learn of the schema: on in the sandbox, off in production unless configured. */
  graphql: { introspection: boolean; suggestions: boolean };
  /** GraphiQL for browsers at /graphql: on in the sandbox, off in production unless configured. */
  graphqlIde: boolean;
  /**
   * Whose X-Forwarded-* headers to believe (Fastify's trustProxy): none by default, so a caller
   * cannot choose the address it is throttled by. Links never use them: they come from PUBLIC_URL.
   */
  trustProxy: boolean | string;
  /** PostgreSQL statement_timeout of every pooled connection, in ms (0: none). */
  statementTimeoutMs: number;
  /**
   * PostgreSQL: connections in each of a process's two pools (drizzle/database.ts, forKeyLookups).
   * Unset: fitted to the server's max_connections for WEB_CONCURRENCY processes (drizzle/connection-budget.ts).
   */
  databasePoolSize?: number;
  /** PostgreSQL: statements one account runs at once in a pool while other accounts use the database (drizzle/database.ts, postgresTurns). */
  databaseStatementsPerAccount: number;
  /**
   * Failed sign-ins allowed per username and per client address in a sliding window; password
   * checks (sign-ins, successful ones included) one account and one address may have running or
   * waiting in a process at once (identity/passwords.ts).
   */
  signIn: { maxFailuresPerAccount: number; maxFailuresPerAddress: number; windowSeconds: number; maxConcurrentPerAccount: number; maxConcurrentPerAddress: number };
  /**
   * Each account's API limits (identity/account-limits.ts): requests (REST, GraphQL over HTTP and
   * graphql-ws) per window and a bucket of cost points, both shared by every process and replica
   * through the database; operations in flight, per process. 0 turns each off.
   */
  apiLimits: AccountLimitSettings;
  /**
   * How long a stop may take: in-flight requests, operations and the worker's current job finish
   * within it. Shorter than the usual 30 s before a supervisor's SIGKILL, so we exit on our own.
   */
  shutdownGraceMs: number;
  /**
   * How long a stopping process keeps accepting connections before it closes its port: what the
   * kernel had queued when the signal came, and what a balancer still sends, is answered (with
   * `Connection: close`) rather than reset. Part of the grace, not added to it.
   */
  shutdownDrainMs: number;
  /**
   * The HTTP server's hygiene (server/connection-guard.ts): how long a request's head, and the
   * whole request with its body, may take to arrive, how long an idle keep-alive connection is
   * kept; connections held at once by the process and by one client address (0: no cap per
   * address); the mean event-loop delay beyond which requests are shed with 503 (0: never).
   */
  http: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    maxConnections: number;
    maxConnectionsPerAddress: number;
    loadShedEventLoopDelayMs: number;
  };
  /**
   * graphql-ws limits (gateway/subscriptions/ws-server.ts), counted by each process: sockets and
   * subscriptions one account may hold open at once (0: no cap), and the bytes a socket may have
   * waiting to be sent before it is closed as a slow consumer.
   */
  websocket: { maxSocketsPerAccount: number; maxSubscriptionsPerAccount: number; maxBufferedBytes: number };
  /** ECB reference rates file (eurofxref-daily.xml), reloaded on change; unset: the bundled table. */
  exchangeRatesFile: string | undefined;
  /** GET /metrics: with METRICS_TOKEN as its bearer token; without one, open in the sandbox and not served in production. */
  metrics: { token: string | undefined; openWithoutToken: boolean };
  /**
   * Seals the API keys of registered supplier systems (AES-256-GCM). Unset in the sandbox, a key
   * kept in the database is used; unset in production, engines cannot be registered.
   */
  engineSecretsKey: Buffer | undefined;
  /** The worker runs its tasks on timers; off, they run only when asked (tests that move the clock). */
  workerLoops: boolean;
  /** How often the worker imports every OCTO engine's content, in ms; 0: only on demand. */
  octoImportIntervalMs: number;
  /** The loopback port of the sandbox demo's OCTO supplier; 0: any free one. */
  demoOctoSupplierPort: number;
  /** Webhook targets on loopback or private addresses are allowed (tests, a receiver on this machine); never in production. */
  webhookAllowPrivateTargets: boolean;
  /** How long a webhook endpoint may take to answer one delivery. */
  webhookTimeoutMs: number;
  /** How long one call to an OCTO supplier system may take before it counts as failed (or, for a change, unknown). */
  octoCallTimeoutMs: number;
  /** Booking jobs (supplier calls) one worker process runs at once. */
  workerJobConcurrency: number;
  /**
   * How often the worker looks for due jobs and announcements on its own, in ms. Committed jobs
   * wake it at once; the poll only catches what no notification reached (a worker that was down,
   * a dropped LISTEN connection), so it can be slow.
   */
  workerPollMs: number;
  role: ProcessRole;
  /**
   * Processes serving the port (node cluster). PostgreSQL: one per core by default. The embedded
   * database belongs to one process, so there it is 1; its statements run on their own thread, so
   * that process still uses a second core.
   */
  webConcurrency: number;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  passwordSetupTtlSeconds: number;
  subgraphUrls: { catalogue?: string; booking?: string; reporting?: string };
  /** OpenTelemetry traces as the OTEL_* variables ask for them; undefined: off (the default). */
  tracing: TracingSettings | undefined;
  /**
   * Which performance shortcuts run (PERFORMANCE_SHORTCUTS_OFF): all of them unless named off. Off,
   * the service takes the libraries' own paths and answers the same (docs/performance-machinery.md).
   */
  performanceShortcuts: PerformanceShortcuts;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Every variable loadConfig reads from the environment, OpenTelemetry's aside (otelVariables). */
export const configVariables: readonly string[] = Object.keys(environmentSchema.shape);

/** Connections a process takes when HTTP_MAX_CONNECTIONS is unset and its descriptor limit cannot be read. */
const MAX_CONNECTIONS_UNKNOWN_LIMIT = 10_000;

/**
 * Reads the environment once; every problem is reported with the variable that caused it.
 * `system.descriptorLimit`: the process's RLIMIT_NOFILE, read here unless given (tests give one).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = [], system: { descriptorLimit?: number | null } = {}): Config {
  const otel = readOtelVariables(env);
  const e = parseEnvironment(env, argv, otel.problems);
  const limit = system.descriptorLimit === undefined ? descriptorLimit() : (system.descriptorLimit ?? undefined);
  const connectionRoom = limit === undefined ? undefined : limit - reservedDescriptors(limit);
  const problems: string[] = [...otel.problems, ...settingProblems(e)];
  if (e.HTTP_MAX_CONNECTIONS !== undefined && connectionRoom !== undefined && e.HTTP_MAX_CONNECTIONS > connectionRoom) {
    problems.push(
      `HTTP_MAX_CONNECTIONS=${e.HTTP_MAX_CONNECTIONS}: the process may hold ${limit} descriptors (RLIMIT_NOFILE, ulimit -n); at most ${Math.max(0, connectionRoom)} connections leave room for the database, files and outbound calls (raise the limit or lower this)`,
    );
  }
  if (problems.length) throw new ConfigError(problems);
  return {
    ...serviceSettings(e),
    ...databaseSettings(e),
    ...requestLimits(e, connectionRoom),
    ...workerSettings(e),
    performanceShortcuts: e.PERFORMANCE_SHORTCUTS_OFF ?? allShortcutsOn,
    tracing: otel.settingsFor(e.ROLE),
  };
}

type Environment = z.infer<typeof environmentSchema>;

/** The variables as the schema reads them (an empty value is an unset one), `--role` over ROLE; their problems, with OpenTelemetry's, thrown at once. */
function parseEnvironment(env: NodeJS.ProcessEnv, argv: string[], otelProblems: string[]): Environment {
  const raw: Record<string, string | undefined> = {};
  for (const key of Object.keys(environmentSchema.shape)) {
    const value = env[key];
    raw[key] = value === undefined || value === "" ? undefined : value;
  }
  const roleFlag = readFlag(argv, "--role");
  if (roleFlag !== undefined) raw.ROLE = roleFlag;
  const parsed = environmentSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new ConfigError([
    ...parsed.error.issues.map((issue) => {
      const variable = String(issue.path[0]);
      const shown = variable === "ROLE" && roleFlag !== undefined ? "--role (or ROLE)" : variable;
      return `${shown}=${JSON.stringify(withoutPassword(raw[variable]))}: ${issue.message}`;
    }),
    ...otelProblems,
  ]);
}

/** Settings each valid alone that do not go together. */
function settingProblems(e: Environment): string[] {
  const problems: string[] = [];
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL) {
    problems.push("DATABASE_DIRECT_URL is set without DATABASE_URL: it names PostgreSQL beside the pooler that DATABASE_URL names; set DATABASE_URL (the pooler) too");
  }
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    problems.push("DATABASE_READ_URL is set without DATABASE_URL: a read replica serves beside a PostgreSQL primary, which DATABASE_URL names; the embedded database has none");
  }
  for (const name of ["DATABASE_URL", "DATABASE_DIRECT_URL", "DATABASE_READ_URL"] as const) {
    const url = e[name];
    if (url === undefined) continue;
    try {
      databaseAddress(url);
    } catch (error) {
      if (!(error instanceof DatabaseTlsSettingError)) throw error;
      problems.push(`${name}: ${error.message}`);
    }
  }
  if (e.DATABASE_MIGRATIONS === "verify" && !e.DATABASE_URL) {
    problems.push("DATABASE_MIGRATIONS=verify: needs DATABASE_URL; the embedded database is the service's own and always migrates as it opens");
  }
  return [...problems, ...roleProblems(e), ...timingProblems(e)];
}

function roleProblems(e: Environment): string[] {
  const problems: string[] = [];
  if (e.ROLE !== "all" && !e.DATABASE_URL) {
    problems.push(`ROLE=${e.ROLE}: running one role needs DATABASE_URL; the embedded database serves one process only`);
  }
  if (e.ROLE === "edge") {
    for (const name of ["CATALOGUE_URL", "BOOKING_URL", "REPORTING_URL"] as const) {
      if (!e[name]) problems.push(`${name}: required when ROLE=edge (the address of that subgraph's /graphql)`);
    }
  }
  // Booking reads the catalogue's facts of a product through the graph, in the flow and in supplier confirmations.
  if ((e.ROLE === "booking" || e.ROLE === "worker") && !e.CATALOGUE_URL) {
    problems.push(`CATALOGUE_URL: required when ROLE=${e.ROLE} (the address of the catalogue subgraph's /graphql)`);
  }
  if (e.WEB_CONCURRENCY !== undefined && e.WEB_CONCURRENCY > 1) {
    if (!e.DATABASE_URL) problems.push(`WEB_CONCURRENCY=${e.WEB_CONCURRENCY}: several processes need DATABASE_URL; the embedded database serves one process only (it runs on its own thread)`);
    else if (e.ROLE === "worker") problems.push(`WEB_CONCURRENCY=${e.WEB_CONCURRENCY}: ROLE=worker serves no requests; WORKER_JOB_CONCURRENCY sets how many jobs it runs at once`);
  }
  if (e.ENVIRONMENT === "production" && e.WEBHOOK_ALLOW_PRIVATE_TARGETS) {
    problems.push("WEBHOOK_ALLOW_PRIVATE_TARGETS: never in production (webhooks would reach the service's own network)");
  }
  return problems;
}

function timingProblems(e: Environment): string[] {
  const problems: string[] = [];
  if (e.SHUTDOWN_DRAIN_SECONDS !== undefined && e.SHUTDOWN_DRAIN_SECONDS >= e.SHUTDOWN_GRACE_SECONDS) {
    problems.push(`SHUTDOWN_DRAIN_SECONDS=${e.SHUTDOWN_DRAIN_SECONDS}: must be shorter than SHUTDOWN_GRACE_SECONDS (${e.SHUTDOWN_GRACE_SECONDS}), which bounds the whole stop`);
  }
  if (e.HTTP_HEADERS_TIMEOUT_SECONDS > e.HTTP_REQUEST_TIMEOUT_SECONDS) {
    problems.push(`HTTP_HEADERS_TIMEOUT_SECONDS=${e.HTTP_HEADERS_TIMEOUT_SECONDS}: must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (${e.HTTP_REQUEST_TIMEOUT_SECONDS}), the time for the whole request, head included`);
  }
  return problems;
}

function serviceSettings(e: Environment) {
  const sandbox = e.ENVIRONMENT === "sandbox";
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    publicUrlGiven: e.PUBLIC_URL !== undefined,
    environment: e.ENVIRONMENT,
    authRealm: e.AUTH_REALM,
    seedDemo: e.SEED_DEMO ?? sandbox,
    graphql: { introspection: e.GRAPHQL_INTROSPECTION ?? sandbox, suggestions: e.GRAPHQL_SUGGESTIONS ?? sandbox },
    graphqlIde: e.GRAPHQL_IDE ?? sandbox,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    exchangeRatesFile: e.EXCHANGE_RATES_FILE === undefined ? undefined : path.resolve(e.EXCHANGE_RATES_FILE),
    metrics: { token: e.METRICS_TOKEN, openWithoutToken: sandbox },
    engineSecretsKey: e.ENGINE_SECRETS_KEY === undefined ? undefined : secretKeyOf(e.ENGINE_SECRETS_KEY),
    role: e.ROLE,
    webConcurrency: e.WEB_CONCURRENCY ?? (e.DATABASE_URL && e.ROLE !== "worker" ? availableParallelism() : 1),
    logLevel: e.LOG_LEVEL,
    passwordSetupTtlSeconds: e.PASSWORD_SETUP_TTL_HOURS * 3600,
    subgraphUrls: { catalogue: e.CATALOGUE_URL, booking: e.BOOKING_URL, reporting: e.REPORTING_URL },
  };
}

function databaseSettings(e: Environment) {
  return {
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    databaseReadMaxLagSeconds: e.DATABASE_READ_MAX_LAG_SECONDS,
    databaseMigrations: e.DATABASE_MIGRATIONS,
    databaseRuntimeRole: e.DATABASE_RUNTIME_ROLE,
    dataDir: e.DATA_DIR === "memory" ? "memory" : path.resolve(e.DATA_DIR),
    statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    // The server's own address, not a pooler's in front of it.
    databaseStatementsPerAccount: e.DATABASE_STATEMENTS_PER_ACCOUNT ?? defaultStatementsPerAccount(e.DATABASE_DIRECT_URL ?? e.DATABASE_URL),
  };
}

function requestLimits(e: Environment, connectionRoom: number | undefined) {
  return {
    signIn: {
      maxFailuresPerAccount: e.SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerAddress: e.SIGN_IN_MAX_FAILURES_PER_ADDRESS,
      windowSeconds: e.SIGN_IN_WINDOW_SECONDS,
      maxConcurrentPerAccount: e.SIGN_IN_MAX_CONCURRENT_PER_ACCOUNT,
      maxConcurrentPerAddress: e.SIGN_IN_MAX_CONCURRENT_PER_ADDRESS,
    },
    apiLimits: {
      requests: e.API_RATE_LIMIT,
      windowSeconds: e.API_RATE_LIMIT_WINDOW_SECONDS,
      costCapacity: e.API_COST_BUDGET,
      costRestorePerSecond: e.API_COST_RESTORE_PER_SECOND,
      maxInFlight: e.API_MAX_IN_FLIGHT_PER_ACCOUNT,
    },
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    // Unset: a second, or a quarter of a shorter grace.
    shutdownDrainMs: (e.SHUTDOWN_DRAIN_SECONDS ?? Math.min(1, e.SHUTDOWN_GRACE_SECONDS / 4)) * 1000,
    http: {
      headersTimeoutMs: Math.round(e.HTTP_HEADERS_TIMEOUT_SECONDS * 1000),
      requestTimeoutMs: Math.round(e.HTTP_REQUEST_TIMEOUT_SECONDS * 1000),
      keepAliveTimeoutMs: Math.round(e.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000),
      maxConnections: e.HTTP_MAX_CONNECTIONS ?? Math.max(1, connectionRoom ?? MAX_CONNECTIONS_UNKNOWN_LIMIT),
      maxConnectionsPerAddress: e.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
      loadShedEventLoopDelayMs: e.LOAD_SHED_EVENT_LOOP_DELAY_MS,
    },
    websocket: {
      maxSocketsPerAccount: e.WS_MAX_SOCKETS_PER_ACCOUNT,
      maxSubscriptionsPerAccount: e.WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT,
      maxBufferedBytes: e.WS_MAX_BUFFERED_BYTES,
    },
  };
}

function workerSettings(e: Environment) {
  return {
    workerLoops: e.WORKER_LOOPS,
    octoImportIntervalMs: e.OCTO_IMPORT_INTERVAL_MINUTES * 60_000,
    demoOctoSupplierPort: e.DEMO_OCTO_SUPPLIER_PORT,
    octoCallTimeoutMs: e.OCTO_CALL_TIMEOUT_MS,
    webhookAllowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    workerJobConcurrency: e.WORKER_JOB_CONCURRENCY,
    workerPollMs: e.WORKER_POLL_SECONDS * 1000,
  };
}

/** A value as a problem shows it: a URL's password replaced, since problems reach logs. */
function withoutPassword(value: string | undefined): string | undefined {
  return value?.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, "$1:***@");
}

function trustProxyOf(value: string): boolean | string {
  if (value === "true") return true;
  if (value === "false") return false;
  return value;
}

function readFlag(argv: string[], flag: string): string | undefined {
  const index = argv.findIndex((arg) => arg === flag || arg.startsWith(`${flag}=`));
  if (index === -1) return undefined;
  const arg = argv[index];
  return arg.includes("=") ? arg.slice(flag.length + 1) : argv[index + 1];
}
