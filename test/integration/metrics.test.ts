import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookableAvailability, bookableProduct, consumer, newRef, validAnswers } from "../support/booking.js";
import { graphql, openTestDatabase, startStack, useStack, type Stack } from "../support/stack.js";

const scrape = async (stack: Stack, headers: Record<string, string> = {}) => {
  const response = await fetch(`${stack.url}/metrics`, { headers });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
};

/** promtool (Prometheus's own tool, Debian's prometheus package, installed by .ci/run) on a scrape: its exit status and what it printed. */
function promtool(text: string): { status: number | null; problems: string } {
  const run = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
  if (run.error) throw run.error;
  return { status: run.status, problems: `${run.stdout}${run.stderr}`.trim() };
}

/** The value of one series, 0 when it is not there yet. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${name}{`) || candidate.startsWith(`${name} `) ? wanted.every((label) => candidate.includes(label)) : false);
  return line ? Number(line.split(" ").at(-1)) : 0;
}

/**
 * GET /metrics in Prometheus's format: the numbers an operator watches move with real traffic
 * (docs/operations.md names the queries).
 */
describe("Prometheus metrics", () => {
  const ctx = useStack();

  it("moves with a booking flow: HTTP routes, operations, subgraph fetches, transitions, queue and sockets", async () => {
    const before = await scrape(ctx.stack);
    expect(before.status).toBe(200);
    expect(before.type).toContain("text/plain");
    const { productId } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const availability = await bookableAvailability(buyer.rest, productId, inAMonth);
    const created = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() });
    expect(created.status).toBe(201);
    let booking = created.body;
    while (!booking.isQuestionStepComplete) booking = (await buyer.rest.put(`/booking-flow/v1/bookings/${booking.id}/questions`, validAnswers(booking))).body;
    expect((await buyer.rest.post(`/booking-flow/v1/bookings/${booking.id}/confirm`)).status).toBe(200);

    const after = await scrape(ctx.stack);
    const http = { route: "/booking-flow/v1/bookings", method: "POST", status: "201" };
    expect(sample(after.text, "activities_http_request_duration_seconds_count", http)).toBe(sample(before.text, "activities_http_request_duration_seconds_count", http) + 1);
    expect(sample(after.text, "activities_graphql_operation_duration_seconds_count", { operation: "RestCreateBooking", type: "mutation", outcome: "ok" })).toBeGreaterThanOrEqual(1);
    expect(sample(after.text, "activities_graphql_subgraph_fetch_duration_seconds_count", { subgraph: "booking", outcome: "ok" })).toBeGreaterThan(sample(before.text, "activities_graphql_subgraph_fetch_duration_seconds_count", { subgraph: "booking", outcome: "ok" }));
    // Counted once committed: LISTEN delivers after the commit, a moment after the answer.
    await expect.poll(async () => sample((await scrape(ctx.stack)).text, "activities_booking_transitions_total", { status: "PENDING_CONFIRM" })).toBeGreaterThan(sample(before.text, "activities_booking_transitions_total", { status: "PENDING_CONFIRM" }));
    expect(sample(after.text, "activities_booking_transitions_total", { status: "ON_HOLD" })).toBeGreaterThan(sample(before.text, "activities_booking_transitions_total", { status: "ON_HOLD" }));
    for (const name of [
      "activities_booking_jobs_due",
      "activities_booking_jobs_oldest_due_seconds",
      "activities_websocket_connections",
      "activities_subscriptions",
      "activities_nodejs_eventloop_lag_seconds",
      "activities_database_connections_max",
      "activities_database_connections_reserved",
      "activities_database_transactions_waiting",
      "activities_database_statements_in_flight",
      "activities_database_statements_queued",
    ]) {
      expect(after.text).toMatch(new RegExp(`^${name}\\{[^}]*pid="${process.pid}"[^}]*\\} \\d`, "m"));
    }
    // Routes are templates: the booking id in a path never becomes a label.
    expect(after.text).not.toContain(booking.id);
  });

  it("passes promtool's check, which refuses what Prometheus tooling would trip on", async () => {
    // After the flow above, so every series the service writes is in the scrape.
    const { text } = await scrape(ctx.stack);
    expect(promtool(text)).toEqual({ status: 0, problems: "" });
    // The check is real: a gauge named like a counter, as prom-client's defaults had, is refused.
    const planted = `${text}# HELP activities_planted_total A gauge named like a counter\n# TYPE activities_planted_total gauge\nactivities_planted_total 1\n`;
    expect(promtool(planted)).toMatchObject({ status: 3, problems: expect.stringContaining(`activities_planted_total non-counter metrics should not have "_total" suffix`) });
  });

  it("counts the database's connections held by transactions, transactions waiting for one, and statements in flight", async () => {
    const max = sample((await scrape(ctx.stack)).text, "activities_database_connections_max");
    // The embedded database has one connection; on PostgreSQL the test's two pools (its own and
    // its key lookups') have 5 each (test/support/stack.ts).
    expect(max).toBe(ctx.database.driver === "pglite" ? 1 : 2 * 5);
    const pools = ctx.database.driver === "pglite" ? [ctx.database] : [ctx.database, ctx.database.forKeyLookups];
    // Every connection held by a transaction that waits for the test: the next transaction and a
    // plain statement can only wait. Read from the database itself, since a scrape runs SQL too.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holding: Promise<unknown>[] = [];
    let began = 0;
    for (let i = 0; i < max; i++) {
      holding.push(
        // An account of its own each: one account holds at most half a pool (fair-share.ts).
        pools[i % pools.length].forAccount(`holder-${i}`).db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          began++;
          await gate;
        }),
      );
    }
    let waiting: Promise<unknown> | undefined;
    let statement: Promise<unknown> | undefined;
    try {
      await expect.poll(() => began).toBe(max);
      waiting = ctx.database.db.transaction(async (tx) => tx.execute(sql`select 1`));
      // A drizzle query is sent when awaited.
      statement = ctx.database.db.execute(sql`select 1`).then(() => undefined);
      await expect.poll(() => ctx.database.poolUse().transactionsWaiting).toBeGreaterThanOrEqual(1);
      // Every slot of the connections' fair share is taken: the statement waits for its turn.
      await expect.poll(() => ctx.database.poolUse().statementsQueued).toBeGreaterThanOrEqual(1);
      expect(ctx.database.poolUse().connectionsReserved).toBeGreaterThanOrEqual(max);
    } finally {
      release();
      await Promise.all([...holding, waiting, statement]);
    }
    await expect.poll(() => ctx.database.poolUse().connectionsReserved).toBe(0);
  });

  it("keeps operation names a caller invents from growing the series without end", async () => {
    const token = await ctx.stack.tokenFor("CONSUMER");
    for (let i = 0; i < 230; i++) await graphql(`${ctx.stack.url}/graphql`, token, `query Invented${i} { __typename }`);
    await graphql(`${ctx.stack.url}/graphql`, token, `query { __typename }`);
    const { text } = await scrape(ctx.stack);
    const names = new Set([...text.matchAll(/activities_graphql_operation_duration_seconds_count\{[^}]*operation="([^"]+)"/g)].map((match) => match[1]));
    expect(names.size).toBeLessThanOrEqual(202);
    expect(names).toContain("other");
    expect(names).toContain("anonymous");
  });
});

describe("Prometheus metrics in production", () => {
  const token = randomBytes(24).toString("base64url");
  let open: Stack;
  let guarded: Stack;
  beforeAll(async () => {
    const database = await openTestDatabase();
    open = await startStack({ database, env: { ENVIRONMENT: "production" } });
    guarded = await startStack({ database, env: { ENVIRONMENT: "production", METRICS_TOKEN: token } });
  });
  afterAll(async () => {
    await open?.close();
    await guarded?.close();
  });

  it("serves nothing without METRICS_TOKEN, and only to its bearer with one", async () => {
    expect((await scrape(open)).status).toBe(404);
    expect((await scrape(guarded)).status).toBe(401);
    expect((await scrape(guarded, { authorization: "Bearer wrong" })).status).toBe(401);
    const allowed = await scrape(guarded, { authorization: `Bearer ${token}` });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain("activities_http_request_duration_seconds");
  });
});
