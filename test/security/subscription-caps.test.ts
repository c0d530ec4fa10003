import { toGlobalId } from "../../core/global-id.js";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GraphQLError, type ExecutionResult } from "graphql";
import type { Client } from "graphql-ws";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { checkEdgeOperation } from "../../gateway/operation-limits.js";
import { edgeSubscriptions } from "../../gateway/subscriptions/edge-subscriptions.js";
import { SubscriptionEngine, type SubscriptionCosts } from "../../gateway/subscriptions/subscription-engine.js";
import { attachGraphqlWs } from "../../gateway/subscriptions/ws-server.js";
import { familySetup } from "../support/booking.js";
import { templateBooking } from "../support/reporting.js";
import { useStack } from "../support/stack.js";
import { closeOf, wsClient } from "../support/ws-client.js";

const WATCH = "subscription ($id: ID!) { bookingStatusChanged(bookingId: $id) { id status product { supplier { name } } } }";
const SOCKETS = 3;
const SUBSCRIPTIONS = 4;
const BUFFERED = 16_384;

/**
 * One account cannot hold a process's graphql-ws sockets and subscriptions without end: beyond
 * WS_MAX_SOCKETS_PER_ACCOUNT a socket is closed at connection_init with 4429, beyond
 * WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT a subscription is refused (TOO_MANY_REQUESTS, SUBSCRIPTION_CAP)
 * on a socket that stays open, and every slot is given back when its socket or subscription ends.
 * A socket whose client does not read is closed with 4413 once its unsent messages pass
 * WS_MAX_BUFFERED_BYTES. A subscription is admitted and charged by the cost budget.
 */
describe("caps per account on graphql-ws sockets and subscriptions", () => {
  // The worker runs only when the test says; its own database, so no other file's worker changes these bookings.
  const logLines: string[] = [];
  const t = useStack({
    ownDatabase: true,
    logLines,
    env: {
      WORKER_LOOPS: "false",
      API_RATE_LIMIT: "0",
      WS_MAX_SOCKETS_PER_ACCOUNT: String(SOCKETS),
      WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: String(SUBSCRIPTIONS),
      WS_MAX_BUFFERED_BYTES: String(BUFFERED),
    },
  });
  const clients: Client[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  /** A connection of the token to `url` (the stack's unless given): whether it was acknowledged, or the close that refused it. */
  const open = async (token: string, url = t.stack.url) => {
    let closed: ((event: { code: number; reason: string }) => void) | undefined;
    const outcome = new Promise<{ connected: true } | { code: number; reason: string }>((resolve) => {
      closed = (event) => resolve(event);
      const client = wsClient({ url }, token, { connected: () => resolve({ connected: true }), closed: (event) => closed?.(closeOf(event)) });
      clients.push(client);
    });
    return { client: clients.at(-1)!, outcome: await outcome };
  };

  /** A subscription: its first message (or refusal), its messages so far, and how to complete it. */
  const watch = async (client: Client, bookingId: string, query = WATCH) => {
    const messages: ExecutionResult[] = [];
    let ended = false;
    let settle!: (outcome: { data: unknown } | { refused: readonly GraphQLError[] }) => void;
    const first = new Promise<{ data: unknown } | { refused: readonly GraphQLError[] }>((resolve) => (settle = resolve));
    const unsubscribe = client.subscribe(
      { query, variables: { id: toGlobalId("Booking", bookingId) } },
      {
        next: (message) => {
          messages.push(message as ExecutionResult);
          settle({ data: message.data });
        },
        error: (errors) => {
          ended = true;
          settle({ refused: errors as readonly GraphQLError[] });
        },
        complete: () => (ended = true),
      },
    );
    return { outcome: await first, messages, unsubscribe, ended: () => ended };
  };

  const capRefusal = { refused: [expect.objectContaining({ extensions: { code: "TOO_MANY_REQUESTS", reason: "SUBSCRIPTION_CAP" } })] };

  /** Retries `attempt` while it is refused: a slot freed by one socket is seen by another once the server has heard of the close. */
  const eventually = async <T>(attempt: () => Promise<T>, accepted: (outcome: T) => boolean): Promise<T> => {
    let outcome = await attempt();
    for (let i = 0; i < 40 && !accepted(outcome); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      outcome = await attempt();
    }
    return outcome;
  };

  const query = (client: Client, text: string) =>
    new Promise<ExecutionResult>((resolve, reject) => {
      let result: ExecutionResult | undefined;
      client.subscribe({ query: text }, { next: (next) => (result = next as ExecutionResult), error: reject, complete: () => resolve(result!) });
    });

  it("closes an account's socket beyond the cap with 4429 at connection_init, other accounts unaffected, and takes a new one once one closes", async () => {
    const token = await t.stack.tokenFor("CONSUMER");
    const held = [];
    for (let i = 0; i < SOCKETS; i++) {
      const socket = await open(token);
      expect(socket.outcome).toEqual({ connected: true });
      held.push(socket);
    }
    expect((await open(token)).outcome).toEqual({ code: 4429, reason: "Too many sockets for this account" });
    // Another account's sockets are counted apart.
    expect((await open(await t.stack.tokenFor("CONSUMER"))).outcome).toEqual({ connected: true });
    // Those held still work.
    expect((await query(held[0].client, "{ me { roles } }")).data).toEqual({ me: { roles: ["CONSUMER"] } });

    await held[0].client.dispose();
    const again = await eventually(
      () => open(token),
      (socket) => "connected" in socket.outcome,
    );
    expect(again.outcome).toEqual({ connected: true });
    expect((await open(token)).outcome).toEqual({ code: 4429, reason: "Too many sockets for this account" });
  });

  it("refuses an account's subscription beyond the cap with TOO_MANY_REQUESTS on an open socket, over all its sockets, and frees slots as subscriptions end", async () => {
    const { bookingId, buyer } = await templateBooking(t.stack, "2027-06-10", familySetup({ confirmationDelaySeconds: 0 }));
    const first = (await open(buyer.token)).client;
    const second = (await open(buyer.token)).client;
    const held = [];
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const watched = await watch(i % 2 ? second : first, bookingId);
      expect(watched.outcome).toEqual({ data: { bookingStatusChanged: expect.objectContaining({ id: toGlobalId("Booking", bookingId), status: "ON_HOLD" }) } });
      held.push(watched);
    }
    expect((await watch(first, bookingId)).outcome).toEqual(capRefusal);
    expect((await watch(second, bookingId)).outcome).toEqual(capRefusal);
    // The socket stays open: queries still run on it, and its subscriptions are still served.
    expect((await query(first, "{ me { roles } }")).data).toEqual({ me: { roles: ["CONSUMER"] } });
    expect(held.map((w) => w.ended())).toEqual(Array(SUBSCRIPTIONS).fill(false));

    // Completed by the client: the slot is free for the next subscribe on that socket.
    held[0].unsubscribe();
    const replacement = await watch(first, bookingId);
    expect(replacement.outcome).toMatchObject({ data: { bookingStatusChanged: { status: "ON_HOLD" } } });
    expect((await watch(first, bookingId)).outcome).toEqual(capRefusal);

    // A closed socket gives back every slot its subscriptions held (two on the second socket).
    await second.dispose();
    for (let i = 0; i < 2; i++) {
      const watched = await eventually(
        () => watch(first, bookingId),
        (w) => "data" in w.outcome,
      );
      expect(watched.outcome).toMatchObject({ data: { bookingStatusChanged: { status: "ON_HOLD" } } });
    }
    expect((await watch(first, bookingId)).outcome).toEqual(capRefusal);
  });

  it("lets no more than the cap through when an account subscribes many times at once, and frees the slots when the booking ends its subscriptions", async () => {
    const { bookingId, buyer } = await templateBooking(t.stack, "2027-06-11", familySetup({ confirmationDelaySeconds: 0 }));
    const client = (await open(buyer.token)).client;
    // Subscriptions the engine refuses (a booking the account may not read) keep no slot.
    for (let i = 0; i < SUBSCRIPTIONS + 2; i++) {
      const refused = await watch(client, randomUUID());
      expect(refused.outcome).toEqual({ data: undefined });
      expect(refused.messages[0].errors?.length).toBeGreaterThan(0);
    }
    const burst = await Promise.all(Array.from({ length: 10 }, () => watch(client, bookingId)));
    const accepted = burst.filter((w) => "data" in w.outcome);
    expect(accepted).toHaveLength(SUBSCRIPTIONS);
    expect(burst.filter((w) => "refused" in w.outcome).map((w) => w.outcome)).toEqual(Array(10 - SUBSCRIPTIONS).fill(capRefusal));

    // The booking reaches a final status: its subscriptions complete, and their slots are free.
    expect((await buyer.rest.post(`/booking-flow/v1/bookings/${bookingId}/confirm`, {})).body.status).toBe("PENDING_CONFIRM");
    await t.stack.service.worker!.runOnce();
    for (let i = 0; i < 200 && !accepted.every((w) => w.ended()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(accepted.map((w) => w.ended())).toEqual(Array(SUBSCRIPTIONS).fill(true));
    const later = await Promise.all(Array.from({ length: SUBSCRIPTIONS }, () => watch(client, bookingId)));
    expect(later.map((w) => w.outcome)).toEqual(Array(SUBSCRIPTIONS).fill({ data: { bookingStatusChanged: expect.objectContaining({ status: "CONFIRMED" }) } }));
  });

  it("closes with 4413 a socket whose client does not read once its unsent messages pass the bound, and keeps one that reads", async () => {
    const token = await t.stack.tokenFor("CONSUMER");
    const big = "{ __schema { types { name description fields { name description args { name description } } } } }";
    // A client that reads gets every answer: the bound is on what waits, not on what is sent.
    const reader = (await open(token)).client;
    const answers = await Promise.all(Array.from({ length: 20 }, () => query(reader, big)));
    expect(answers.every((answer) => answer.data !== undefined && !answer.errors)).toBe(true);

    const socket = new WebSocket(`${t.stack.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
    const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(JSON.stringify({ type: "connection_init", payload: { Authorization: `Bearer ${token}` } }));
    await new Promise<void>((resolve) => socket.once("message", () => resolve()));
    // It stops reading, and asks for far more than the loopback's socket buffers hold.
    socket.pause();
    const size = JSON.stringify(answers[0]).length;
    const asks = Math.ceil((64 * 1024 * 1024) / size);
    for (let i = 0; i < asks && socket.readyState === WebSocket.OPEN; i++) socket.send(JSON.stringify({ id: String(i), type: "subscribe", payload: { query: big } }));
    // It reads again only once the service has given up on it: a busy machine answers the asks
    // slowly, and a client that read earlier would empty the buffer before it passed the bound.
    const givenUp = () => logLines.some((line) => line.includes("its client does not read its messages"));
    for (let waited = 0; waited < 45_000 && !givenUp(); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(givenUp()).toBe(true);
    // Reading again, it finds what was sent before the close, then the close.
    socket.resume();
    const stillOpen = new Promise((resolve) => setTimeout(() => resolve("still open"), 20_000));
    expect(await Promise.race([closed, stillOpen])).toEqual({ code: 4413, reason: "Slow consumer: too many unsent messages" });
    socket.terminate();
  }, 90_000);

  it("admits a subscription by its estimated cost and charges each later message through the cost budget, whose refusal is the subscription's error", async () => {
    const { bookingId, buyer } = await templateBooking(t.stack, "2027-06-12", familySetup({ confirmationDelaySeconds: 0 }));
    const admitted: { accountId: string; points: number }[] = [];
    const charged: { accountId: string; points: number }[] = [];
    let refuse = false;
    const costs: SubscriptionCosts = {
      admit: async (caller, points) => {
        admitted.push({ accountId: caller.accountId, points });
        return refuse ? new GraphQLError("The account's cost budget is spent", { extensions: { code: "TOO_MANY_REQUESTS", reason: "COST_BUDGET" } }) : undefined;
      },
      charge: (caller, points) => charged.push({ accountId: caller.accountId, points }),
    };
    // The stack's own graph, identity and event channel, served by a graphql-ws server whose engine has that budget.
    const { service } = t.stack;
    const edge = service.edge!;
    const delegatedToken = (caller: Parameters<SubscriptionEngine["admit"]>[0]) => service.identity.tokens.delegatedAccessToken(caller);
    const engine = new SubscriptionEngine({ graph: edge.graph, events: service.database.events, subscriptions: edgeSubscriptions, delegatedToken, logger: service.logger, costs });
    const server: Server = createServer();
    const ws = attachGraphqlWs({
      httpServer: server,
      path: "/graphql",
      graph: edge.graph,
      engine,
      verifier: service.identity.verifier,
      revocations: service.identity.revocations,
      clock: t.stack.clock,
      disclosure: t.stack.config.graphql,
      delegatedToken,
      logger: service.logger,
      limits: t.stack.config.websocket,
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      await ws.close();
      await new Promise((resolve) => server.close(resolve));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const checked = checkEdgeOperation(edge.graph.clientSchema, { query: WATCH, variables: { id: toGlobalId("Booking", bookingId) } }, t.stack.config.graphql);
    if ("errors" in checked) throw new Error(JSON.stringify(checked.errors));
    const accountId = (await service.identity.verifier.verify(buyer.token)).accountId;

    const client = (await open(buyer.token, url)).client;
    const watched = await watch(client, bookingId);
    expect(watched.outcome).toMatchObject({ data: { bookingStatusChanged: { status: "ON_HOLD" } } });
    expect(admitted).toEqual([{ accountId, points: checked.cost }]);
    // The first message was paid for by the admission.
    expect(charged).toEqual([]);
    expect((await buyer.rest.post(`/booking-flow/v1/bookings/${bookingId}/confirm`, {})).body.status).toBe("PENDING_CONFIRM");
    for (let i = 0; i < 200 && watched.messages.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(watched.messages[1].data).toMatchObject({ bookingStatusChanged: { status: "PENDING_CONFIRM" } });
    expect(charged).toEqual([{ accountId, points: checked.cost }]);

    // Refused by the budget: an error message on a socket that stays open, and no slot kept.
    refuse = true;
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      expect((await watch(client, bookingId)).outcome).toEqual({ refused: [expect.objectContaining({ extensions: { code: "TOO_MANY_REQUESTS", reason: "COST_BUDGET" } })] });
    }
    refuse = false;
    for (let i = 0; i < SUBSCRIPTIONS - 1; i++) expect((await watch(client, bookingId)).outcome).toMatchObject({ data: { bookingStatusChanged: { status: "PENDING_CONFIRM" } } });
    expect((await watch(client, bookingId)).outcome).toEqual(capRefusal);
  });
});
