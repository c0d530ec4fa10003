import "reflect-metadata";
import { createBenchAccount } from "./bench-accounts.js";
import { AsyncLocalStorage } from "node:async_hooks";
import { execSync, fork, type ChildProcess } from "node:child_process";
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { inArray } from "drizzle-orm";
import { PostgresJsPreparedQuery, PostgresJsSession } from "drizzle-orm/postgres-js/session";
import { loadConfig } from "../core/config.js";
import { createLogger } from "../core/logger.js";
import { openDatabase } from "../drizzle/database.js";
import { bookings } from "../drizzle/schema.js";
import type { EdgeGraph } from "../gateway/gateway.js";
import { createService, type Service } from "../server/service.js";
import { freshBenchDatabase } from "./bench-database.js";
import { everyDay, familySetup } from "../test/support/booking.js";
import { addDays, call, connect, FlowTarget, holdBooking, percentile, runFlows, signIn, sleep, type Account, type FlowResult } from "./booking/flow-client.js";
import { productRequest, supplierRequest } from "../test/support/catalogue.js";
import { PreparedStatementPolicy } from "../drizzle/prepared-statements.js";
import { startPgbouncer, type Pgbouncer } from "../test/support/pgbouncer.js";
import { processCpuMs } from "./process-cpu.js";
import { writeRunResults } from "./results-file.js";
import { NO_ACCOUNT_LIMITS, ONE_CLIENT_ADDRESS, ONE_SUBSCRIBING_ACCOUNT } from "./service-settings.js";

/**
 * Every client of the bench connects from 127.0.0.1, some in the service's own process: the cap
 * per client address and load shedding would measure their refusals, not the service.
 */

/**
 * Booking flows through REST on PostgreSQL, dates to CONFIRMED: flows per second at several
 * concurrencies with the server time of a flow split into REST layer, gateway, subgraph and SQL;
 * then the delay from the confirmation job's commit to the `bookingStatusChanged` message at a
 * client while N idle subscribers are connected (held by a child process, bench/idle-subscribers.ts).
 *
 *   npm run bench:booking -- [--concurrency 1,8,32] [--seconds 20] [--subscribers 0,1000,10000]
 *     [--latency-flows 100] [--latency-concurrency 4] [--per-connection 1] [--pool 10] [--settle 11]
 *     [--admin-url postgres://postgres@127.0.0.1:5432/postgres] [--no-append] [--keep-database] [--note TEXT] [--pooler] [--unprepared]
 *
 * `--pooler`: the service reaches the database through PgBouncer in transaction mode
 * (test/support/pgbouncer.ts), as DATABASE_URL and DATABASE_DIRECT_URL say behind a pooler.
 * `--unprepared`: directly, but with no statement prepared, as through a pooler: the two runs
 * apart tell what the pooler's hop costs from what losing prepared statements does.
 *
 * Creates a fresh database bench_booking_<timestamp> on the admin URL's server and drops it at the end.
 * Writes its results to a new file, bench/results/<date>-booking-flow[-pooler|-unprepared].md, unless
 * --no-append. `--subscribers ""` skips the
 * subscription part; `--settle` is the idle wait (s) before reading pg_stat_database.
 *
 * A flow confirms once its subscription's first message (the booking as it is) has arrived, so the
 * CONFIRMED message cannot be missed; after 2 s without it, it confirms anyway and, 3 s after
 * confirming, also polls GET booking (the table says how many flows the subscription confirmed).
 *
 * How time is attributed (bench-only instrumentation, nothing in the service changes):
 * - server time of a request: from the HTTP server's `request` event to the response's `finish`;
 * - gateway: the edge graph's `execute`; subgraph: each in-process subgraph's `createContext` and
 *   `executeInProcess` (the in-process data source calls both);
 * - SQL: drizzle's postgres.js prepared-query `execute`/`all`, from the call to the mapped rows
 *   (wire round trip, waiting for a pooled connection, postgres.js parsing), plus BEGIN and COMMIT of
 *   each transaction (transaction time minus its body);
 * - each piece of work is charged to the request (or the worker, or the WebSocket side) it runs
 *   for through AsyncLocalStorage; exclusive times subtract the layers nested inside;
 * - the patches: drizzle's postgres.js PreparedQuery and Session prototypes, the service's graph
 *   and in-process subgraph objects, and the event channel's (private) `dispatch`.
 */
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    concurrency: { type: "string", default: "1,8,32" },
    seconds: { type: "string", default: "20" },
    subscribers: { type: "string", default: "0,1000,10000" },
    "latency-flows": { type: "string", default: "100" },
    "latency-concurrency": { type: "string", default: "4" },
    "per-connection": { type: "string", default: "1" },
    pool: { type: "string", default: "10" },
    settle: { type: "string", default: "11" },
    "admin-url": { type: "string", default: process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    "no-append": { type: "boolean", default: false },
    "keep-database": { type: "boolean", default: false },
    note: { type: "string", default: "" },
    pooler: { type: "boolean", default: false },
    unprepared: { type: "boolean", default: false },
  },
});
const list = (text: string) => text.split(",").filter(Boolean).map(Number);
const concurrencies = list(values.concurrency);
const flowSeconds = Number(values.seconds);
const subscriberLevels = list(values.subscribers).sort((a, b) => a - b);
const latencyFlows = Number(values["latency-flows"]);
const latencyConcurrency = Number(values["latency-concurrency"]);
const perConnection = Number(values["per-connection"]);
const poolSize = Number(values.pool);
const settleSeconds = Number(values.settle);

const PASSWORD = "benchmark password 1";
const STEPS = ["dates", "options", "set option", "prices", "set prices", "create booking", "answer questions", "confirm", "poll booking"] as const;

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : "n/a");
const pct = (part: number, whole: number) => (whole > 0 ? `${Math.round((100 * part) / whole)} %` : "n/a");
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

// ---------------------------------------------------------------------------------------------
// Instrumentation
// ---------------------------------------------------------------------------------------------

type Layer = "rest" | "gateway" | "subgraph";
interface Work {
  gatewayMs: number;
  subgraphMs: number;
  /** Of subgraphMs: building the subgraph context (token verification, loaders). */
  contextMs: number;
  sqlMs: Record<Layer, number>;
  statements: number;
}
interface RequestRecord extends Work {
  step: string;
  serverMs: number;
}
type Source = "worker" | "websocket" | "other";
interface Scope {
  /** The request this work is for; absent for the worker and the WebSocket side. */
  request?: RequestRecord;
  source: Source;
  layer: Layer;
  /** pg_notify payloads sent inside the current transaction. */
  notices?: string[];
}
const newWork = (): Work => ({ gatewayMs: 0, subgraphMs: 0, contextMs: 0, sqlMs: { rest: 0, gateway: 0, subgraph: 0 }, statements: 0 });
const sqlOf = (work: Work) => work.sqlMs.rest + work.sqlMs.gateway + work.sqlMs.subgraph;

class Phase {
  requests: RequestRecord[] = [];
  /** Time in the event channel's fan-out of notifications to every listener, and how many it fanned out. */
  fanOut = { ms: 0, events: 0 };
  worker = newWork();
  websocket = newWork();
  other = newWork();
}
let phase = new Phase();
const als = new AsyncLocalStorage<Scope>();
/** Work with no scope is the WebSocket side: graphql-ws messages and the LISTEN connection's notifications carry no request's context. */
const workOf = (scope: Scope | undefined): Work => scope?.request ?? phase[scope?.source ?? "websocket"];
/** Commit of each transaction that announced a booking as CONFIRMED: COMMIT sent and acknowledged (performance.now()). */
const confirmationCommits = new Map<string, { sentAt: number; ackAt: number }>();

function addSql(scope: Scope | undefined, milliseconds: number, statements: number) {
  const work = workOf(scope);
  work.sqlMs[scope?.layer ?? "rest"] += milliseconds;
  work.statements += statements;
}

function instrumentSql() {
  type Query = { queryString: string; params: unknown[] };
  const prepared = PostgresJsPreparedQuery.prototype as unknown as Record<"execute" | "all", (this: Query, ...args: unknown[]) => Promise<unknown>>;
  for (const name of ["execute", "all"] as const) {
    const original = prepared[name];
    prepared[name] = async function (this: Query, ...args: unknown[]) {
      const scope = als.getStore();
      if (scope?.notices && this.queryString.includes("pg_notify")) scope.notices.push(String(this.params[1]));
      const started = performance.now();
      try {
        return await original.apply(this, args);
      } finally {
        addSql(scope, performance.now() - started, 1);
      }
    };
  }
  const session = PostgresJsSession.prototype as unknown as { transaction: (body: (tx: unknown) => Promise<unknown>, config?: unknown) => Promise<unknown> };
  const transaction = session.transaction;
  session.transaction = async function (this: unknown, body: (tx: unknown) => Promise<unknown>, config?: unknown) {
    const scope = als.getStore();
    const notices: string[] = [];
    const started = performance.now();
    let bodyStarted = 0;
    let bodyEnded = 0;
    const timedBody = async (tx: unknown) => {
      bodyStarted = performance.now();
      try {
        return await body(tx);
      } finally {
        bodyEnded = performance.now();
      }
    };
    try {
      const result = await als.run({ ...(scope ?? { source: "other", layer: "rest" }), notices }, () => transaction.call(this, timedBody, config));
      const ackAt = performance.now();
      for (const text of notices) {
        const event = JSON.parse(text) as { type?: string; status?: string; bookingId?: string };
        if (event.type === "booking.status" && event.status === "CONFIRMED" && event.bookingId) confirmationCommits.set(event.bookingId, { sentAt: bodyEnded, ackAt });
      }
      return result;
    } finally {
      const ended = performance.now();
      // BEGIN (with the wait for a pooled connection) and COMMIT or ROLLBACK.
      addSql(scope, (bodyStarted || ended) - started + (bodyEnded ? ended - bodyEnded : 0), 2);
    }
  };
}

async function inLayer<T>(layer: "gateway" | "subgraph", run: () => Promise<T>, context = false): Promise<T> {
  const scope = als.getStore() ?? { source: "websocket", layer: "rest" };
  const started = performance.now();
  try {
    return await als.run({ ...scope, layer }, run);
  } finally {
    const work = workOf(scope);
    const elapsed = performance.now() - started;
    if (layer === "gateway") work.gatewayMs += elapsed;
    else work.subgraphMs += elapsed;
    if (context) work.contextMs += elapsed;
  }
}

function instrumentService(service: Service) {
  const edge = service.edge!;
  const graph = edge.graph;
  const execute = graph.execute.bind(graph);
  graph.execute = ((request, context) => inLayer("gateway", () => execute(request, context))) as EdgeGraph["execute"];
  for (const running of Object.values(edge.subgraphs)) {
    const createContext = running!.createContext;
    running!.createContext = (headers) => inLayer("subgraph", () => createContext(headers), true);
    const executeInProcess = running!.executeInProcess;
    running!.executeInProcess = (request, contextValue) => inLayer("subgraph", () => executeInProcess(request, contextValue));
  }
  // First listener of each request: the request's record becomes the async context of everything it runs.
  service.app.server.prependListener("request", (request, response) => {
    const header = request.headers["x-bench-step"];
    const record: RequestRecord = { ...newWork(), step: typeof header === "string" ? header : "", serverMs: 0 };
    const started = performance.now();
    als.enterWith({ request: record, source: "other", layer: "rest" });
    response.once("finish", () => {
      record.serverMs = performance.now() - started;
      if (record.step) phase.requests.push(record);
    });
  });
}

/** For flows confirmed through their subscription: the CONFIRMED message's arrival minus the worker's COMMIT acknowledgement. */
const commitToClient = (flows: FlowResult[]) =>
  flows.filter((f) => f.bySubscription).map((f) => f.receivedAt - (confirmationCommits.get(f.bookingId)?.ackAt ?? NaN)).filter(Number.isFinite);

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

interface DbStats {
  activeMs: number;
  idleInTransactionMs: number;
  commits: number;
}

const nodeCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function main() {
  const benchDatabase = await freshBenchDatabase(values["admin-url"], "bench_booking");
  const { admin, name: databaseName, url: databaseUrl, version: postgresVersion } = benchDatabase;
  console.log(`database ${databaseName} (${postgresVersion})`);

  let child: ChildProcess | undefined;
  let service: Service | undefined;
  let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
  let bouncer: Pgbouncer | undefined;
  try {
    instrumentSql();
    if (values.pooler) bouncer = await startPgbouncer(databaseUrl);
    const serviceUrl = bouncer ? bouncer.through(databaseUrl) : databaseUrl;
    const directUrl = bouncer ? databaseUrl : undefined;
    database = await openDatabase({ databaseUrl: serviceUrl, directUrl, maxConnections: poolSize, ...(values.unprepared ? { preparedStatements: new PreparedStatementPolicy(0) } : {}) });
    // The per-account request limit off: one lane is one account, and a lane at concurrency 1 now
    // makes about 90 requests a second, past the 1,200 a minute an integrator is allowed.
    const config = loadConfig({ DATABASE_URL: serviceUrl, ...(directUrl ? { DATABASE_DIRECT_URL: directUrl } : {}), PORT: "0", HOST: "127.0.0.1", SEED_DEMO: "false", LOG_LEVEL: "silent", ROLE: "all", ...NO_ACCOUNT_LIMITS, ...ONE_CLIENT_ADDRESS, ...ONE_SUBSCRIBING_ACCOUNT });
    // Made inside the worker's scope: the worker's timers, and so its statements, carry it.
    service = await als.run({ source: "worker", layer: "rest" }, () => createService(config, { database: database!, logger: createLogger("silent") }));
    instrumentService(service);
    await service.listen();
    config.publicUrl = service.url!;
    const target = new FlowTarget(service.url!, service.identity.paths.token, PASSWORD);
    const events = service.database.events as unknown as { dispatch: (channel: string, text: string) => void };
    /** Subscribers the edge's subscription engine holds (one channel listener serves them all). */
    const handlerCount = () => service!.edge!.subscriptions.stats().subscribers;
    // The channel hands each notification to every listener: time that loop.
    const dispatch = events.dispatch.bind(events);
    events.dispatch = (channel, text) => {
      const started = performance.now();
      dispatch(channel, text);
      phase.fanOut.ms += performance.now() - started;
      phase.fanOut.events++;
    };

    // Backends live as long as their pooled connection, so their CPU counters span the run.
    const backendCpu = new Map<number, number>();
    const cpu = async () => {
      const backends = await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${databaseName}`;
      for (const { pid } of backends) backendCpu.set(pid, processCpuMs(pid));
      return { postgres: sum([...backendCpu.values()]), node: nodeCpuMs() };
    };
    const dbStats = async (): Promise<DbStats> => {
      const [row] = await admin<{ active: number; idle: number; commits: string }[]>`
        select active_time as active, idle_in_transaction_time as idle, xact_commit as commits from pg_stat_database where datname = ${databaseName}`;
      return { activeMs: Number(row.active), idleInTransactionMs: Number(row.idle), commits: Number(row.commits) };
    };

    // A content partner's product, open every day, with room for every flow and no confirmation delay.
    const account = async (role: "CONSUMER" | "CONTENT_PARTNER", index: string): Promise<Account> => {
      const username = await createBenchAccount(service!, role, { prefix: `bench-${index}`, password: PASSWORD, consumerCountry: "NL" });
      const created: Account = { username, token: "" };
      await signIn(target, created);
      return created;
    };
    const partner = await account("CONTENT_PARTNER", "partner");
    const today = new Date().toISOString().slice(0, 10);
    const supplier = await call(target, partner, "", "POST", "/api/supplier", supplierRequest(), 201);
    const product = await call(target, partner, "", "POST", `/api/supplier/${supplier.id}/product`, productRequest({ availabilityPeriods: everyDay(today, addDays(today, 730)) }), 201);
    target.productId = product.id;
    await call(target, partner, "", "PUT", `/api/supplier/${supplier.id}/product/${target.productId}/booking-setup`, familySetup({ capacityPerSlot: 100_000, confirmationDelaySeconds: 0 }));
    const maxLanes = Math.max(...concurrencies, latencyConcurrency);
    const lanes: Account[] = [];
    for (let i = 0; i < maxLanes; i++) lanes.push(await account("CONSUMER", `lane${i}`));
    const idleOwner = await account("CONSUMER", "idle");

    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const lines: string[] = [];
    const machine = `${os.availableParallelism()} CPUs (${os.cpus()[0]?.model.trim() ?? "cpu"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${postgresVersion} on the same machine, \`ulimit -n\` ${execSync("sh -c 'ulimit -n'").toString().trim()}`;
    const commit = execSync("git rev-parse --short HEAD", { cwd: fileURLToPath(new URL("..", import.meta.url)) }).toString().trim();
    const dirty = execSync("git status --porcelain -- core drizzle gateway identity rest-compat server subgraphs schema", { cwd: fileURLToPath(new URL("..", import.meta.url)) })
      .toString()
      .trim();

    // Warm-up: query plans, JIT, prepared statements.
    for (const lane of lanes.slice(0, 2)) lane.client = await connect(target, lane);
    await runFlows(target, lanes.slice(0, 2), { total: 4 });
    for (const lane of lanes.slice(0, 2)) await lane.client!.dispose();

    // ---- throughput and server-time split ----
    interface Level {
      concurrency: number;
      flows: FlowResult[];
      seconds: number;
      phase: Phase;
      db: DbStats;
      /** CPU ms during the flows: PostgreSQL backends of the bench database, and this process (service and its clients). */
      cpu: { postgres: number; node: number };
      loopP99: number;
      /** Share of the level's wall time this process's event loop was busy. */
      elu: number;
    }
    const levels: Level[] = [];
    // pg_stat_database is flushed by each backend at most once a second, and by an idle one after
    // 10 s: every level starts after a settle, and its statistics end with the next settle (which
    // so also counts the next level's few sign-ins).
    let snapshot: DbStats | undefined;
    const settle = async () => {
      await sleep(settleSeconds * 1000);
      const now = await dbStats();
      if (snapshot && levels.length) {
        const then = snapshot;
        levels.at(-1)!.db = Object.fromEntries(Object.entries(now).map(([key, value]) => [key, value - then[key as keyof DbStats]])) as unknown as DbStats;
      }
      snapshot = now;
    };
    for (const concurrency of concurrencies) {
      const active = lanes.slice(0, concurrency);
      for (const lane of active) {
        await signIn(target, lane);
        lane.client = await connect(target, lane);
      }
      await settle();
      phase = new Phase();
      loopDelay.reset();
      const cpuBefore = await cpu();
      const eluBefore = performance.eventLoopUtilization();
      const { flows, seconds } = await runFlows(target, active, { deadline: performance.now() + flowSeconds * 1000 });
      const elu = performance.eventLoopUtilization(eluBefore).utilization;
      const cpuAfter = await cpu();
      const measured = phase;
      phase = new Phase();
      const loopP99 = loopDelay.percentile(99) / 1e6;
      for (const lane of active) await lane.client!.dispose();
      levels.push({ concurrency, flows, seconds, phase: measured, db: { activeMs: NaN, idleInTransactionMs: NaN, commits: NaN }, cpu: { postgres: cpuAfter.postgres - cpuBefore.postgres, node: cpuAfter.node - cpuBefore.node }, loopP99, elu });
      console.log(`concurrency ${concurrency}: ${flows.length} flows in ${seconds.toFixed(1)} s = ${(flows.length / seconds).toFixed(2)} flows/s`);
    }
    await settle();

    // ---- subscription delivery with idle subscribers ----
    interface LatencyLevel {
      subscribers: number;
      connections: number;
      setupSeconds: number;
      handlers: number;
      flows: FlowResult[];
      commitToClient: number[];
      sentToClient: number[];
      confirmedAtToClient: number[];
      loopP99: number;
      elu: number;
      rssMiB: number;
      added: number;
      phase: Phase;
      childStats: Record<string, unknown>;
    }
    const latency: LatencyLevel[] = [];
    const idleBookings: string[] = [];
    if (subscriberLevels.length) {
      await signIn(target, idleOwner);
      idleOwner.client = await connect(target, idleOwner);
      for (let i = 0; i < 20; i++) idleBookings.push((await holdBooking(target, idleOwner, target.nextSlot())).id);
      await idleOwner.client.dispose();
      child = fork(fileURLToPath(new URL("./idle-subscribers.ts", import.meta.url)), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
      const childMessages: Record<string, unknown>[] = [];
      let childWaiter: ((m: Record<string, unknown>) => void) | undefined;
      child.on("message", (m: Record<string, unknown>) => (childWaiter ? childWaiter(m) : childMessages.push(m)));
      const fromChild = (type: string) =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          const take = (m: Record<string, unknown>) => {
            if (m.type === "failed") reject(new Error(`idle subscribers: ${m.error}`));
            else if (m.type === type) {
              childWaiter = undefined;
              resolve(m);
            }
          };
          const queued = childMessages.splice(0);
          childWaiter = take;
          queued.forEach(take);
        });
      await fromChild("ready");
      const baseline = handlerCount();
      let idle = 0;
      let setupSeconds = 0;
      let connections = 0;
      for (const subscribers of subscriberLevels) {
        const added = subscribers - idle;
        if (subscribers > idle) {
          await signIn(target, idleOwner);
          child.send({
            type: "add",
            url: `${target.baseUrl.replace("http", "ws")}/graphql`,
            token: idleOwner.token,
            bookingIds: idleBookings,
            count: subscribers - idle,
            perConnection,
            openConcurrency: 64,
          });
          const added = await fromChild("added");
          setupSeconds = Number(added.seconds);
          connections = Number(added.connections);
          console.log(`idle subscribers: ${JSON.stringify(added)}`);
          idle = subscribers;
        }
        const handlers = handlerCount() - baseline;
        if (handlers !== subscribers) console.warn(`server holds ${handlers} subscribers for ${subscribers} idle subscriptions`);
        const measuredLanes = lanes.slice(0, latencyConcurrency);
        for (const lane of measuredLanes) {
          await signIn(target, lane);
          lane.client = await connect(target, lane);
        }
        phase = new Phase();
        loopDelay.reset();
        const eluBefore = performance.eventLoopUtilization();
        const { flows } = await runFlows(target, measuredLanes, { total: latencyFlows });
        const elu = performance.eventLoopUtilization(eluBefore).utilization;
        const measured = phase;
        phase = new Phase();
        const loopP99 = loopDelay.percentile(99) / 1e6;
        for (const lane of measuredLanes) await lane.client!.dispose();
        child.send({ type: "stats" });
        const childStats = await fromChild("stats");
        const bySubscription = flows.filter((f) => f.bySubscription);
        const confirmedAt = new Map<string, number>();
        if (bySubscription.length) {
          const read = await database.db
            .select({ id: bookings.id, confirmedAt: bookings.confirmedAt })
            .from(bookings)
            .where(inArray(bookings.id, bySubscription.map((f) => f.bookingId)));
          for (const r of read) if (r.confirmedAt) confirmedAt.set(r.id, r.confirmedAt.getTime());
        }
        latency.push({
          subscribers,
          connections: subscribers ? connections : 0,
          setupSeconds: subscribers ? setupSeconds : 0,
          handlers,
          flows,
          commitToClient: commitToClient(flows),
          sentToClient: bySubscription.map((f) => f.receivedAt - (confirmationCommits.get(f.bookingId)?.sentAt ?? NaN)).filter(Number.isFinite),
          confirmedAtToClient: bySubscription.map((f) => performance.timeOrigin + f.receivedAt - (confirmedAt.get(f.bookingId) ?? NaN)).filter(Number.isFinite),
          loopP99,
          elu,
          rssMiB: process.memoryUsage().rss / 2 ** 20,
          added,
          phase: measured,
          childStats,
        });
        const last = latency.at(-1)!;
        console.log(`${subscribers} idle: commit→client p50 ${ms(percentile(last.commitToClient, 50))} p99 ${ms(percentile(last.commitToClient, 99))} (${last.commitToClient.length} samples)`);
      }
    }
    loopDelay.disable();

    // ---- report ----
    lines.push(
      `\n## ${today}: booking flow on postgres${values.pooler ? " through PgBouncer (transaction mode)" : values.unprepared ? " directly, no statement prepared" : ""}, REST, dates to CONFIRMED${values.note ? ` (${values.note})` : ""}`,
      "",
      `Machine: ${machine}. Service: commit ${commit}${dirty ? " plus uncommitted changes in the working tree" : ""}, role \`all\` in the bench's process (edge, gateway, three subgraphs, worker woken by each committed job, up to ${config.workerJobConcurrency} jobs at once), pool of ${poolSize} connections, fresh database \`${databaseName}\` (dropped afterwards).`,
      "",
      `\`npm run bench:booking -- --concurrency ${values.concurrency} --seconds ${flowSeconds} --subscribers ${values.subscribers} --latency-flows ${latencyFlows} --latency-concurrency ${latencyConcurrency} --per-connection ${perConnection}\``,
      "",
      "A flow is one consumer account's REST calls: dates (a week), options (GET, then a PUT per option: start time, route, lunch), prices (GET, PUT 2 adults), POST booking, PUT questions until complete (twice: the pickup answer reveals a follow-up), POST confirm, then the CONFIRMED message of its `bookingStatusChanged` subscription (opened after the booking, and confirm sent once its first message, the booking as it is, arrived; GET booking polling only as a fallback). Each lane has its own account, organisation and WebSocket; flows use different dates (capacity 100,000 a slot, `confirmationDelaySeconds: 0`). The lanes' HTTP and WebSocket clients run in the service's process, as in the search benchmark; the idle subscribers below run in a child process.",
      "",
      `### Flows per second (${flowSeconds} s a level, after a warm-up of 4 flows)`,
      "",
      "Flow: first request to the CONFIRMED message. Confirm → CONFIRMED: from the confirm response to that message (the notification waking the worker, the job, the delivery). Job commit → client: from the worker's COMMIT acknowledgement to the message. Event-loop utilisation: share of the level's wall time this process's event loop was busy.",
      "",
      "| concurrency | flows | seconds | flows per second | flow p50 ms | flow p99 ms | confirm → CONFIRMED p50 ms | p99 ms | job commit → client p50 ms | p99 ms | by subscription | event-loop utilisation | event-loop delay p99 ms |",
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const level of levels) {
      const wall = level.flows.map((f) => f.wallMs);
      const wait = level.flows.map((f) => f.confirmationMs);
      const delivery = commitToClient(level.flows);
      lines.push(
        `| ${level.concurrency} | ${level.flows.length} | ${level.seconds.toFixed(1)} | ${(level.flows.length / level.seconds).toFixed(2)} | ${ms(percentile(wall, 50))} | ${ms(percentile(wall, 99))} | ${ms(percentile(wait, 50))} | ${ms(percentile(wait, 99))} | ${ms(percentile(delivery, 50))} | ${ms(percentile(delivery, 99))} | ${level.flows.filter((f) => f.bySubscription).length} of ${level.flows.length} | ${pct(level.elu, 1)} | ${ms(level.loopP99)} |`,
      );
    }

    const split = (records: RequestRecord[]) => {
      const server = sum(records.map((r) => r.serverMs));
      const gateway = sum(records.map((r) => r.gatewayMs));
      const subgraph = sum(records.map((r) => r.subgraphMs));
      const sql = sum(records.map(sqlOf));
      return {
        server,
        sql,
        rest: server - gateway - sum(records.map((r) => r.sqlMs.rest)),
        gateway: gateway - subgraph - sum(records.map((r) => r.sqlMs.gateway)),
        subgraph: subgraph - sum(records.map((r) => r.sqlMs.subgraph)),
        statements: sum(records.map((r) => r.statements)),
        context: sum(records.map((r) => r.contextMs)),
      };
    };
    lines.push(
      "",
      "### Server time of a flow, split by layer",
      "",
      "Per flow, the REST requests' server time (HTTP `request` event to response `finish`) and each layer's own time: REST layer (Fastify, token check, schema validation, response shaping), gateway (`@apollo/gateway` planning and orchestration), subgraph (context, GraphQL execution, resolvers and services of the booking and catalogue subgraphs), SQL (statements timed at drizzle's postgres.js driver, BEGIN and COMMIT included: PostgreSQL's work plus the round trip, the wait for a pooled connection and for this process's event loop, and row parsing).",
      "",
      "| concurrency | REST server ms per flow | REST layer | gateway | subgraph | SQL | SQL statements |",
      "|---|---|---|---|---|---|---|",
    );
    for (const level of levels) {
      const n = level.flows.length;
      const s = split(level.phase.requests);
      lines.push(
        `| ${level.concurrency} | ${ms(s.server / n)} | ${ms(s.rest / n)} (${pct(s.rest, s.server)}) | ${ms(s.gateway / n)} (${pct(s.gateway, s.server)}) | ${ms(s.subgraph / n)} (${pct(s.subgraph, s.server)}) | ${ms(s.sql / n)} (${pct(s.sql, s.server)}) | ${(s.statements / n).toFixed(0)} |`,
      );
    }
    lines.push(
      "",
      "Beside the requests, per flow: the worker's confirmation job (its SQL time, and the share of the level's wall time the worker's jobs spent waiting on SQL, summed over jobs running at once), the WebSocket side (the subscribe read, the first message and the two status messages, through the gateway), and what the server processes did: `pg_stat_database.active_time` and `idle_in_transaction_time` of the bench database (all its sessions, read after an idle settle so that backends have flushed them), CPU of its PostgreSQL backends (`/proc`) and of this Node process (service and the bench's clients).",
      "",
      "| concurrency | worker SQL ms per job | worker waiting on SQL | WebSocket ms per flow (of it SQL) | PostgreSQL active ms | idle in transaction ms | PostgreSQL CPU ms | Node CPU ms | Node CPU of 2 cores |",
      "|---|---|---|---|---|---|---|---|---|",
    );
    for (const level of levels) {
      const n = level.flows.length;
      const ws = level.phase.websocket;
      const workerSql = sqlOf(level.phase.worker);
      lines.push(
        `| ${level.concurrency} | ${ms(workerSql / n)} | ${pct(workerSql, level.seconds * 1000)} | ${ms(ws.gatewayMs / n)} (${ms(sqlOf(ws) / n)}) | ${ms(level.db.activeMs / n)} | ${ms(level.db.idleInTransactionMs / n)} | ${ms(level.cpu.postgres / n)} | ${ms(level.cpu.node / n)} | ${pct(level.cpu.node, level.seconds * 1000 * os.availableParallelism())} |`,
      );
    }
    const stepTable = (level: Level) => {
      const table = [
        "",
        `Per request at concurrency ${level.concurrency}, by step (mean ms unless marked):`,
        "",
        "| step | requests per flow | server p50 | server mean | REST layer | gateway | subgraph | of it subgraph context | SQL | statements |",
        "|---|---|---|---|---|---|---|---|---|---|",
      ];
      for (const step of STEPS) {
        const records = level.phase.requests.filter((r) => r.step === step);
        if (!records.length) continue;
        const s = split(records);
        const n = records.length;
        table.push(
          `| ${step} | ${(n / level.flows.length).toFixed(1)} | ${ms(percentile(records.map((r) => r.serverMs), 50))} | ${ms(s.server / n)} | ${ms(s.rest / n)} | ${ms(s.gateway / n)} | ${ms(s.subgraph / n)} | ${ms(s.context / n)} | ${ms(s.sql / n)} | ${(s.statements / n).toFixed(1)} |`,
        );
      }
      return table;
    };
    if (levels[0]) lines.push(...stepTable(levels[0]));
    for (const level of levels.slice(1)) console.log(stepTable(level).join("\n"));

    if (latency.length) {
      lines.push(
        "",
        `### Subscription delivery: confirmation job's commit → CONFIRMED message at a client`,
        "",
        `${latencyFlows} flows a level at concurrency ${latencyConcurrency}, measured by clients in the service's process; the idle subscribers are held by a child process (${perConnection} subscription${perConnection === 1 ? "" : "s"} per WebSocket connection), all one consumer account's, on ${idleBookings.length} ON_HOLD bookings of that account that do not change during the run. Commit: the worker's transaction that sets CONFIRMED and sends the NOTIFY, timed by the bench around its COMMIT (sent, acknowledged), on the same clock as the client. \`confirmed_at\`: the column the worker sets from its clock before the transaction begins (an upper bound on the delay). Fan-out: the event channel's loop handing each notification (ON_HOLD, PENDING_CONFIRM, CONFIRMED of every flow) to every listener.`,
        "",
        "| idle subscribers | connections | subscribing the added ones | samples | commit ack → client p50 ms | p99 ms | max ms | COMMIT sent → client p99 ms | `confirmed_at` → client p50 ms | p99 ms | fan-out ms per event | event-loop utilisation | event-loop delay p99 ms | process RSS MiB |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
      );
      for (const level of latency) {
        lines.push(
          `| ${level.subscribers.toLocaleString("en")} | ${level.connections.toLocaleString("en")} | ${level.added ? `${level.added.toLocaleString("en")} in ${level.setupSeconds.toFixed(1)} s` : "–"} | ${level.commitToClient.length} | ${ms(percentile(level.commitToClient, 50))} | ${ms(percentile(level.commitToClient, 99))} | ${ms(Math.max(...level.commitToClient))} | ${ms(percentile(level.sentToClient, 99))} | ${ms(percentile(level.confirmedAtToClient, 50))} | ${ms(percentile(level.confirmedAtToClient, 99))} | ${(level.phase.fanOut.ms / level.phase.fanOut.events).toFixed(2)} | ${pct(level.elu, 1)} | ${ms(level.loopP99)} | ${level.rssMiB.toFixed(0)} |`,
        );
      }
    }
    const results = { levels: levels.map((l) => ({ c: l.concurrency, n: l.flows.length, s: l.seconds, split: split(l.phase.requests), worker: l.phase.worker, ws: l.phase.websocket, db: l.db, cpu: l.cpu, elu: l.elu, loopP99: l.loopP99, firstMissing: l.flows.filter((f) => f.firstMessageMissing).length })), latency: latency.map((l) => ({ subscribers: l.subscribers, handlers: l.handlers, samples: l.commitToClient.length, flows: l.flows.length, child: l.childStats, ws: l.phase.websocket, worker: l.phase.worker, loopP99: l.loopP99 })) };
    console.log(JSON.stringify(results, null, 1));
    console.log(lines.join("\n"));
    if (!values["no-append"]) console.log(`Written to ${writeRunResults(`booking-flow${values.pooler ? "-pooler" : values.unprepared ? "-unprepared" : ""}`, lines.join("\n"), { date: today })}`);
  } finally {
    if (child?.connected) {
      child.send({ type: "close" });
      await new Promise((resolve) => child!.once("exit", resolve));
    }
    await service?.close();
    await database?.close();
    await bouncer?.stop();
    await benchDatabase.close(values["keep-database"]);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
