import { fork, type ChildProcess } from "node:child_process";
import { createBenchAccount } from "../bench-accounts.js";
import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import type { RemotePglite } from "../../drizzle/pglite-thread/remote.js";
import { sql } from "drizzle-orm";
import { rows, type Database } from "../../drizzle/database.js";
import type { Service } from "../../server/service.js";
import { everyDay, familySetup, newRef, validAnswers } from "../../test/support/booking.js";
import { productRequest, supplierRequest } from "../../test/support/catalogue.js";
import { CAPTURE_HEADER, captureService, type Capture } from "./capture.js";
import type { LoadJob, LoadResult, RequestSpec } from "./load-generator.js";
import { profileWhile, type ProfileSummary } from "./profile.js";
import { generatedIds, startBenchServer, substitute } from "./servers.js";
import { toGlobalId } from "../../core/global-id.js";
import { isUuid } from "../../core/uuid.js";

export const PATHS = ["REST", "gateway", "subgraph", "limit"] as const;
export type PathName = (typeof PATHS)[number];

/** The three expressions of bench/search-and-export.bench.ts. */
export const SEARCH_EXPRESSIONS = ["title:museum", "taxonomy:activities-tours-walking-tours", "title:tour AND countryCode:FR AND rating:>4"];

export interface PathsOptions {
  service: Service;
  database: Database;
  /** postgres:// of the service's database: the limit route's own postgres.js pool; absent: the service's PGlite. */
  databaseUrl?: string;
  concurrencies: number[];
  /** Per load cell of a read-only scenario: run for this many seconds, or make `amount` requests when set. */
  seconds: number;
  amount?: number;
  /**
   * Each cell measured in this many rounds that take the paths in turn (a read-only cell's
   * `seconds` split between them; a fresh step's states likewise, at most one round a state).
   */
  rounds: number;
  /** Seconds of unmeasured load on each path of a read-only page before its cells (`amount` requests when set; 0: none). */
  warmUpSeconds: number;
  /** Requests per path of a step that needs fresh state (at concurrency 1, one fresh state each). */
  fresh: number;
  /** Warm each path of a fresh-state step up with one request on a state of its own first (default true; a small-scale test saves the states). */
  warmUpFresh?: boolean;
  /** CPU profile of the REST search page: seconds (or `amount` requests) of load at `profileConcurrency`. */
  profileSeconds: number;
  profileConcurrency: number;
  /** Write a CPU profile of this process (the service's) for every measured cell into this folder, named by page, path and concurrency. */
  cellProfiles?: string;
  poolSize: number;
  /** Measure only the scenarios whose name or group contains one of these (all when absent or empty). */
  only?: string[];
  log?: (line: string) => void;
}

export interface Cell {
  concurrency: number;
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  failures: number;
  firstFailure?: string;
}

export interface ScenarioResult {
  name: string;
  group: "catalogue" | "booking" | "reporting";
  /** Measured at concurrency 1, one fresh state per request (the step changes what it acts on). */
  fresh: boolean;
  request: string;
  restBytes: number;
  statements: number;
  subgraphCalls: number;
  /** The limit route answered exactly the REST body (parsed JSON compared); undefined when not checked (a fresh step without warm-up). */
  limitMatchesRest?: boolean;
  paths: Record<PathName, Cell[]>;
}

export interface PathsResult {
  driver: string;
  liveProducts: number;
  scenarios: ScenarioResult[];
  profile: ProfileSummary & { request: string; concurrency: number; requests: number };
}

interface RestCall {
  method: RequestSpec["method"];
  path: string;
  body?: unknown;
  /** Status REST answers on success. */
  status?: number;
}

interface Scenario {
  name: string;
  group: ScenarioResult["group"];
  /** For a step that needs fresh state: makes one state (outside the timed part) and gives the request on it. */
  prepare?: () => Promise<RestCall>;
  call?: RestCall;
}

const PASSWORD = "benchmark paths password 1";
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The strings that differ between two requests of the same shape (ids of the fresh state, a new
 * resellerRef): what turns the captured request into the same request on another state. Short
 * strings are left out, since replacing them everywhere could hit unrelated text.
 */
function differences(template: RestCall, fresh: RestCall): Record<string, string> {
  const map: Record<string, string> = {};
  const add = (a: string, b: string) => {
    if (a !== b && a.length >= 8) map[a] = b;
  };
  const ta = template.path.split(/[/?&=]/);
  const fa = fresh.path.split(/[/?&=]/);
  if (ta.length !== fa.length) throw new Error(`requests of different shapes: ${template.path} / ${fresh.path}`);
  ta.forEach((segment, i) => add(decodeURIComponent(segment), decodeURIComponent(fa[i])));
  const walk = (a: unknown, b: unknown) => {
    if (typeof a === "string" && typeof b === "string") add(a, b);
    else if (Array.isArray(a) && Array.isArray(b)) a.forEach((item, i) => walk(item, b[i]));
    else if (a && b && typeof a === "object" && typeof b === "object") for (const key of Object.keys(a)) walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]);
  };
  walk(template.body, fresh.body);
  // The graph names an entity by its global id: the operations a REST call ran carry the ids in that form too.
  for (const [a, b] of Object.entries(map)) {
    if (isUuid(a) && isUuid(b)) for (const type of UUID_KEYED_TYPES) map[toGlobalId(type, a)] = toGlobalId(type, b);
  }
  return map;
}

/** The graph's types whose global ids hold a UUID. */
const UUID_KEYED_TYPES = ["Availability", "Booking"];

/** The UUIDs a JWT's claims name (account, session, organisation). */
const idsOfToken = (jwt: string) => JSON.stringify(JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString())).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi) ?? [];

/** A pool of `width` workers over `count` jobs, for preparing fresh states quickly. */
async function inParallel<T>(count: number, width: number, make: (index: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) {
        const index = next++;
        out[index] = await make(index);
      }
    }),
  );
  return out;
}

/** The load generator's child process; one job at a time. Shared with bench:cores. */
export function startLoadGenerator() {
  const child: ChildProcess = fork(fileURLToPath(new URL("./load-generator.ts", import.meta.url)), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let waiting: ((message: LoadResult & { error?: string; ready?: boolean }) => void) | undefined;
  let exited: Error | undefined;
  child.on("message", (message: LoadResult & { error?: string; ready?: boolean }) => waiting?.(message));
  child.on("exit", (code) => {
    exited = new Error(`load generator exited with ${code}`);
    waiting?.({ error: exited.message } as never);
  });
  const next = () =>
    new Promise<LoadResult & { error?: string; ready?: boolean }>((resolve) => {
      if (exited) resolve({ error: exited.message } as never);
      waiting = resolve;
    });
  let ids = 0;
  const ready = next();
  return {
    ready,
    async run(job: Omit<LoadJob, "id">): Promise<LoadResult> {
      const answer = next();
      child.send({ ...job, id: ++ids });
      const result = await answer;
      if (result.error) throw new Error(result.error);
      return result;
    },
    stop: () => {
      child.removeAllListeners("exit");
      child.kill();
    },
  };
}

/**
 * How many rounds a cell is measured in. A timed slice starts with no answer for one latency
 * and leaves its last requests unanswered (their work then falls on the next path's slice), so a
 * slice must be long against its latency: a read-only cell is split only as far as each slice
 * still expects at least 20 times its concurrency in answers, at the slowest path's warm-up rate.
 * Requests counted out (`amount`) are not cut short and keep every round.
 */
export function slicesFor(options: Pick<PathsOptions, "rounds" | "fresh" | "seconds" | "amount">, fresh: boolean, concurrency: number, warmRate: number): number {
  if (fresh) return Math.max(1, Math.min(options.rounds, options.fresh));
  if (options.amount || !Number.isFinite(warmRate)) return Math.max(1, options.rounds);
  return Math.max(1, Math.min(options.rounds, Math.floor((options.seconds * warmRate) / (20 * concurrency))));
}

/** One cell's rounds as one load result: their requests, time and latencies together. */
export function mergeLoadResults(results: LoadResult[]): LoadResult {
  return {
    id: results[0]?.id ?? 0,
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    seconds: results.reduce((sum, r) => sum + r.seconds, 0),
    latencies: results.flatMap((r) => r.latencies),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    timeouts: results.reduce((sum, r) => sum + r.timeouts, 0),
    firstFailure: results.find((r) => r.firstFailure)?.firstFailure,
  };
}

export function cellOf(concurrency: number, result: LoadResult): Cell {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  return {
    concurrency,
    requests: result.requests,
    seconds: result.seconds,
    rps: result.requests / result.seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    failures: result.non2xx + result.errors + result.timeouts,
    firstFailure: result.firstFailure,
  };
}

/**
 * The side-by-side benchmark's core: every scenario through REST, the gateway, the subgraph and
 * the limit route, measured by autocannon in a child process. Needs a single-process service
 * (role `all`) with the demo seed, the rate limit off and the worker's loops off.
 */
export async function runPaths(options: PathsOptions): Promise<PathsResult> {
  const { service, database } = options;
  const log = options.log ?? (() => {});
  const capture = captureService(service);
  const pglite = options.databaseUrl ? undefined : ((database.db as unknown as { $client: RemotePglite }).$client);
  const bench = await startBenchServer({ service, databaseUrl: options.databaseUrl, pglite, poolSize: options.poolSize });
  const load = startLoadGenerator();
  try {
    await load.ready;
    const base = service.url!;
    const tokenUrl = `${base}${service.identity.paths.token}`;
    const account = (role: "CONSUMER" | "CONTENT_PARTNER") => createBenchAccount(service, role, { prefix: "bench-paths", password: PASSWORD, consumerCountry: "FR" });
    const signIn = async (username: string) => {
      const response = await fetch(tokenUrl, { method: "POST", body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password: PASSWORD }) });
      if (response.status !== 200) throw new Error(`sign-in ${response.status} ${await response.text()}`);
      return ((await response.json()) as { access_token: string }).access_token;
    };
    const consumer = await account("CONSUMER");
    const partner = await account("CONTENT_PARTNER");
    let token = await signIn(consumer);
    let signedInAt = Date.now();
    // Tokens live 300 s: a fresh one before any measurement that could outlive it.
    const freshToken = async () => {
      if (Date.now() - signedInAt > 120_000) {
        token = await signIn(consumer);
        signedInAt = Date.now();
      }
      return token;
    };

    const send = async (call: RestCall, as = token, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}${call.path}`, {
        method: call.method,
        headers: { authorization: `Bearer ${as}`, ...(call.body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
      });
      const text = await response.text();
      if (response.status !== (call.status ?? 200)) throw new Error(`${call.method} ${call.path}: ${response.status} ${text.slice(0, 500)}`);
      return { text, body: text ? JSON.parse(text) : undefined };
    };

    // A bookable product of the bench's own partner: open every day, room for every state the steps use, no confirmation delay.
    const partnerToken = await signIn(partner);
    const today = new Date().toISOString().slice(0, 10);
    const supplier = (await send({ method: "POST", path: "/api/supplier", body: supplierRequest(), status: 201 }, partnerToken)).body;
    const product = (await send({ method: "POST", path: `/api/supplier/${supplier.id}/product`, body: productRequest({ availabilityPeriods: everyDay(today, addDays(today, 730)) }), status: 201 }, partnerToken)).body;
    await send({ method: "PUT", path: `/api/supplier/${supplier.id}/product/${product.id}/booking-setup`, body: familySetup({ capacityPerSlot: 100_000, confirmationDelaySeconds: 0 }) }, partnerToken);
    const date = addDays(today, 3);
    const availabilities = `/booking-flow/v1/products/${product.id}/availabilities`;
    const openAvailability = async () => (await send({ method: "GET", path: `${availabilities}/${date}/options` })).body;
    const nextOption = (availability: any) => {
      const next = availability.availabilityOptions.find((o: { selectedOptionId?: string }) => o.selectedOptionId === undefined);
      if (!next) return undefined;
      const value = next.dataType === "BOOLEAN" ? "true" : next.label === "Start time" ? "09:00" : Object.keys(next.optionChoices)[0];
      return { optionId: next.id as string, value };
    };
    const optioned = async () => {
      let availability = await openAvailability();
      for (let next = nextOption(availability); next; next = nextOption(availability)) availability = (await send({ method: "PUT", path: `${availabilities}/${availability.id}/options`, body: next })).body;
      return availability;
    };
    const pricesCall = (availabilityId: string): RestCall => ({ method: "PUT", path: `${availabilities}/${availabilityId}/prices?currencyCode=EUR`, body: [{ unitId: "adult", value: 2 }] });
    // GET prices fixes the flow's currency: PUT prices is refused before it.
    const currencyFixed = async () => {
      const availability = await optioned();
      await send({ method: "GET", path: `${availabilities}/${availability.id}/prices?currencyCode=EUR` });
      return availability;
    };
    const priced = async () => (await send(pricesCall((await currencyFixed()).id))).body;
    const bookingCall = (availabilityId: string): RestCall => ({ method: "POST", path: "/booking-flow/v1/bookings", body: { availabilityId, resellerRef: newRef() }, status: 201 });
    const held = async () => (await send(bookingCall((await priced()).id))).body;
    const questionsCall = (booking: any): RestCall => ({ method: "PUT", path: `/booking-flow/v1/bookings/${booking.id}/questions`, body: validAnswers(booking) });
    const answered = async () => {
      let booking = await held();
      for (let round = 0; !booking.isQuestionStepComplete; round++) {
        if (round === 4) throw new Error(`questions never complete: ${JSON.stringify(booking.questions)}`);
        booking = (await send(questionsCall(booking))).body;
      }
      return booking;
    };
    const confirmCall = (bookingId: string): RestCall => ({ method: "POST", path: `/booking-flow/v1/bookings/${bookingId}/confirm`, body: {} });

    const firstProduct = (await send({ method: "GET", path: `/api/consumer/products?Search=${encodeURIComponent(SEARCH_EXPRESSIONS[0])}&resultsPerPage=1` })).body.items[0];
    const sharedOptioned = await optioned();
    const sharedConfirmed = await answered();
    await send(confirmCall(sharedConfirmed.id));

    const scenarios: Scenario[] = [
      ...SEARCH_EXPRESSIONS.map((expression): Scenario => ({ name: `search \`${expression}\``, group: "catalogue", call: { method: "GET", path: `/api/consumer/products?Search=${encodeURIComponent(expression)}&resultsPerPage=100` } })),
      { name: "product read", group: "catalogue", call: { method: "GET", path: `/api/consumer/product/${firstProduct.id}` } },
      { name: "change detection (100)", group: "catalogue", call: { method: "GET", path: `/api/consumer/diff/products?date=${addDays(today, -1)}&resultsPerPage=100` } },
      { name: "active import (1,000)", group: "catalogue", call: { method: "GET", path: "/content/v0/import/activities/active?page[limit]=1000" } },
      { name: "booking: dates (a week)", group: "booking", call: { method: "GET", path: `${availabilities}?startDate=${date}&endDate=${addDays(date, 6)}` } },
      { name: "booking: options (new availability)", group: "booking", call: { method: "GET", path: `${availabilities}/${date}/options` } },
      {
        name: "booking: set option",
        group: "booking",
        prepare: async () => {
          const availability = await openAvailability();
          return { method: "PUT", path: `${availabilities}/${availability.id}/options`, body: nextOption(availability) };
        },
      },
      { name: "booking: prices (GET)", group: "booking", call: { method: "GET", path: `${availabilities}/${sharedOptioned.id}/prices?currencyCode=EUR` } },
      { name: "booking: set prices", group: "booking", prepare: async () => pricesCall((await currencyFixed()).id) },
      { name: "booking: create booking", group: "booking", prepare: async () => bookingCall((await priced()).id) },
      { name: "booking: questions", group: "booking", prepare: async () => questionsCall(await held()) },
      { name: "booking: confirm", group: "booking", prepare: async () => confirmCall((await answered()).id) },
      { name: "booking: get booking", group: "booking", call: { method: "GET", path: `/booking-flow/v1/bookings/${sharedConfirmed.id}` } },
      // After the booking steps, so that the consumer's organisation has bookings to report.
      { name: "report page (500)", group: "reporting", call: { method: "GET", path: "/reporting/v1/bookings?page[limit]=500" } },
    ];

    const chosen = options.only?.length ? scenarios.filter((s) => options.only!.some((part) => s.name.includes(part) || s.group === part)) : scenarios;
    if (!chosen.length) throw new Error(`no scenario matches ${options.only!.join(", ")}: ${scenarios.map((s) => s.name).join("; ")}`);
    const results: ScenarioResult[] = [];
    for (const scenario of chosen) {
      const fresh = Boolean(scenario.prepare);
      // Fresh states: one for the capture, then one per request and one warm-up per path.
      const warmUp = !fresh || options.warmUpFresh !== false;
      const perPath = options.fresh + (fresh && warmUp ? 1 : 0);
      const calls = fresh ? await inParallel(1 + PATHS.length * perPath, 8, () => scenario.prepare!()) : [scenario.call!];
      const template = calls[0];
      await freshToken();
      const key = randomUUID();
      const rest = await send(template, token, { [CAPTURE_HEADER]: key });
      const captured: Capture = capture.take(key);
      if (!captured.gateway) throw new Error(`${scenario.name}: the REST route ran no gateway operation`);
      bench.plans.set(key, { statements: captured.statements, generated: generatedIds(captured.statements, idsOfToken(token)), body: rest.body });

      const specFor = (path: PathName, call: RestCall, bearer: string): RequestSpec => {
        const map = differences(template, call);
        const auth = { authorization: `Bearer ${bearer}` };
        const json = { "content-type": "application/json" };
        switch (path) {
          case "REST":
            return { method: call.method, path: call.path, headers: { ...auth, ...(call.body === undefined ? {} : json) }, body: call.body === undefined ? undefined : JSON.stringify(call.body) };
          case "gateway":
            return { method: "POST", path: "/graphql", headers: { ...auth, ...json }, body: substitute(JSON.stringify(captured.gateway), map) };
          case "subgraph":
            return { method: "POST", path: `${bench.url}/subgraph`, headers: { ...auth, ...json }, body: substitute(JSON.stringify({ calls: captured.subgraphCalls }), map) };
          case "limit":
            return { method: "POST", path: `${bench.url}/limit/${key}`, headers: json, body: JSON.stringify({ map }) };
        }
      };
      // autocannon takes one origin per job; the bench server's specs carry theirs in the path.
      const target = (spec: RequestSpec) => (spec.path.startsWith("http") ? { url: new URL(spec.path).origin, spec: { ...spec, path: new URL(spec.path).pathname } } : { url: base, spec });

      const result: ScenarioResult = {
        name: scenario.name,
        group: scenario.group,
        fresh,
        request: `${template.method} ${template.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "{id}")}`,
        restBytes: Buffer.byteLength(rest.text),
        statements: captured.statements.length,
        subgraphCalls: captured.subgraphCalls.length,
        paths: { REST: [], gateway: [], subgraph: [], limit: [] },
      };
      // Each path checked and warmed up first, then its cells measured in rounds that take the paths
      // in turn: this machine's speed drifts within minutes, and measuring one path after another
      // would put that drift between the paths being compared.
      const measuredSpecs = {} as Record<PathName, ReturnType<typeof target>[]>;
      let slowestWarmRate = Infinity;
      for (const [index, path] of PATHS.entries()) {
        const bearer = await freshToken();
        const own = fresh ? calls.slice(1 + index * perPath, 1 + (index + 1) * perPath) : [template];
        const specs = own.map((call) => target(specFor(path, call, bearer)));
        if (warmUp) {
          // Check: one request of the path, answered without errors.
          const { url, spec } = specs[0];
          const response = await fetch(`${url}${spec.path}`, { method: spec.method, headers: spec.headers, body: spec.body });
          const text = await response.text();
          if (response.status < 200 || response.status > 299) throw new Error(`${scenario.name} ${path}: ${response.status} ${text.slice(0, 500)}`);
          if (path === "gateway" && (JSON.parse(text) as { errors?: unknown }).errors) throw new Error(`${scenario.name} gateway: ${text.slice(0, 500)}`);
          if (path === "limit") result.limitMatchesRest = isDeepStrictEqual(JSON.parse(text), rest.body);
        }
        // Warm-up of a read-only page: load the code of its path has not run hot yet, unmeasured.
        if (!fresh && options.warmUpSeconds > 0) {
          const { url, spec } = specs[0];
          const warm = await load.run({ url, specs: [spec], connections: Math.min(4, Math.max(...options.concurrencies)), ...(options.amount ? { amount: options.amount } : { seconds: options.warmUpSeconds }) });
          if (warm.non2xx + warm.errors + warm.timeouts) throw new Error(`${scenario.name} ${path} warm-up: ${warm.firstFailure ?? "connection errors"}`);
          slowestWarmRate = Math.min(slowestWarmRate, warm.requests / warm.seconds);
        }
        measuredSpecs[path] = fresh && warmUp ? specs.slice(1) : specs;
      }
      const levels = fresh ? [1] : options.concurrencies;
      const roundsAt = levels.map((concurrency) => slicesFor(options, fresh, concurrency, slowestWarmRate));
      const rounds = Math.max(...roundsAt);
      const slices = Object.fromEntries(PATHS.map((path) => [path, levels.map(() => [] as LoadResult[])])) as Record<PathName, LoadResult[][]>;
      for (let round = 0; round < rounds; round++) {
        for (const [level, concurrency] of levels.entries()) {
          if (round >= roundsAt[level]) continue;
          // Rotated each round, so that no path is always the first after a change of level.
          for (const path of PATHS.map((_, i) => PATHS[(i + round) % PATHS.length])) {
            const measured = measuredSpecs[path];
            // A fresh step's states are split between the rounds; a read-only page runs a share of the cell's time.
            const own = fresh ? measured.slice(Math.floor((round * measured.length) / rounds), Math.floor(((round + 1) * measured.length) / rounds)) : measured;
            const run = () =>
              load.run({
                url: own[0].url,
                specs: own.map((m) => m.spec),
                connections: concurrency,
                ...(fresh ? { amount: own.length } : options.amount ? { amount: options.amount } : { seconds: options.seconds / roundsAt[level], minRequests: Math.max(3, concurrency) }),
              });
            let outcome: LoadResult;
            // A cell's profile is of its last round, when every path has run hot.
            if (options.cellProfiles && round === roundsAt[level] - 1) {
              const file = join(options.cellProfiles, `${scenario.name.replace(/\W+/g, "-").replace(/^-|-$/g, "")}.${path}.c${concurrency}.cpuprofile`);
              await profileWhile(async () => void (outcome = await run()), file);
            } else outcome = await run();
            slices[path][level].push(outcome!);
            const cell = cellOf(concurrency, outcome!);
            log(`${scenario.name} | ${path} | c${concurrency} | round ${round + 1}/${rounds} | ${cell.requests} req | ${cell.rps.toFixed(1)} req/s | p50 ${cell.p50.toFixed(1)} p95 ${cell.p95.toFixed(1)} p99 ${cell.p99.toFixed(1)} ms${cell.failures ? ` | ${cell.failures} failures: ${cell.firstFailure}` : ""}`);
          }
        }
      }
      for (const path of PATHS) result.paths[path] = levels.map((concurrency, level) => cellOf(concurrency, mergeLoadResults(slices[path][level])));
      results.push(result);
    }

    // The REST search page under load, profiled in this process (the service's).
    const profiled = `/api/consumer/products?Search=${encodeURIComponent(SEARCH_EXPRESSIONS[0])}&resultsPerPage=100`;
    const bearer = await freshToken();
    let profiledRequests = 0;
    const profile = await profileWhile(async () => {
      const outcome = await load.run({
        url: base,
        specs: [{ method: "GET", path: profiled, headers: { authorization: `Bearer ${bearer}` } }],
        connections: options.profileConcurrency,
        ...(options.amount ? { amount: options.amount } : { seconds: options.profileSeconds, minRequests: Math.max(3, options.profileConcurrency) }),
      });
      profiledRequests = outcome.requests;
    });

    const [{ count }] = await rows<{ count: number }>(database.db, sql`select count(*)::int as count from products where deleted_at is null`);
    return {
      driver: database.driver,
      liveProducts: count,
      scenarios: results,
      profile: { ...profile, request: `GET ${decodeURIComponent(profiled)}`, concurrency: options.profileConcurrency, requests: profiledRequests },
    };
  } finally {
    load.stop();
    await bench.close();
  }
}
