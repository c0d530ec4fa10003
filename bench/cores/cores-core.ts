import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runOperatorCommand } from "../../server/operator-cli.js";
import { everyDay, familySetup } from "../../test/support/booking.js";
import { productRequest, supplierRequest } from "../../test/support/catalogue.js";
import { freePort } from "../../test/support/free-port.js";
import { driveFlowsInOwnProcess, type DriveResult } from "../booking/flow-driver.js";
import { addDays, call, FlowTarget, signIn as flowSignIn } from "../booking/flow-client.js";
import { cellOf, SEARCH_EXPRESSIONS, startLoadGenerator, type Cell } from "../paths/paths-core.js";
import { postgresCpuMs, treeCpuMs } from "../process-cpu.js";
import { NO_ACCOUNT_LIMITS } from "../service-settings.js";

/**
 * REST search throughput of the service as `npm start` runs it, per number of serving processes
 * (WEB_CONCURRENCY): does a second core add throughput? The service runs in its own process tree,
 * the load generator in another, so neither shares an event loop with the other.
 */
export interface CoresOptions {
  /** postgres:// of the database; absent: a PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** WEB_CONCURRENCY values to compare; more than 1 needs databaseUrl. */
  processes: number[];
  concurrencies: number[];
  seconds: number;
  /** Writes a V8 CPU profile of each service process to this directory when it stops (`--cpu-prof`). */
  profileDir?: string;
}

export interface CoresRun {
  processes: number;
  expression: string;
  cells: Cell[];
  /** Per cell, CPU ms per answered page from /proc: the service's process tree, and every PostgreSQL server process. */
  cpuPerPage: { service: number; postgres: number }[];
}

export const PASSWORD = "benchmark cores password 1";
const root = fileURLToPath(new URL("../..", import.meta.url));

/** node's arguments in package.json's `start` script: the service runs exactly as `npm start` starts it. */
export function npmStartArguments(): string[] {
  const script: string = JSON.parse(readFileSync(`${root}/package.json`, "utf8")).scripts.start;
  const [exec, node, ...args] = script.trim().split(/\s+/);
  if (exec !== "exec" || node !== "node") throw new Error(`package.json's start script is not "exec node ...": ${script}`);
  return args;
}


/** This process's environment pointed at the benchmark's database, and nothing else's. */
function databaseEnv(options: Pick<CoresOptions, "databaseUrl" | "dataDir">, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: options.dataDir, ...extra };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else delete env.DATABASE_URL;
  return env;
}

/** The service as `npm start` runs it, with its own WEB_CONCURRENCY; resolves once every process listens. `env` overrides the benchmark's settings. */
export async function startService(options: Pick<CoresOptions, "databaseUrl" | "dataDir" | "profileDir"> & { profileIntervalUs?: number }, processes: number, env: Record<string, string> = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const childEnv = databaseEnv(options, {
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: base,
    WEB_CONCURRENCY: String(processes),
    LOG_LEVEL: "info",
    ...NO_ACCOUNT_LIMITS,
    SEED_DEMO: "true",
    ...env,
  });
  const interval = options.profileIntervalUs ? ["--cpu-prof-interval", String(options.profileIntervalUs)] : [];
  const profile = options.profileDir ? ["--cpu-prof", ...interval, "--cpu-prof-dir", options.profileDir] : [];
  const child = spawn(process.execPath, [...profile, ...npmStartArguments()], { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const deadline = Date.now() + 180_000;
  const listening = () => new Set([...output.matchAll(/"pid":(\d+),"msg":"Server listening at/g)].map((m) => m[1])).size;
  while (listening() < processes) {
    if (child.exitCode !== null || Date.now() > deadline) {
      // Not left running (with its cluster) when the caller never gets a handle to stop it.
      child.kill("SIGKILL");
      throw new Error(`the service did not start:\n${output.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base,
    pid: child.pid!,
    child,
    output: () => output,
    exited,
    async stop(): Promise<void> {
      child.kill("SIGTERM");
      const code = await exited;
      if (code !== 0) throw new Error(`the service exited with ${code}:\n${output.slice(-3000)}`);
    },
  };
}

/** An account of its own organisation, made with the operator CLI before the service holds the database. */
export async function createAccount(options: Pick<CoresOptions, "databaseUrl" | "dataDir">, role: "CONSUMER" | "CONTENT_PARTNER"): Promise<string> {
  const username = `cores-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const env = databaseEnv(options, { LOG_LEVEL: "silent" });
  const problems: string[] = [];
  const engine = role === "CONTENT_PARTNER" ? ["--booking-engine", `ENGINE_${username.replace(/\W/g, "_").toUpperCase()}`] : [];
  const code = await runOperatorCommand(
    ["create-account", "--username", username, "--role", role, "--organisation", `Bench ${username}`, "--country", "CH", "--model", "agent", "--password", PASSWORD, ...engine],
    env,
    { out: () => {}, err: (line) => problems.push(line) },
  );
  if (code !== 0) throw new Error(`operator create-account failed: ${problems.join("\n")}`);
  return username;
}

export const TOKEN_PATH = "/auth/realms/activities/protocol/openid-connect/token";

export async function runCores(options: CoresOptions): Promise<CoresRun[]> {
  if (!options.databaseUrl && options.processes.some((n) => n > 1)) throw new Error("more than one process needs DATABASE_URL (the embedded database serves one process)");
  const username = await createAccount(options, "CONSUMER");
  const load = startLoadGenerator();
  await load.ready;
  const runs: CoresRun[] = [];
  try {
    for (const processes of options.processes) {
      const service = await startService(options, processes);
      try {
        const consumer = { username, token: "" };
        await flowSignIn(new FlowTarget(service.base, TOKEN_PATH, PASSWORD), consumer);
        const headers = { authorization: `Bearer ${consumer.token}` };
        for (const expression of SEARCH_EXPRESSIONS) {
          const spec = { method: "GET" as const, path: `/api/consumer/products?Search=${encodeURIComponent(expression)}&resultsPerPage=100`, headers };
          // A short warm-up: the first requests compile the operation and fill the planner's caches.
          await load.run({ url: service.base, specs: [spec], connections: 1, amount: 5 });
          const cells: Cell[] = [];
          const cpuPerPage: CoresRun["cpuPerPage"] = [];
          for (const concurrency of options.concurrencies) {
            const before = { service: treeCpuMs(service.pid), postgres: postgresCpuMs() };
            const cell = cellOf(concurrency, await load.run({ url: service.base, specs: [spec], connections: concurrency, seconds: options.seconds, minRequests: concurrency }));
            cells.push(cell);
            cpuPerPage.push({ service: (treeCpuMs(service.pid) - before.service) / cell.requests, postgres: (postgresCpuMs() - before.postgres) / cell.requests });
          }
          runs.push({ processes, expression, cells, cpuPerPage });
        }
      } finally {
        await service.stop();
      }
    }
  } finally {
    load.stop();
  }
  return runs;
}

export interface BookingCoresRun {
  processes: number;
  /** One per number of lanes (flows at once), in the order asked for. */
  results: DriveResult[];
}

/** Consumer accounts the lanes share in turn: lanes sign in and connect on their own. */
const BOOKING_ACCOUNTS = 4;

/**
 * Booking flows (dates to the CONFIRMED message) through the service as `npm start` runs it, per
 * number of serving processes; the lanes run in a process of their own (bench/booking/flow-driver.ts).
 * The product is a content partner's, open every day with room for every flow and no
 * confirmation delay, as in `npm run bench:booking`.
 */
export async function runBookingCores(options: CoresOptions & { warmUpFlows: number }): Promise<BookingCoresRun[]> {
  if (!options.databaseUrl && options.processes.some((n) => n > 1)) throw new Error("more than one process needs DATABASE_URL (the embedded database serves one process)");
  const partnerName = await createAccount(options, "CONTENT_PARTNER");
  const usernames: string[] = [];
  for (let i = 0; i < BOOKING_ACCOUNTS; i++) usernames.push(await createAccount(options, "CONSUMER"));
  const runs: BookingCoresRun[] = [];
  for (const processes of options.processes) {
    const service = await startService(options, processes);
    try {
      const target = new FlowTarget(service.base, TOKEN_PATH, PASSWORD);
      const partner = { username: partnerName, token: "" };
      await flowSignIn(target, partner);
      const today = new Date().toISOString().slice(0, 10);
      const supplier = await call(target, partner, "", "POST", "/api/supplier", supplierRequest(), 201);
      const product = await call(target, partner, "", "POST", `/api/supplier/${supplier.id}/product`, productRequest({ availabilityPeriods: everyDay(today, addDays(today, 730)) }), 201);
      await call(target, partner, "", "PUT", `/api/supplier/${supplier.id}/product/${product.id}/booking-setup`, familySetup({ capacityPerSlot: 100_000, confirmationDelaySeconds: 0 }));
      const results: DriveResult[] = [];
      for (const [i, lanes] of options.concurrencies.entries()) {
        const job = { baseUrl: service.base, tokenPath: TOKEN_PATH, password: PASSWORD, productId: product.id, usernames, lanes, seconds: options.seconds, warmUpFlows: i === 0 ? options.warmUpFlows : 0, servicePid: service.pid };
        results.push(await driveFlowsInOwnProcess(job));
      }
      runs.push({ processes, results });
    } finally {
      await service.stop();
    }
  }
  return runs;
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "–");

export function renderCoresSection(runs: CoresRun[], meta: { title: string; machine: string; date: string; commit: string; database: string; products: number; load: string; seconds: number }): string {
  const concurrencies = runs[0]?.cells.map((c) => c.concurrency) ?? [];
  const lines = [
    `## ${meta.title}`,
    "",
    `${meta.date}, commit ${meta.commit}, ${meta.machine}; ${meta.database}, ${meta.products} products; load average at start ${meta.load}; ${meta.seconds} s per cell; \`npm run bench:cores\`.`,
    "",
    "REST search pages of 100 records through the service as `npm start` runs it, with `WEB_CONCURRENCY` processes; autocannon in a separate process. req/s (p50 ms / p95 ms); failures would be named under the table. CPU per page, from /proc over each cell: the service's process tree, and every PostgreSQL server process (ms).",
    "",
    `| processes | expression | ${concurrencies.map((c) => `c${c}`).join(" | ")} | c${concurrencies.at(-1)} ÷ c${concurrencies[0]} | ${concurrencies.map((c) => `CPU ms a page at c${c}: service / PostgreSQL`).join(" | ")} |`,
    `|---|---|${concurrencies.map(() => "---|").join("")}---|${concurrencies.map(() => "---|").join("")}`,
  ];
  for (const run of runs) {
    const cells = run.cells.map((c) => `${fixed(c.rps)} (${fixed(c.p50)} / ${fixed(c.p95)})`);
    const cpu = run.cpuPerPage.map((c) => `${fixed(c.service)} / ${fixed(c.postgres)}`);
    const scaling = run.cells.at(-1)!.rps / run.cells[0].rps;
    lines.push(`| ${run.processes} | \`${run.expression}\` | ${cells.join(" | ")} | ${fixed(scaling, 2)}× | ${cpu.join(" | ")} |`);
  }
  const failures = runs.flatMap((run) => run.cells.filter((c) => c.failures).map((c) => `- ${run.processes} processes, \`${run.expression}\`, c${c.concurrency}: ${c.failures} failures; first: ${c.firstFailure}`));
  if (failures.length) lines.push("", ...failures);
  return `${lines.join("\n")}\n`;
}

export function renderBookingCoresSection(runs: BookingCoresRun[], meta: { machine: string; date: string; commit: string; database: string; load: string; seconds: number }): string {
  const lines = [
    "## Cores: booking flows by WEB_CONCURRENCY (PostgreSQL)",
    "",
    `${meta.date}, commit ${meta.commit}, ${meta.machine}; ${meta.database}; load average at start ${meta.load}; ${meta.seconds} s per cell; \`npm run bench:cores -- --scenario booking\`.`,
    "",
    "Booking flows through REST (dates, options, prices, booking, questions, confirm) to the CONFIRMED message of the booking's subscription, against the service as `npm start` runs it with `WEB_CONCURRENCY` processes (worker included); the lanes (flows at once) run in a separate process (bench/booking/flow-driver.ts), so no client work shares the service's event loops. Flow and confirm → CONFIRMED latencies in ms. CPU per flow: over the timed flows, from /proc, of the service's process tree, of every PostgreSQL server process on the machine, and of the driver.",
    "",
    "| processes | flows at once | flows | flows per second | flow p50 | flow p99 | confirm → CONFIRMED p50 | p99 | by subscription | CPU ms per flow: service | PostgreSQL | flow driver |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const run of runs) {
    for (const r of run.results) {
      lines.push(`| ${run.processes} | ${r.lanes} | ${r.flows} | ${fixed(r.flowsPerSecond, 2)} | ${fixed(r.flowP50)} | ${fixed(r.flowP99)} | ${fixed(r.confirmP50)} | ${fixed(r.confirmP99)} | ${r.bySubscription} of ${r.flows} | ${fixed(r.cpuPerFlow.service)} | ${fixed(r.cpuPerFlow.postgres)} | ${fixed(r.cpuPerFlow.driver)} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}
