import { toGlobalId } from "../core/global-id.js";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";

/**
 * Child process of booking-flow.bench.ts: opens graphql-ws connections to the service and holds
 * `bookingStatusChanged` subscriptions on bookings that do not change, so that the server carries
 * that many idle subscribers while the parent measures. Its own process, so that client and
 * server sockets do not share one file-descriptor limit or one event loop.
 *
 * Messages from the parent: `add` (open more), `stats`, `close`. Answers: `added`, `stats`.
 */
interface AddMessage {
  type: "add";
  url: string;
  token: string;
  bookingIds: string[];
  count: number;
  perConnection: number;
  /** Connections being opened and subscribed at once. */
  openConcurrency: number;
}
type ParentMessage = AddMessage | { type: "stats" } | { type: "close" };

const QUERY = "subscription($id: ID!) { bookingStatusChanged(bookingId: $id) { id status } }";
/** A subscription whose first message (the booking as it is) has not come within this is counted as unacknowledged. */
const FIRST_MESSAGE_TIMEOUT_MS = 30_000;

const clients: Client[] = [];
const counts = { subscriptions: 0, connections: 0, acknowledged: 0, unacknowledged: 0, laterMessages: 0, completed: 0, errors: 0, closedConnections: 0 };
const errorSamples: string[] = [];
let offset = 0;

const send = (message: Record<string, unknown>) => process.send?.(message);

async function add(message: AddMessage): Promise<void> {
  const started = performance.now();
  const connections = Math.ceil(message.count / message.perConnection);
  let next = 0;
  const open = async (index: number) => {
    const size = Math.min(message.perConnection, message.count - index * message.perConnection);
    const client = createClient({
      url: message.url,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: (error) => note(error),
      connectionParams: { Authorization: `Bearer ${message.token}` },
      on: { closed: () => counts.closedConnections++ },
    });
    clients.push(client);
    counts.connections++;
    await Promise.all(
      Array.from({ length: size }, (_, i) => {
        const bookingId = message.bookingIds[(offset + index * message.perConnection + i) % message.bookingIds.length];
        counts.subscriptions++;
        return new Promise<void>((resolve) => {
          let first = true;
          const timer = setTimeout(() => {
            if (first) {
              first = false;
              counts.unacknowledged++;
              resolve();
            }
          }, FIRST_MESSAGE_TIMEOUT_MS);
          const settle = () => {
            first = false;
            clearTimeout(timer);
            resolve();
          };
          client.subscribe(
            { query: QUERY, variables: { id: toGlobalId("Booking", bookingId) } },
            {
              next: (result) => {
                if (result.errors?.length) {
                  counts.errors++;
                  note(result.errors);
                }
                if (first) {
                  counts.acknowledged++;
                  settle();
                } else counts.laterMessages++;
              },
              error: (error) => {
                counts.errors++;
                note(error);
                if (first) settle();
              },
              complete: () => {
                counts.completed++;
                if (first) settle();
              },
            },
          );
        });
      }),
    );
  };
  await Promise.all(
    Array.from({ length: Math.min(message.openConcurrency, connections) }, async () => {
      while (next < connections) await open(next++);
    }),
  );
  offset += message.count;
  send({ type: "added", seconds: (performance.now() - started) / 1000, ...counts, errorSamples });
}

function note(error: unknown) {
  if (errorSamples.length < 5) errorSamples.push(JSON.stringify(error, Object.getOwnPropertyNames(error ?? {})).slice(0, 300));
}

process.on("message", (message: ParentMessage) => {
  if (message.type === "add") {
    add(message).catch((error) => send({ type: "failed", error: String(error) }));
  } else if (message.type === "stats") {
    send({ type: "stats", ...counts, errorSamples });
  } else if (message.type === "close") {
    void Promise.allSettled(clients.map((c) => c.dispose())).then(() => process.exit(0));
  }
});
process.on("disconnect", () => process.exit(0));
send({ type: "ready" });
