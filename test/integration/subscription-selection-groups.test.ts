import { toGlobalId } from "../../core/global-id.js";
import { eq } from "drizzle-orm";
import { getOperationAST, GraphQLError, parse, type ExecutionResult } from "graphql";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Caller } from "../../core/caller.js";
import { channels } from "../../drizzle/events.js";
import { bookings } from "../../drizzle/schema.js";
import { checkEdgeOperation } from "../../gateway/operation-limits.js";
import { edgeSubscriptions } from "../../gateway/subscriptions/edge-subscriptions.js";
import { FAN_OUT_BATCH, SubscriptionEngine, type SubscriptionCosts } from "../../gateway/subscriptions/subscription-engine.js";
import { familySetup } from "../support/booking.js";
import { templateBooking } from "../support/reporting.js";
import { useStack } from "../support/stack.js";

const WATCH = "subscription ($id: ID!) { bookingStatusChanged(bookingId: $id) { id status product { id supplier { id name } } } }";
const STATUS_ONLY = "subscription ($id: ID!) { bookingStatusChanged(bookingId: $id) { status } }";

/**
 * At a status change the engine reads the booking once per selection group (same caller, same
 * selection, same variables, same language), not once per subscriber, and hands the result out
 * in slices that let the rest of the process run. The engine here is the stack's graph and event
 * channel with a cost budget that records what it is asked.
 */
describe("subscribers of one booking share one read per event, handed out in slices", () => {
  // The worker runs only when the test says; its own database, so no other file's worker changes these bookings.
  const t = useStack({ ownDatabase: true, env: { WORKER_LOOPS: "false", API_RATE_LIMIT: "0" } });
  const restores: (() => void)[] = [];
  afterEach(() => {
    for (const restore of restores.splice(0)) restore();
  });

  /** A budget that admits (or refuses with `refusal`) and records every admission and charge. */
  const recordingCosts = (refusal?: () => ReturnType<SubscriptionCosts["admit"]>) => {
    const admitted: { accountId: string; points: number }[] = [];
    const charged: { accountId: string; points: number }[] = [];
    const costs: SubscriptionCosts = {
      admit: async (caller, points) => {
        admitted.push({ accountId: caller.accountId, points });
        return refusal?.();
      },
      charge: (caller, points) => charged.push({ accountId: caller.accountId, points }),
    };
    return { costs, admitted, charged };
  };

  const engineWith = (costs?: SubscriptionCosts) => {
    const edge = t.stack.service.edge!;
    return new SubscriptionEngine({
      graph: edge.graph,
      events: t.stack.service.database.events,
      subscriptions: edgeSubscriptions,
      delegatedToken: (caller) => t.stack.service.identity.tokens.delegatedAccessToken(caller),
      logger: t.stack.service.logger,
      costs,
    });
  };

  /** Entity queries the gateway runs for subscription messages from now on. */
  const countMessageQueries = () => {
    const graph = t.stack.service.edge!.graph;
    const spy = vi.spyOn(graph, "execute");
    restores.push(() => spy.mockRestore());
    return () => spy.mock.calls.filter(([request]) => request.query.startsWith("query EdgeSubscriptionMessage")).length;
  };

  const subscribe = async (engine: SubscriptionEngine, query: string, bookingId: string, caller: Caller, acceptLanguage?: string) => {
    const document = parse(query);
    const cost = costOf(query, bookingId);
    const stream = await engine.subscribe({
      schema: t.stack.service.edge!.graph.clientSchema,
      document,
      operation: getOperationAST(document)!,
      variableValues: { id: toGlobalId("Booking", bookingId) },
      caller,
      requestId: "selection-groups-test",
      acceptLanguage,
      cost,
    });
    if (!(Symbol.asyncIterator in stream)) throw new Error(JSON.stringify(stream));
    return stream;
  };

  const costOf = (query: string, bookingId: string) => {
    const checked = checkEdgeOperation(t.stack.service.edge!.graph.clientSchema, { query, variables: { id: toGlobalId("Booking", bookingId) } }, { introspection: true, suggestions: true });
    if ("errors" in checked) throw new Error(JSON.stringify(checked.errors));
    return checked.cost;
  };

  /** The booking subgraph's change, made here: a status and its event in one transaction. */
  const changeStatus = async (bookingId: string, status: "PENDING_CONFIRM" | "ON_HOLD") => {
    const database = t.stack.service.database;
    await database.db.transaction(async (tx) => {
      await tx.update(bookings).set({ status }).where(eq(bookings.id, bookingId));
      await database.events.publish(tx, channels.bookingEvents, { type: "booking.status", bookingId, status });
    });
  };

  /** Reads each stream's messages as they come, noting the value of `tick()` when each arrives. */
  const follow = (streams: AsyncIterableIterator<ExecutionResult>[], tick: () => number) => {
    const received = streams.map(() => [] as { data: unknown; tick: number }[]);
    streams.forEach(async (stream, index) => {
      for await (const message of stream) received[index].push({ data: message.data, tick: tick() });
    });
    const count = (n: number) => received.filter((messages) => messages.length >= n).length;
    const all = async (n: number) => {
      for (let i = 0; i < 3000 && count(n) < streams.length; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return count(n);
    };
    return { received, all };
  };

  it("reads a booking once per event for 2,000 identical subscribers of one account, yielding to other work between slices", async () => {
    const { bookingId, buyer } = await templateBooking(t.stack, "2027-05-10", familySetup({ confirmationDelaySeconds: 0 }));
    const caller = await t.stack.service.identity.verifier.verify(buyer.token);
    const { costs, admitted, charged } = recordingCosts();
    const engine = engineWith(costs);
    const subscribers = 2000;
    const streams: AsyncIterableIterator<ExecutionResult>[] = [];
    for (let i = 0; i < subscribers; i += 100) {
      streams.push(...(await Promise.all(Array.from({ length: 100 }, () => subscribe(engine, WATCH, bookingId, caller)))));
    }
    // Work queued on the event loop: it advances once per turn of the loop.
    let turns = 0;
    let ticking = true;
    const turn = () => {
      turns++;
      if (ticking) setImmediate(turn);
    };
    setImmediate(turn);
    try {
      const { received, all } = follow(streams, () => turns);
      expect(await all(1)).toBe(subscribers);
      expect(received[0][0].data).toMatchObject({ bookingStatusChanged: { id: toGlobalId("Booking", bookingId), status: "ON_HOLD" } });
      expect(engine.stats()).toEqual({ subscribers, entities: 1, listeners: 1 });

      const messageQueries = countMessageQueries();
      await changeStatus(bookingId, "PENDING_CONFIRM");
      expect(await all(2)).toBe(subscribers);
      // One entity query for all of them: the same caller, selection and variables.
      expect(messageQueries()).toBe(1);
      expect(new Set(received.map((messages) => JSON.stringify(messages[1].data))).size).toBe(1);
      expect(received[0][1].data).toMatchObject({ bookingStatusChanged: { id: toGlobalId("Booking", bookingId), status: "PENDING_CONFIRM", product: { supplier: { name: expect.any(String) } } } });
      // Handed out in slices with turns of the event loop between them: at least one turn per slice.
      const turnsSeen = new Set(received.map((messages) => messages[1].tick));
      expect(turnsSeen.size).toBeGreaterThanOrEqual(subscribers / FAN_OUT_BATCH);
      expect(Math.max(...turnsSeen) - Math.min(...turnsSeen)).toBeGreaterThanOrEqual(subscribers / FAN_OUT_BATCH - 1);

      // The budget: admission is the ws server's (the engine only relays it); each message after an event is charged the subscription's cost.
      expect(admitted).toEqual([]);
      const cost = costOf(WATCH, bookingId);
      expect(cost).toBeGreaterThan(1);
      expect(charged).toHaveLength(subscribers);
      expect(new Set(charged.map((charge) => JSON.stringify(charge)))).toEqual(new Set([JSON.stringify({ accountId: caller.accountId, points: cost })]));
    } finally {
      ticking = false;
      await Promise.all(streams.map((stream) => stream.return?.()));
    }
    expect(engine.stats()).toMatchObject({ subscribers: 0, entities: 0 });
  }, 120_000);

  it("reads once per distinct selection and language, and sends nothing to subscribers who already saw the state", async () => {
    const { bookingId, buyer } = await templateBooking(t.stack, "2027-05-11", familySetup({ confirmationDelaySeconds: 0 }));
    const caller = await t.stack.service.identity.verifier.verify(buyer.token);
    const { costs, charged } = recordingCosts();
    const engine = engineWith(costs);
    const streams = [
      ...(await Promise.all(Array.from({ length: 5 }, () => subscribe(engine, WATCH, bookingId, caller)))),
      ...(await Promise.all(Array.from({ length: 5 }, () => subscribe(engine, STATUS_ONLY, bookingId, caller)))),
      ...(await Promise.all(Array.from({ length: 5 }, () => subscribe(engine, STATUS_ONLY, bookingId, caller, "de")))),
    ];
    try {
      const { received, all } = follow(streams, () => 0);
      expect(await all(1)).toBe(15);
      const messageQueries = countMessageQueries();
      await changeStatus(bookingId, "PENDING_CONFIRM");
      expect(await all(2)).toBe(15);
      expect(messageQueries()).toBe(3);
      expect(received.map((messages) => (messages[1].data as { bookingStatusChanged: { status: string } }).bookingStatusChanged.status)).toEqual(Array(15).fill("PENDING_CONFIRM"));
      expect(charged.map((charge) => charge.points).sort((a, b) => a - b)).toEqual([...Array(10).fill(costOf(STATUS_ONLY, bookingId)), ...Array(5).fill(costOf(WATCH, bookingId))]);

      // A newcomer's first message is its group's read: it gets the state, the others (who saw it) nothing.
      const late = await subscribe(engine, WATCH, bookingId, caller);
      const first = await late.next();
      expect(first.value.data).toMatchObject({ bookingStatusChanged: { status: "PENDING_CONFIRM" } });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(received.map((messages) => messages.length)).toEqual(Array(15).fill(2));
      // Its first message was paid for by its admission.
      expect(charged).toHaveLength(15);
      await late.return?.();
    } finally {
      await Promise.all(streams.map((stream) => stream.return?.()));
    }
  });

  it("relays the budget's refusal of a subscription", async () => {
    const { buyer } = await templateBooking(t.stack, "2027-05-12", familySetup({ confirmationDelaySeconds: 0 }));
    const caller = await t.stack.service.identity.verifier.verify(buyer.token);
    const refusal = new GraphQLError("The account's cost budget is spent", { extensions: { code: "TOO_MANY_REQUESTS", reason: "COST_BUDGET" } });
    const { costs, admitted } = recordingCosts(async () => refusal);
    const engine = engineWith(costs);
    expect(await engine.admit(caller, 7)).toBe(refusal);
    expect(admitted).toEqual([{ accountId: caller.accountId, points: 7 }]);
    // Without a budget everything is admitted.
    expect(await engineWith().admit(caller, 7)).toBeUndefined();
  });
});
