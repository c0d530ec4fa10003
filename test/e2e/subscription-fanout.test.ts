import { toGlobalId } from "../../core/global-id.js";
import type { Client, ExecutionResult } from "graphql-ws";
import { afterEach, describe, expect, it } from "vitest";
import { familySetup } from "../support/booking.js";
import { copiesOf, templateBooking } from "../support/reporting.js";
import { useStack } from "../support/stack.js";
import { wsClient } from "../support/ws-client.js";

const WATCH = "subscription ($id: ID!) { bookingStatusChanged(bookingId: $id) { id status } }";

/**
 * The edge holds its subscribers in an index by booking id behind one listener per event
 * channel: an event reaches the subscribers of its booking only, and a subscriber leaves the
 * index however its subscription ends, so that opening and closing subscriptions never grows it.
 */
describe("subscription fan-out by booking", () => {
  // The worker runs only when the test says; its own database, so no other file's worker confirms these bookings.
  const t = useStack({ ownDatabase: true, env: { WORKER_LOOPS: "false" } });
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });
  const engine = () => t.stack.service.edge!.subscriptions;

  /** A connection of the buyer; `watch` subscribes and resolves once the first message (the booking as it is) has come. */
  const connect = (token: string) => {
    const client = wsClient(t.stack, token);
    clients.push(client);
    const watch = async (bookingId: string) => {
      const messages: ExecutionResult[] = [];
      let first!: () => void;
      const firstMessage = new Promise<void>((resolve) => (first = resolve));
      let ended!: () => void;
      const done = new Promise<void>((resolve) => (ended = resolve));
      const unsubscribe = client.subscribe(
        { query: WATCH, variables: { id: toGlobalId("Booking", bookingId) } },
        {
          next: (message) => {
            messages.push(message as ExecutionResult);
            first();
          },
          error: (error) => {
            messages.push({ errors: error as never });
            first();
            ended();
          },
          complete: () => ended(),
        },
      );
      await firstMessage;
      /** Resolves once `count` messages have come (a test timeout shows one that never does). */
      const received = async (count: number) => {
        while (messages.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
      };
      return { messages, unsubscribe, done, received };
    };
    return { client, watch };
  };

  /** The engine's index settles a few ticks after a client's complete or close reaches the server. */
  const indexed = async (expected: { subscribers: number; entities: number }) => {
    for (let i = 0; i < 200; i++) {
      const stats = engine().stats();
      if (stats.subscribers === expected.subscribers && stats.entities === expected.entities) return stats;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return engine().stats();
  };

  it("forgets every subscriber once its subscription ends: completed by the client, its connection closed, or its booking final", async () => {
    const { bookingId, buyer } = await templateBooking(t.stack, "2027-04-14", familySetup({ confirmationDelaySeconds: 0 }));
    const cycles = 30;
    for (let cycle = 0; cycle < cycles; cycle++) {
      const connection = connect(buyer.token);
      const watched = await Promise.all([connection.watch(bookingId), connection.watch(bookingId)]);
      expect(watched.map((w) => w.messages[0].data)).toEqual([
        { bookingStatusChanged: { id: toGlobalId("Booking", bookingId), status: "ON_HOLD" } },
        { bookingStatusChanged: { id: toGlobalId("Booking", bookingId), status: "ON_HOLD" } },
      ]);
      if (cycle % 2) {
        for (const w of watched) w.unsubscribe();
      } else {
        await connection.client.dispose();
      }
    }
    expect(await indexed({ subscribers: 0, entities: 0 })).toMatchObject({ subscribers: 0, entities: 0, listeners: 1 });

    // Final status: the subscription completes on its own, and leaves the index.
    const last = await connect(buyer.token).watch(bookingId);
    expect(engine().stats()).toMatchObject({ subscribers: 1, entities: 1 });
    expect((await buyer.rest.post(`/booking-flow/v1/bookings/${bookingId}/confirm`, {})).body.status).toBe("PENDING_CONFIRM");
    // Changes in quick succession may come as one message: the supplier confirms once this one has come.
    await last.received(2);
    await t.stack.service.worker!.runOnce();
    await last.done;
    expect(last.messages.map((m) => m.data)).toEqual([
      { bookingStatusChanged: { id: toGlobalId("Booking", bookingId), status: "ON_HOLD" } },
      { bookingStatusChanged: { id: toGlobalId("Booking", bookingId), status: "PENDING_CONFIRM" } },
      { bookingStatusChanged: { id: toGlobalId("Booking", bookingId), status: "CONFIRMED" } },
    ]);
    expect(await indexed({ subscribers: 0, entities: 0 })).toMatchObject({ subscribers: 0, entities: 0, listeners: 1 });
  });

  it("hands a booking's event to that booking's subscribers only, through one channel listener", async () => {
    const { bookingId, buyer } = await templateBooking(t.stack, "2027-04-15", familySetup({ confirmationDelaySeconds: 0 }));
    const others = await copiesOf(t.database, bookingId, [{}, {}, {}]);
    const connection = connect(buyer.token);
    const watched = await connection.watch(bookingId);
    const idle = await Promise.all([...others, ...others].map((id) => connection.watch(id)));
    expect(engine().stats()).toEqual({ subscribers: 7, entities: 4, listeners: 1 });

    await buyer.rest.post(`/booking-flow/v1/bookings/${bookingId}/confirm`, {});
    await watched.received(2);
    await t.stack.service.worker!.runOnce();
    await watched.done;
    expect(watched.messages.map((m) => (m.data as { bookingStatusChanged: { status: string } }).bookingStatusChanged.status)).toEqual(["ON_HOLD", "PENDING_CONFIRM", "CONFIRMED"]);
    // The others saw only their first message: no event was about their bookings.
    expect(idle.map((w) => w.messages.length)).toEqual(Array(6).fill(1));
    expect(await indexed({ subscribers: 6, entities: 3 })).toEqual({ subscribers: 6, entities: 3, listeners: 1 });
  });
});
