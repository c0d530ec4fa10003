import { toGlobalId } from "../core/global-id.js";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { eq } from "drizzle-orm";
import type { Client } from "graphql-ws";
import { ManualClock } from "../core/clock.js";
import type { Database } from "../drizzle/database.js";
import { channels } from "../drizzle/events.js";
import { bookings } from "../drizzle/schema.js";
import { familySetup } from "../test/support/booking.js";
import { copiesOf, templateBooking } from "../test/support/reporting.js";
import { startStack, type Stack } from "../test/support/stack.js";
import { wsClient } from "../test/support/ws-client.js";
import { NO_ACCOUNT_LIMITS, ONE_SUBSCRIBING_ACCOUNT } from "./service-settings.js";

/**
 * Subscription fan-out: one watched `bookingStatusChanged` subscriber beside N idle ones on other
 * bookings. For each level a child process (bench/idle-subscribers.ts) opens the idle
 * subscriptions over real graphql-ws sockets; this process runs the service and the watched
 * client, measures the service's memory per idle subscriber (heap after a full GC, and RSS), then
 * changes the watched booking `events` times and times each change from its COMMIT to the
 * watched client's message.
 *
 * The service's clock is held still: the idle subscribers' token (300 s) would otherwise close
 * their connections (4401) during a long run, and their bookings' holds would expire and send
 * events. API rate limiting is off (the idle subscriptions are one account's operations).
 */
export interface SubscriptionBenchOptions {
  database: Database;
  levels: { subscribers: number; perConnection: number }[];
  /** Status changes of the watched booking measured per level. */
  events: number;
  /** Bookings the idle subscribers watch, in turn. */
  idleBookings: number;
  /** Pause between a message and the next change (ms). */
  gapMs: number;
  /** Connections the child opens at once. */
  openConcurrency?: number;
  log?: (line: string) => void;
}

export interface SubscriptionBenchLevel {
  subscribers: number;
  perConnection: number;
  connections: number;
  /** Seconds to open and acknowledge the idle subscriptions (each reads its booking through the gateway and sends it). */
  setupSeconds: number;
  /** What the child saw: first messages, errors, later messages (should be none: the idle are idle). */
  child: { acknowledged: number; unacknowledged: number; errors: number; laterMessages: number; closedConnections: number; errorSamples: string[] };
  /** The subscription engine's index while the idle subscribers were open (the watched one included). */
  engine: { subscribers: number; entities: number; listeners: number };
  memory: {
    /** Bytes of V8 heap used after a full GC, per idle subscriber (their sockets and subscriptions). */
    heapPerSubscriber: number;
    /** Heap plus memory outside it held by JavaScript objects (Buffers), per idle subscriber. */
    heapAndExternalPerSubscriber: number;
    rssPerSubscriber: number;
    rssMiB: number;
  };
  /** COMMIT acknowledged → watched client's message, ms, one per change. */
  deliveryMs: number[];
  p50: number;
  p99: number;
  max: number;
  eventLoopDelayP99Ms: number;
}

export interface SubscriptionBenchResult {
  levels: SubscriptionBenchLevel[];
  idleBookings: number;
  events: number;
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
};

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Heap and RSS once garbage is collected (twice: weak references and finalisers free more on the second). */
async function settledMemory() {
  gc();
  await sleep(50);
  gc();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, external: usage.external, rss: usage.rss };
}

export async function runSubscriptionBench(options: SubscriptionBenchOptions): Promise<SubscriptionBenchResult> {
  const log = options.log ?? (() => {});
  const clock = new ManualClock(new Date());
  // The idle subscribers are one account's: it measures the engine at 100,000 subscribers, not the caps per account.
  const stack: Stack = await startStack({ database: options.database, clock, env: { ...NO_ACCOUNT_LIMITS, ...ONE_SUBSCRIBING_ACCOUNT, WORKER_LOOPS: "false" } });
  const clients: Client[] = [];
  try {
    const engine = stack.service.edge!.subscriptions;
    const { bookingId: watchedId, buyer } = await templateBooking(stack, "2027-03-10", familySetup());
    const [watchedRow] = await options.database.db.select({ organisationId: bookings.organisationId }).from(bookings).where(eq(bookings.id, watchedId));
    const idleIds = await copiesOf(options.database, watchedId, Array.from({ length: options.idleBookings }, () => ({})));
    log(`watched booking ${watchedId}, ${idleIds.length} idle bookings`);

    // The watched subscriber: its messages, in order, with their arrival time.
    const watcher = wsClient(stack, buyer.token);
    clients.push(watcher);
    const arrivals: { status: string; at: number }[] = [];
    let arrived: (() => void) | undefined;
    watcher.subscribe(
      { query: "subscription ($id: ID!) { bookingStatusChanged(bookingId: $id) { id status } }", variables: { id: toGlobalId("Booking", watchedId) } },
      {
        next: (message) => {
          const status = (message.data as { bookingStatusChanged?: { status: string } } | undefined)?.bookingStatusChanged?.status ?? `errors ${JSON.stringify(message.errors)}`;
          arrivals.push({ status, at: performance.now() });
          arrived?.();
        },
        error: (error) => log(`watched subscription failed: ${JSON.stringify(error)}`),
        complete: () => log("watched subscription completed"),
      },
    );
    const nextArrival = async (count: number) => {
      while (arrivals.length < count) await new Promise<void>((resolve) => (arrived = resolve));
      arrived = undefined;
      return arrivals[count - 1];
    };
    await nextArrival(1);
    let status = "ON_HOLD";

    /** The booking subgraph's change, made here: a status and its event in one transaction. */
    const change = async () => {
      status = status === "ON_HOLD" ? "PENDING_CONFIRM" : "ON_HOLD";
      const next = status as "ON_HOLD" | "PENDING_CONFIRM";
      await options.database.db.transaction(async (tx) => {
        await tx.update(bookings).set({ status: next }).where(eq(bookings.id, watchedId));
        await stack.service.database.events.publish(tx, channels.bookingEvents, { type: "booking.status", bookingId: watchedId, status: next, organisationId: watchedRow.organisationId });
      });
      return performance.now();
    };

    const levels: SubscriptionBenchLevel[] = [];
    for (const level of options.levels) {
      const before = await settledMemory();
      const child = fork(fileURLToPath(new URL("./idle-subscribers.ts", import.meta.url)), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
      const waiting = new Map<string, (message: Record<string, unknown>) => void>();
      const failure = new Promise<never>((_, reject) => {
        child.on("message", (message: Record<string, unknown>) => {
          if (message.type === "failed") reject(new Error(`idle subscribers: ${message.error}`));
          waiting.get(String(message.type))?.(message);
        });
        child.on("exit", (code) => reject(new Error(`idle subscribers exited with ${code}`)));
      });
      failure.catch(() => undefined);
      const fromChild = (type: string) => Promise.race([failure, new Promise<Record<string, unknown>>((resolve) => waiting.set(type, resolve))]);
      const ready = fromChild("ready");
      await ready;
      let childClosed = false;
      try {
        const added = fromChild("added");
        child.send({
          type: "add",
          url: `${stack.url.replace("http", "ws")}/graphql`,
          token: buyer.token,
          bookingIds: idleIds,
          count: level.subscribers,
          perConnection: level.perConnection,
          openConcurrency: options.openConcurrency ?? 64,
        });
        const opened = await added;
        log(`${level.subscribers} idle subscribers: ${JSON.stringify({ ...opened, errorSamples: undefined })}`);
        const engineStats = engine.stats();
        const after = await settledMemory();

        const deliveryMs: number[] = [];
        const loopDelay = monitorEventLoopDelay({ resolution: 1 });
        loopDelay.enable();
        for (let i = 0; i < options.events; i++) {
          const expected = arrivals.length + 1;
          const committedAt = await change();
          const message = await Promise.race([nextArrival(expected), sleep(10_000).then(() => undefined)]);
          if (!message) throw new Error(`no message for change ${i} within 10 s`);
          if (message.status !== status) throw new Error(`watched client got ${message.status}, expected ${status}`);
          deliveryMs.push(message.at - committedAt);
          await sleep(options.gapMs);
        }
        loopDelay.disable();

        const stats = fromChild("stats");
        child.send({ type: "stats" });
        const childStats = await stats;
        const idle = level.subscribers;
        levels.push({
          subscribers: idle,
          perConnection: level.perConnection,
          connections: Number(opened.connections),
          setupSeconds: Number(opened.seconds),
          child: {
            acknowledged: Number(childStats.acknowledged),
            unacknowledged: Number(childStats.unacknowledged),
            errors: Number(childStats.errors),
            laterMessages: Number(childStats.laterMessages),
            closedConnections: Number(childStats.closedConnections),
            errorSamples: (childStats.errorSamples as string[] | undefined) ?? [],
          },
          engine: engineStats,
          memory: {
            heapPerSubscriber: (after.heap - before.heap) / idle,
            heapAndExternalPerSubscriber: (after.heap + after.external - before.heap - before.external) / idle,
            rssPerSubscriber: (after.rss - before.rss) / idle,
            rssMiB: after.rss / 2 ** 20,
          },
          deliveryMs,
          p50: percentile(deliveryMs, 50),
          p99: percentile(deliveryMs, 99),
          max: Math.max(...deliveryMs),
          eventLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
        });
        const last = levels.at(-1)!;
        log(`${idle} idle: delivery p50 ${last.p50.toFixed(2)} ms p99 ${last.p99.toFixed(2)} ms; heap ${Math.round(last.memory.heapPerSubscriber)} B per idle subscriber`);
        child.send({ type: "close" });
        childClosed = true;
      } finally {
        if (!childClosed) child.kill();
        await new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));
      }
      // The next level starts from an empty index (the watched subscriber only).
      for (let i = 0; i < 3000 && engine.stats().subscribers > 1; i++) await sleep(10);
    }
    return { levels, idleBookings: idleIds.length, events: options.events };
  } finally {
    await Promise.allSettled(clients.map((client) => client.dispose()));
    await stack.close();
  }
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "n/a");
const bytes = (value: number) => (Number.isFinite(value) ? `${(value / 1024).toFixed(1)} kB` : "n/a");

/** The result as markdown, for its file in bench/results/. */
export function formatSubscriptionBench(result: SubscriptionBenchResult, meta: { date: string; machine: string; commit: string; database: string; command: string; note?: string }): string {
  const lines = [
    "",
    `## ${meta.date}: subscription fan-out, idle subscribers and one watched booking${meta.note ? ` (${meta.note})` : ""}`,
    "",
    `Machine: ${meta.machine}. Service: commit ${meta.commit}, role \`all\` in the bench's process (the watched client too), ${meta.database}.`,
    "",
    `\`${meta.command}\``,
    "",
    `Per level, a child process opens the idle \`bookingStatusChanged\` subscriptions over graphql-ws (one consumer account, ${result.idleBookings} ON_HOLD bookings in turn, none of which changes), then the watched booking changes status ${result.events} times (ON_HOLD ↔ PENDING_CONFIRM: an UPDATE and its NOTIFY in one transaction). Delivery: from that transaction's COMMIT acknowledgement to the watched client's message (the engine reads the booking through the gateway as the subscriber and sends it). Memory: the service process's V8 heap after a full GC (and heap plus Buffers, and RSS) with the idle subscribers open, minus before they were, per idle subscriber: their server-side sockets, graphql-ws state and subscriptions. Each level starts with no idle subscriber.`,
    "",
    "| idle subscribers | per connection | connections | subscribing them | acknowledged | delivery p50 ms | p99 ms | max ms | heap per idle subscriber | heap + Buffers | RSS | process RSS MiB | event-loop delay p99 ms |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const level of result.levels) {
    lines.push(
      `| ${level.subscribers.toLocaleString("en")} | ${level.perConnection} | ${level.connections.toLocaleString("en")} | ${level.setupSeconds.toFixed(1)} s | ${level.child.acknowledged.toLocaleString("en")}${level.child.errors ? ` (${level.child.errors} errors)` : ""} | ${ms(level.p50)} | ${ms(level.p99)} | ${ms(level.max)} | ${bytes(level.memory.heapPerSubscriber)} | ${bytes(level.memory.heapAndExternalPerSubscriber)} | ${bytes(level.memory.rssPerSubscriber)} | ${Math.round(level.memory.rssMiB)} | ${ms(level.eventLoopDelayP99Ms)} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
