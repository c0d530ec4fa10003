import { toGlobalId } from "../../core/global-id.js";
import { getOperationAST, parse, type ExecutionResult } from "graphql";
import { describe, expect, it } from "vitest";
import type { EventChannel } from "../../drizzle/events.js";
import { channels } from "../../drizzle/events.js";
import { edgeSubscriptions } from "../../gateway/subscriptions/edge-subscriptions.js";
import { SubscriptionEngine } from "../../gateway/subscriptions/subscription-engine.js";
import { familySetup } from "../support/booking.js";
import { templateBooking } from "../support/reporting.js";
import { useStack } from "../support/stack.js";

/**
 * Whether a bookingStatusChanged stream is final is judged from the booking as read, and a
 * change made while the listener is starting is never lost: the engine here listens through a
 * channel that lets the test act exactly in that window.
 */
describe("a subscription ends on the booking's state, whenever it changes", () => {
  // The worker runs only when the test says, so the booking's changes happen where the test puts them.
  // Its own database: on a shared one, other files' workers would confirm the booking at their own moment.
  const t = useStack({ ownDatabase: true, env: { WORKER_LOOPS: "false" } });

  /** The stack's event channel, with `beforeListening` run after the subscriber is authorised and before LISTEN starts. */
  const channelWith = (beforeListening: () => Promise<void>): EventChannel => {
    const events = t.stack.service.database.events;
    return {
      publish: (executor, channel, payload) => events.publish(executor, channel, payload),
      publishAll: (executor, notices, also) => events.publishAll(executor, notices, also),
      subscribe: async (channel, handler) => {
        await beforeListening();
        return events.subscribe(channel, handler);
      },
      close: () => events.close(),
    };
  };

  const subscribe = async (events: EventChannel, bookingId: string, token: string) => {
    const edge = t.stack.service.edge!;
    const engine = new SubscriptionEngine({
      graph: edge.graph,
      events,
      subscriptions: edgeSubscriptions,
      delegatedToken: (caller) => t.stack.service.identity.tokens.delegatedAccessToken(caller),
      logger: t.stack.service.logger,
    });
    const document = parse(`subscription ($id: ID!) { bookingStatusChanged(bookingId: $id) { id status } }`);
    const caller = await t.stack.service.identity.verifier.verify(token);
    const stream = await engine.subscribe({
      schema: edge.graph.clientSchema,
      document,
      operation: getOperationAST(document)!,
      variableValues: { id: toGlobalId("Booking", bookingId) },
      caller,
      requestId: "subscription-end-test",
    });
    if (!(Symbol.asyncIterator in stream)) throw new Error(JSON.stringify(stream));
    return stream;
  };

  /** Every message until the stream completes (a test timeout shows a stream that never does). */
  const collect = async (stream: AsyncIterableIterator<ExecutionResult>) => {
    const messages: unknown[] = [];
    for await (const message of stream) messages.push(message.data);
    return messages;
  };

  it("completes when the booking became final between the subscriber's first read and the start of listening", async () => {
    const { bookingId, buyer } = await templateBooking(t.stack, "2027-03-10", familySetup({ confirmationDelaySeconds: 0 }));
    expect((await buyer.rest.post(`/booking-flow/v1/bookings/${bookingId}/confirm`, {})).body.status).toBe("PENDING_CONFIRM");
    // The supplier confirms in the window: its event is sent before anyone listens.
    const stream = await subscribe(channelWith(() => t.stack.service.worker!.runOnce()), bookingId, buyer.token);
    expect(await collect(stream)).toEqual([{ bookingStatusChanged: { id: toGlobalId("Booking", bookingId), status: "CONFIRMED" } }]);
  });

  it("does not end on an event that claims a final status the booking does not have", async () => {
    const { bookingId, buyer } = await templateBooking(t.stack, "2027-03-10", familySetup({ confirmationDelaySeconds: 0 }));
    await buyer.rest.post(`/booking-flow/v1/bookings/${bookingId}/confirm`, {});
    const stream = await subscribe(channelWith(async () => {}), bookingId, buyer.token);
    const first = await stream.next();
    expect(first.value.data).toEqual({ bookingStatusChanged: { id: toGlobalId("Booking", bookingId), status: "PENDING_CONFIRM" } });
    // A stale or forged notification: the booking, read again, is still PENDING_CONFIRM, so no
    // message and no end.
    await t.stack.service.database.db.transaction((tx) => t.stack.service.database.events.publish(tx, channels.bookingEvents, { type: "booking.status", bookingId, status: "CONFIRMED" }));
    const next = stream.next();
    // Half a second for the engine to read the booking on that event (it takes milliseconds).
    expect(await Promise.race([next, new Promise((resolve) => setTimeout(() => resolve("still waiting"), 500))])).toBe("still waiting");
    await t.stack.service.worker!.runOnce();
    expect((await next).value.data).toEqual({ bookingStatusChanged: { id: toGlobalId("Booking", bookingId), status: "CONFIRMED" } });
    expect(await collect(stream)).toEqual([]);
  });
});
