import { toGlobalId } from "../../core/global-id.js";
import { createClient } from "graphql-ws";
import http from "node:http";
import net from "node:net";
import postgres from "postgres";
import WebSocket from "ws";
import { everyDay, familySetup, validAnswers } from "../../test/support/booking.js";
import { productRequest, supplierRequest } from "../../test/support/catalogue.js";
import { runInChild } from "../child-job.js";
import { createAccount, PASSWORD, startService, TOKEN_PATH } from "../cores/cores-core.js";
import { loadConfig } from "../../core/config.js";
import { addDays, call, FlowTarget, holdBooking, percentile, signIn, sleep, type Account } from "../booking/flow-client.js";
import type { VictimJob, VictimResult } from "./victim.js";
import { processCpuMs } from "../process-cpu.js";
import { HEAVY_SEARCH } from "../heavy-search.js";

/**
 * The noisy-neighbour benchmark: what a victim (another account, from another client address)
 * sees while one caller attacks, against the victim's own baseline measured just before, in the
 * same run, on the service as `npm start` runs it with its default limits.
 */
export interface FairnessOptions {
  databaseUrl?: string;
  dataDir: string;
  /** Length of each measured window, baseline and attack alike. */
  seconds: number;
  slowSockets: number;
  heavyInFlight: number;
  subscriptions: number;
  signIns: number;
  /** The service's body timeout, which every slow socket must be closed within. */
  bodyTimeoutSeconds: number;
  /** Only these attacks (names as in ATTACKS); all when empty. */
  only: string[];
  /** A CPU profile of the service (not of the stop attack's) into this folder, sampled every 250 µs: fine enough to see what one stall of the loop ran. */
  profileDir?: string;
}

export interface VictimSummary {
  requests: number;
  p50: number;
  p99: number;
  /** Answers other than 200, and requests never answered, by status. */
  failures: Record<string, number>;
  /** What the service and PostgreSQL did in the window: where a victim's wait went. */
  window?: WindowLoad;
}

/** The service's event-loop delay (its own histogram, read from /metrics) and CPU, and PostgreSQL's CPU, over one measured window. */
export interface WindowLoad {
  loopP99Ms: number;
  loopMaxMs: number;
  /** % of one core. */
  serviceCpu: number;
  postgresCpu?: number;
}

export interface AttackResult {
  attack: string;
  victim: "search" | "sign-in";
  baseline: VictimSummary;
  during: VictimSummary;
  target: string;
  met: boolean;
  /** What the attacker got: refusals by status or code, sockets closed, and so on. */
  attacker: string;
}

const VICTIM_ADDRESS = "127.0.0.2";
const SEARCH_RATE = 10;
const SIGN_IN_RATE = 2;
const WARM_UP_SECONDS = 5;

function summary(result: VictimResult): VictimSummary {
  const failures: Record<string, number> = {};
  for (const [status, count] of Object.entries(result.statuses)) if (status !== "200") failures[status] = count;
  if (result.unanswered) failures.unanswered = result.unanswered;
  return { requests: Object.values(result.statuses).reduce((a, b) => a + b, 0) + result.unanswered, p50: percentile(result.latencies, 50), p99: percentile(result.latencies, 99), failures };
}

const victim = (job: VictimJob) => runInChild<VictimJob, VictimResult>(new URL("./victim.ts", import.meta.url).href, job);

interface Setup {
  base: string;
  /** The service's process (one: WEB_CONCURRENCY=1), and PostgreSQL's backends serving it, when on PostgreSQL. */
  pid?: number;
  backends?: () => Promise<number[]>;
  victim: Account;
  victimSignIn: Account;
  attacker: Account;
  productId: number;
}

/** The victim's window and the attack's, at the same time; the attack is told when the window ends. */
async function during<T>(setup: Setup, kind: "search" | "sign-in", seconds: number, attack: (stop: AbortSignal) => Promise<T>): Promise<{ baseline: VictimSummary; during: VictimSummary; attack: T }> {
  const job = (account: Account): VictimJob =>
    kind === "search"
      ? { base: setup.base, kind, token: account.token, localAddress: VICTIM_ADDRESS, seconds, rate: SEARCH_RATE }
      : { base: setup.base, kind, username: account.username, password: PASSWORD, tokenPath: TOKEN_PATH, localAddress: VICTIM_ADDRESS, seconds, rate: SIGN_IN_RATE };
  const account = kind === "search" ? setup.victim : setup.victimSignIn;
  await signIn(new FlowTarget(setup.base, TOKEN_PATH, PASSWORD), account);
  const baseline = await observed(setup, () => victim(job(account)));
  await signIn(new FlowTarget(setup.base, TOKEN_PATH, PASSWORD), account);
  const stop = new AbortController();
  const attacking = attack(stop.signal);
  const measured = await observed(setup, () => victim(job(account)).finally(() => stop.abort()));
  return { baseline, during: measured, attack: await attacking };
}

/** Reads the service's event-loop delay histogram; prom-client resets it at each read, so a read starts a window too. */
async function eventLoopDelay(base: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const read = (name: string) => Number(text.match(new RegExp(`^activities_nodejs_eventloop_lag_${name}_seconds(?:\\{[^}]*\\})? (\\S+)$`, "m"))?.[1] ?? Number.NaN) * 1000;
  return { p99: read("p99"), max: read("max") };
}

async function postgresCpuMs(setup: Setup, seen: Map<number, number>): Promise<number> {
  for (const pid of (await setup.backends?.()) ?? []) seen.set(pid, Math.max(seen.get(pid) ?? 0, processCpuMs(pid)));
  return [...seen.values()].reduce((a, b) => a + b, 0);
}

/** The victim's window with what the service and PostgreSQL did meanwhile. */
async function observed(setup: Setup, run: () => Promise<VictimResult>): Promise<VictimSummary> {
  if (setup.pid === undefined) return summary(await run());
  await eventLoopDelay(setup.base);
  const backends = new Map<number, number>();
  const [serviceBefore, postgresBefore, started] = [processCpuMs(setup.pid), await postgresCpuMs(setup, backends), performance.now()];
  const result = await run();
  const [serviceAfter, postgresAfter, elapsed] = [processCpuMs(setup.pid), await postgresCpuMs(setup, backends), performance.now() - started];
  const loop = await eventLoopDelay(setup.base);
  const percent = (ms: number) => (100 * ms) / elapsed;
  return {
    ...summary(result),
    window: { loopP99Ms: loop.p99, loopMaxMs: loop.max, serviceCpu: percent(serviceAfter - serviceBefore), ...(setup.backends ? { postgresCpu: percent(postgresAfter - postgresBefore) } : {}) },
  };
}

const counted = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([what, n]) => `${n.toLocaleString("en")} ${what}`)
    .join(", ");
const bump = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);

/** Sockets that announce a 100 kB body and send a byte every 10 s, without a token. */
async function slowBodies(base: string, count: number, stop: AbortSignal): Promise<{ text: string; leftOpen: number; longestMs: number }> {
  const { hostname, port } = new URL(base);
  const outcomes: Record<string, number> = {};
  const lifetimes: number[] = [];
  const open = new Set<net.Socket>();
  const opened: Promise<void>[] = [];
  const one = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const socket = net.connect({ host: hostname, port: Number(port) });
      let answered = "";
      let ticker: NodeJS.Timeout | undefined;
      socket.on("connect", () => {
        open.add(socket);
        socket.write(`POST ${TOKEN_PATH} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\ng`);
        ticker = setInterval(() => socket.write("r"), 10_000);
        resolve();
      });
      socket.on("data", (chunk) => (answered ||= chunk.toString("latin1").split("\r\n")[0]));
      socket.on("error", (error: NodeJS.ErrnoException) => bump(outcomes, error.code ?? "error"));
      socket.on("close", () => {
        clearInterval(ticker);
        open.delete(socket);
        lifetimes.push(performance.now() - started);
        bump(outcomes, answered ? `answered "${answered}"` : "closed without an answer");
        resolve();
      });
    });
  // In waves, as a client with many connections would open them.
  for (let i = 0; i < count; i += 250) {
    for (let j = i; j < Math.min(count, i + 250); j++) opened.push(one());
    await Promise.all(opened.slice(i));
  }
  await new Promise((resolve) => stop.addEventListener("abort", resolve, { once: true }));
  const stillOpenAtWindowEnd = open.size;
  // Every slow socket should be closed by the service within its body timeout: wait for it, at most two minutes.
  const deadline = performance.now() + 120_000;
  while (open.size && performance.now() < deadline) await sleep(500);
  const leftOpen = open.size;
  for (const socket of open) socket.destroy();
  const longestMs = lifetimes.length ? Math.max(...lifetimes) : Infinity;
  const text = `${count.toLocaleString("en")} opened; ${stillOpenAtWindowEnd} open when the window ended, ${leftOpen} after 120 s more; the longest lived ${(longestMs / 1000).toFixed(1)} s; ${counted(outcomes)}`;
  return { text, leftOpen, longestMs: leftOpen ? Infinity : longestMs };
}


/** `heavyInFlight` aliased search operations of one account, each sent again as soon as it is answered. */
async function heavyOperations(setup: Setup, inFlight: number, stop: AbortSignal): Promise<string> {
  const outcomes: Record<string, number> = {};
  const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight });
  const lane = async () => {
    while (!stop.aborted) {
      const response = await fetch(`${setup.base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${setup.attacker.token}` },
        body: JSON.stringify({ query: HEAVY_SEARCH }),
      }).catch(() => undefined);
      if (!response) {
        bump(outcomes, "network error");
        continue;
      }
      const body = (await response.json().catch(() => ({}))) as { errors?: { extensions?: { code?: string; reason?: string } }[] };
      const refusal = body.errors?.[0]?.extensions;
      bump(outcomes, refusal ? `${response.status} ${refusal.code}${refusal.reason ? ` (${refusal.reason})` : ""}` : `${response.status}`);
      if (response.status === 429) await sleep(Number(response.headers.get("retry-after") ?? 1) * 1000);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  agent.destroy();
  return counted(outcomes);
}

/** Correct sign-ins of one account, `lanes` at a time, from the attacker's address. */
async function signInFlood(setup: Setup, lanes: number, stop: AbortSignal): Promise<string> {
  const outcomes: Record<string, number> = {};
  const lane = async () => {
    while (!stop.aborted) {
      const response = await fetch(`${setup.base}${TOKEN_PATH}`, {
        method: "POST",
        body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username: setup.attacker.username, password: PASSWORD }),
      }).catch(() => undefined);
      bump(outcomes, response ? String(response.status) : "network error");
      await response?.arrayBuffer().catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return counted(outcomes);
}

/**
 * `count` subscriptions of one account to its own booking, over as many sockets as it takes, then
 * the booking confirmed: the fan-out runs while the victim searches.
 */
async function subscriptionStorm(setup: Setup, count: number, stop: AbortSignal, prepared: { bookingId: string; subscribed: Subscribed }): Promise<string> {
  const target = new FlowTarget(setup.base, TOKEN_PATH, PASSWORD);
  const started = performance.now();
  await call(target, setup.attacker, "confirm", "POST", `/booking-flow/v1/bookings/${prepared.bookingId}/confirm`);
  // The fan-out runs on after the victim's window if it must: it is waited for, two minutes at most.
  const deadline = performance.now() + 120_000;
  while (prepared.subscribed.confirmed < prepared.subscribed.accepted && performance.now() < deadline) await sleep(100);
  await new Promise((resolve) => (stop.aborted ? resolve(undefined) : stop.addEventListener("abort", resolve, { once: true })));
  const fanOutSeconds = (performance.now() - started) / 1000;
  prepared.subscribed.dispose();
  return `${count.toLocaleString("en")} asked: ${prepared.subscribed.accepted.toLocaleString("en")} accepted over ${prepared.subscribed.sockets} sockets, ${counted(prepared.subscribed.refusals) || "none refused"}; CONFIRMED reached ${prepared.subscribed.confirmed.toLocaleString("en")} of the accepted in ${fanOutSeconds.toFixed(1)} s`;
}

/** Waits for the account's next rate window when fewer than a few requests are left in this one (RateLimit-* headers). */
async function awaitRequestRoom(base: string, token: string): Promise<void> {
  const response = await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  const remaining = Number(response.headers.get("ratelimit-remaining") ?? Infinity);
  const reset = Number(response.headers.get("ratelimit-reset") ?? 0);
  if (remaining < 10) await sleep((reset + 1) * 1000);
}

interface Subscribed {
  accepted: number;
  confirmed: number;
  sockets: number;
  refusals: Record<string, number>;
  dispose(): void;
}

const STATUS = "subscription($id: ID!) { bookingStatusChanged(bookingId: $id) { id status product { id externalId supplier { id name } } } }";

/** Opens sockets and subscribes until `count` subscriptions were asked for, counting acceptances and refusals. */
async function subscribeMany(setup: Setup, bookingId: string, count: number): Promise<Subscribed> {
  const state: Subscribed = { accepted: 0, confirmed: 0, sockets: 0, refusals: {}, dispose: () => {} };
  const clients: ReturnType<typeof createClient>[] = [];
  const disposers: (() => void)[] = [];
  const perSocket = 100;
  for (let asked = 0; asked < count; ) {
    let closedWith: string | undefined;
    const client = createClient({
      url: `${setup.base.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      lazy: false,
      retryAttempts: 0,
      connectionParams: { Authorization: `Bearer ${setup.attacker.token}` },
      on: { closed: (event) => (closedWith = `socket closed ${(event as { code?: number }).code}`) },
    });
    const connected = await new Promise<boolean>((resolve) => {
      const off = client.on("connected", () => (off(), resolve(true)));
      client.on("closed", () => resolve(false));
    });
    if (!connected) {
      bump(state.refusals, closedWith ?? "socket refused");
      asked += perSocket;
      continue;
    }
    clients.push(client);
    state.sockets++;
    for (let i = 0; i < perSocket && asked < count; i++, asked++) {
      let first = true;
      disposers.push(
        client.subscribe<{ bookingStatusChanged: { status: string } }>(
          { query: STATUS, variables: { id: toGlobalId("Booking", bookingId) } },
          {
            next: (message) => {
              if (first) {
                first = false;
                state.accepted++;
              }
              if (message.data?.bookingStatusChanged.status === "CONFIRMED") state.confirmed++;
              else if (message.errors) bump(state.refusals, `error ${(message.errors[0].extensions as { code?: string } | undefined)?.code ?? message.errors[0].message}`);
            },
            error: (error) => bump(state.refusals, `error ${Array.isArray(error) ? ((error[0] as { extensions?: { code?: string } }).extensions?.code ?? "graphql") : ((error as { code?: number }).code ?? "socket")}`),
            complete: () => {},
          },
        ),
      );
    }
  }
  // Each accepted subscription's first message is the current state.
  const deadline = performance.now() + 60_000;
  let last = -1;
  while (state.accepted !== last && performance.now() < deadline) {
    last = state.accepted;
    await sleep(1_000);
  }
  state.dispose = () => {
    for (const dispose of disposers) dispose();
    for (const client of clients) void client.dispose();
  };
  return state;
}

/** A product of a partner of the benchmark's own, open every day, room for every booking. */
async function bookableProduct(base: string, partnerName: string): Promise<number> {
  const target = new FlowTarget(base, TOKEN_PATH, PASSWORD);
  const partner = { username: partnerName, token: "" };
  await signIn(target, partner);
  const today = new Date().toISOString().slice(0, 10);
  const supplier = await call(target, partner, "", "POST", "/api/supplier", supplierRequest(), 201);
  const product = await call(target, partner, "", "POST", `/api/supplier/${supplier.id}/product`, productRequest({ availabilityPeriods: everyDay(today, addDays(today, 730)) }), 201);
  await call(target, partner, "", "PUT", `/api/supplier/${supplier.id}/product/${product.id}/booking-setup`, familySetup({ capacityPerSlot: 100_000, confirmationDelaySeconds: 0 }));
  return product.id;
}

/** A booking of the attacker's, ON_HOLD with its questions answered: confirming it is one call. */
async function heldBooking(setup: Setup): Promise<string> {
  const target = new FlowTarget(setup.base, TOKEN_PATH, PASSWORD);
  target.productId = setup.productId;
  let booking = await holdBooking(target, setup.attacker, Math.floor(Math.random() * 600));
  while (!booking.isQuestionStepComplete) booking = await call(target, setup.attacker, "questions", "PUT", `/booking-flow/v1/bookings/${booking.id}/questions`, validAnswers(booking));
  return booking.id;
}

/** 20 searches on connections of their own, sent while the process is busy, then SIGTERM 40 ms later. */
async function stopWhileBusy(options: FairnessOptions, accounts: { victim: string; attacker: string }): Promise<{ answered: number; statuses: string; exit: number | null }> {
  // What is measured is the drain of a busy process: the cost budget would refuse the load that
  // keeps it busy, and the cap in flight 4 of the victim's 20 requests sent at once.
  const service = await startService({ ...options, profileDir: undefined }, 1, { ...defaultAccountLimits(), API_COST_BUDGET: "0", API_MAX_IN_FLIGHT_PER_ACCOUNT: "0" });
  const target = new FlowTarget(service.base, TOKEN_PATH, PASSWORD);
  const attacker = { username: accounts.attacker, token: "" };
  const victimAccount = { username: accounts.victim, token: "" };
  await signIn(target, attacker);
  await signIn(target, victimAccount);
  const busy = new AbortController();
  const loading = heavyOperations({ base: service.base, victim: victimAccount, victimSignIn: victimAccount, attacker, productId: 0 }, 4, busy.signal);
  await sleep(2_000);
  const statuses: Record<string, number> = {};
  const requests = Array.from({ length: 20 }, () =>
    fetch(`${service.base}/api/consumer/products?Search=title%3Amuseum&resultsPerPage=20`, { headers: { authorization: `Bearer ${victimAccount.token}`, connection: "close" } })
      .then(async (response) => {
        await response.arrayBuffer();
        bump(statuses, String(response.status));
      })
      .catch((error: { cause?: { code?: string } }) => bump(statuses, error.cause?.code ?? "error")),
  );
  await sleep(40);
  service.child.kill("SIGTERM");
  await Promise.all(requests);
  busy.abort();
  await loading.catch(() => undefined);
  const exit = await service.exited;
  return { answered: statuses["200"] ?? 0, statuses: counted(statuses), exit };
}

/**
 * The service's own account limits (rate, cost budget, operations in flight), which startService
 * turns off for the benchmarks that measure paths: here they are what is measured.
 */
function defaultAccountLimits(): Record<string, string> {
  const limits = loadConfig({ DATA_DIR: "memory" }).apiLimits;
  return {
    API_RATE_LIMIT: String(limits.requests),
    API_COST_BUDGET: String(limits.costCapacity),
    API_COST_RESTORE_PER_SECOND: String(limits.costRestorePerSecond),
    API_MAX_IN_FLIGHT_PER_ACCOUNT: String(limits.maxInFlight),
  };
}

export const ATTACKS = ["slow-bodies", "heavy-operations", "subscriptions", "sign-ins", "stop"] as const;

export async function runFairness(options: FairnessOptions): Promise<{ results: AttackResult[]; stop?: { answered: number; statuses: string; exit: number | null } }> {
  const wanted = (name: (typeof ATTACKS)[number]) => !options.only.length || options.only.includes(name);
  const names = { victim: await createAccount(options, "CONSUMER"), victimSignIn: await createAccount(options, "CONSUMER"), attacker: await createAccount(options, "CONSUMER"), partner: await createAccount(options, "CONTENT_PARTNER") };
  const results: AttackResult[] = [];
  // The service with its defaults, as an operator runs it: only the benchmark's own address and port are set.
  const service = await startService({ ...options, profileIntervalUs: 250 }, 1, defaultAccountLimits());
  const admin = options.databaseUrl ? postgres(options.databaseUrl, { max: 1, onnotice: () => {} }) : undefined;
  const postgresBackends = admin
    ? async () => (await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`).map((row) => row.pid)
    : undefined;
  try {
    const setup: Setup = {
      base: service.base,
      pid: service.pid,
      backends: postgresBackends,
      victim: { username: names.victim, token: "" },
      victimSignIn: { username: names.victimSignIn, token: "" },
      attacker: { username: names.attacker, token: "" },
      productId: await bookableProduct(service.base, names.partner),
    };
    const target = new FlowTarget(service.base, TOKEN_PATH, PASSWORD);
    await signIn(target, setup.attacker);
    // Unmeasured: a baseline taken while the service still compiles its search path would have a
    // tail of its own, and any attack measured against it would look lighter than it is.
    await signIn(target, setup.victim);
    await victim({ base: setup.base, kind: "search", token: setup.victim.token, localAddress: VICTIM_ADDRESS, seconds: WARM_UP_SECONDS, rate: SEARCH_RATE });
    const record = (attack: string, victimKind: "search" | "sign-in", outcome: { baseline: VictimSummary; during: VictimSummary; attack: string }, target: string, met: (during: VictimSummary, baseline: VictimSummary) => boolean) =>
      results.push({ attack, victim: victimKind, baseline: outcome.baseline, during: outcome.during, target, met: met(outcome.during, outcome.baseline), attacker: outcome.attack });
    const noFailures = (summary: VictimSummary) => Object.keys(summary.failures).length === 0;
    const within3x = (d: VictimSummary, b: VictimSummary) => noFailures(d) && d.p99 <= 3 * b.p99;

    if (wanted("slow-bodies")) {
      const outcome = await during(setup, "search", options.seconds, (stop) => slowBodies(service.base, options.slowSockets, stop));
      // Closed within the body timeout, and a second for the timer's granularity.
      const closedInTime = outcome.attack.longestMs <= (options.bodyTimeoutSeconds + 1) * 1000;
      record(
        `${options.slowSockets.toLocaleString("en")} slow-body sockets without a token`,
        "search",
        { ...outcome, attack: outcome.attack.text },
        `search p99 ≤ 3× baseline; every slow socket closed within the body timeout (${options.bodyTimeoutSeconds} s)`,
        (d, b) => within3x(d, b) && closedInTime,
      );
    }
    if (wanted("heavy-operations")) {
      await signIn(target, setup.attacker);
      const outcome = await during(setup, "search", options.seconds, (stop) => heavyOperations(setup, options.heavyInFlight, stop));
      record(`${options.heavyInFlight} heavy aliased operations in flight from one account`, "search", outcome, "search p99 ≤ 3× baseline", within3x);
    }
    if (wanted("subscriptions")) {
      await signIn(target, setup.attacker);
      const bookingId = await heldBooking(setup);
      const subscribed = await subscribeMany(setup, bookingId, options.subscriptions);
      // Every subscribe counted against the attacker's request rate: its confirmation, which starts
      // the fan-out, must fall inside the victim's window, not wait for the next rate window.
      await awaitRequestRoom(setup.base, setup.attacker.token);
      const outcome = await during(setup, "search", options.seconds, (stop) => subscriptionStorm(setup, options.subscriptions, stop, { bookingId, subscribed }));
      record(`${options.subscriptions.toLocaleString("en")} subscriptions of one account at one status change`, "search", outcome, "search p99 ≤ 3× baseline; the account's excess subscriptions refused", within3x);
    }
    if (wanted("sign-ins")) {
      const outcome = await during(setup, "sign-in", options.seconds, (stop) => signInFlood(setup, options.signIns, stop));
      record(`${options.signIns} concurrent correct sign-ins of one account`, "sign-in", outcome, "another account's sign-in p99 ≤ 1 s, no 503", (d) => noFailures(d) && d.p99 <= 1000);
    }
  } finally {
    await admin?.end();
    await service.stop();
  }
  const stop = wanted("stop") ? await stopWhileBusy(options, { victim: names.victim, attacker: names.attacker }) : undefined;
  return { results, stop };
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)}` : "–");

export function renderFairness(run: Awaited<ReturnType<typeof runFairness>>, meta: { date: string; machine: string; commit: string; database: string; load: string; seconds: number; command: string }): string {
  const lines = [
    `## Noisy neighbours (${meta.database}), ${meta.date}`,
    "",
    `\`${meta.command}\` on ${meta.machine}, commit ${meta.commit}, load average ${meta.load} at the start. The victim is another consumer account on another client address (${VICTIM_ADDRESS}), asking at a steady pace (${SEARCH_RATE} searches or ${SIGN_IN_RATE} sign-ins a second) for ${meta.seconds} s just before the attack (baseline) and again during it. Latencies in ms, of answers 200; failures are any other answer or none.`,
    "",
    "| attack | victim | baseline p50 / p99 | during p50 / p99 | p99 × | victim failures | target | met | what the attacker got |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of run.results) {
    const failures = counted(r.during.failures) || "none";
    lines.push(`| ${r.attack} | ${r.victim} | ${ms(r.baseline.p50)} / ${ms(r.baseline.p99)} | ${ms(r.during.p50)} / ${ms(r.during.p99)} | ${(r.during.p99 / r.baseline.p99).toFixed(1)} | ${failures} | ${r.target} | ${r.met ? "yes" : "**no**"} | ${r.attacker} |`);
  }
  if (run.stop) {
    lines.push(`| 20 requests sent 40 ms before SIGTERM on a busy process | search | – | – | – | – | 20 answered, exit 0 | ${run.stop.answered === 20 && run.stop.exit === 0 ? "yes" : "**no**"} | ${run.stop.statuses}; exit ${run.stop.exit} |`);
  }
  const loads = run.results.filter((r) => r.baseline.window && r.during.window);
  if (loads.length) {
    lines.push(
      "",
      "Where the victim's time went, in the same windows: the service's event-loop delay (p99 / max, ms, its own histogram from `/metrics`) and CPU, and PostgreSQL's backends' CPU (% of one core; two cores in all).",
      "",
      "| attack | baseline: loop p99 / max | during: loop p99 / max | service CPU baseline → during | PostgreSQL CPU baseline → during |",
      "|---|---|---|---|---|",
    );
    const cpu = (value: number | undefined) => (value === undefined ? "–" : `${value.toFixed(0)} %`);
    for (const r of loads) {
      const [b, d] = [r.baseline.window!, r.during.window!];
      lines.push(`| ${r.attack} | ${ms(b.loopP99Ms)} / ${ms(b.loopMaxMs)} | ${ms(d.loopP99Ms)} / ${ms(d.loopMaxMs)} | ${cpu(b.serviceCpu)} → ${cpu(d.serviceCpu)} | ${cpu(b.postgresCpu)} → ${cpu(d.postgresCpu)} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}
