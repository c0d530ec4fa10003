import { sql, type SQL } from "drizzle-orm";
import type postgres from "postgres";
import { rows, type Db } from "./executor.js";
import type { RemotePglite } from "./pglite-thread/remote.js";

export type EventHandler = (payload: unknown) => void;

/** A notification to send: its channel, and a payload that is sent as JSON. */
export interface Notice {
  channel: string;
  payload: unknown;
}

/**
 * Cross-process events over PostgreSQL LISTEN/NOTIFY. A notification is part of the transaction
 * that sends it: subscribers see it only when that transaction commits, so an event never
 * announces a change that was rolled back.
 */
export interface EventChannel {
  publish(executor: Pick<Db, "execute">, channel: string, payload: unknown): Promise<void>;
  /**
   * Several notices in one statement, which also evaluates `also` (an SQL expression) and returns
   * its value: a transaction that announces a change and needs one more fact pays one round trip.
   */
  publishAll(executor: Pick<Db, "execute">, notices: readonly Notice[], also?: SQL): Promise<unknown>;
  subscribe(channel: string, handler: EventHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Channels the service uses; one place so that publishers and listeners cannot drift apart. */
export const channels = {
  bookingEvents: "booking_events",
  /** Sessions revoked and accounts disabled: every process stops accepting their tokens. */
  identityEvents: "identity_events",
  /** A booking job was written or handed back: workers look for due jobs instead of waiting for their poll. */
  bookingJobs: "booking_jobs",
} as const;

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7999;

function assertChannel(channel: string): void {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`invalid event channel name: ${channel}`);
}

abstract class FanOutChannel implements EventChannel {
  private readonly handlers = new Map<string, Set<EventHandler>>();
  private readonly listening = new Map<string, Promise<() => Promise<void>>>();
  private closed = false;

  async publish(executor: Pick<Db, "execute">, channel: string, payload: unknown): Promise<void> {
    await this.publishAll(executor, [{ channel, payload }]);
  }

  async publishAll(executor: Pick<Db, "execute">, notices: readonly Notice[], also?: SQL): Promise<unknown> {
    const calls = notices.map(({ channel, payload }) => {
      assertChannel(channel);
      const text = JSON.stringify(payload);
      if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) {
        throw new Error(`event payload on ${channel} exceeds ${MAX_PAYLOAD_BYTES} bytes; send an id and let listeners read the rest`);
      }
      return sql`pg_notify(${channel}, ${text})`;
    });
    if (also) calls.push(sql`${also} as also`);
    if (!calls.length) return undefined;
    const [row] = await rows<{ also?: unknown }>(executor, sql`select ${sql.join(calls, sql`, `)}`);
    return row?.also;
  }

  async subscribe(channel: string, handler: EventHandler): Promise<() => Promise<void>> {
    assertChannel(channel);
    if (this.closed) throw new Error("event channel is closed");
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    if (!this.listening.has(channel)) {
      this.listening.set(channel, this.listen(channel, (text) => this.dispatch(channel, text)));
    }
    await this.listening.get(channel);
    return async () => {
      set.delete(handler);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const stops = [...this.listening.values()];
    this.listening.clear();
    this.handlers.clear();
    await Promise.allSettled(stops.map(async (stop) => (await stop)()));
  }

  protected abstract listen(channel: string, onText: (text: string) => void): Promise<() => Promise<void>>;

  private dispatch(channel: string, text: string): void {
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      payload = text;
    }
    for (const handler of this.handlers.get(channel) ?? []) {
      try {
        handler(payload);
      } catch {
        // One failing listener must not starve the others; listeners log their own failures.
      }
    }
  }
}

export class PgliteEventChannel extends FanOutChannel {
  constructor(private readonly client: RemotePglite) {
    super();
  }

  protected async listen(channel: string, onText: (text: string) => void) {
    const unlisten = await this.client.listen(channel, onText);
    return async () => {
      if (!this.client.closed) await unlisten();
    };
  }
}

export class PostgresEventChannel extends FanOutChannel {
  constructor(private readonly client: postgres.Sql) {
    super();
  }

  protected async listen(channel: string, onText: (text: string) => void) {
    const subscription = await this.client.listen(channel, onText);
    return async () => {
      await subscription.unlisten().catch(() => undefined);
    };
  }
}
