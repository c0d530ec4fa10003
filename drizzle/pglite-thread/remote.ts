import { Worker } from "node:worker_threads";
import type { ErrorFields, HostOptions, QueryOptions, Ready, Reply, Request } from "./protocol.js";

/** What drizzle's PGlite driver and the service call on a PGlite, answered by the database's own thread. */
export interface PgliteQueries {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: PgliteQueryOptions): Promise<{ rows: T[]; fields: { name: string; dataTypeID: number }[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
}

/** drizzle passes parser functions for the types it keeps as text; only their type ids cross threads. */
interface PgliteQueryOptions {
  rowMode?: "array" | "object";
  parsers?: Record<number, unknown>;
}

export interface RemoteTransaction extends PgliteQueries {
  readonly closed: boolean;
}

/** Compiled (dist/…/remote.js) the host is JavaScript; from source it is TypeScript, loaded through tsx. */
const hostUrl = new URL(import.meta.url.endsWith(".ts") ? "./host.ts" : "./host.js", import.meta.url);

/**
 * A PGlite on its own thread. Statements, transactions and LISTEN go over a message port, so a
 * slow statement takes the database thread's time, not the time of the event loop serving
 * requests. Same interface subset as PGlite, so drizzle's PGlite driver works on it unchanged.
 */
export class RemotePglite implements PgliteQueries {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private nextId = 1;
  private exited = false;
  closed = false;
  readonly waitReady: Promise<Ready>;

  constructor(options: HostOptions) {
    this.worker = hostUrl.pathname.endsWith(".ts")
      ? // From source (npm start, tests, benchmarks) the thread registers tsx before loading the host.
        // tsx is resolved here, from this file: the thread's own resolution would start from the working directory.
        new Worker(`import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then(({ register }) => { register(); return import(${JSON.stringify(hostUrl.href)}); });`, { eval: true, workerData: options })
      : new Worker(hostUrl, { workerData: options });
    // The thread never keeps the process alive on its own: only a statement awaiting its answer does.
    this.worker.unref();
    this.waitReady = new Promise<Ready>((resolve, reject) => {
      this.pending.set(0, { resolve: (ready) => resolve(ready as Ready), reject });
      this.worker.ref();
    });
    this.worker.on("message", (reply: Reply) => this.receive(reply));
    this.worker.on("error", (error) => this.failAll(error));
    this.worker.on("exit", (code) => {
      this.exited = true;
      this.closed = true;
      this.failAll(new Error(`the embedded database's thread exited (code ${code})`));
    });
  }

  query<T>(sql: string, params?: unknown[], options?: PgliteQueryOptions) {
    return this.call({ kind: "query", sql, params, options: crossable(options) }) as ReturnType<PgliteQueries["query"]> as Promise<{ rows: T[]; fields: { name: string; dataTypeID: number }[]; affectedRows?: number }>;
  }

  exec(sql: string) {
    return this.call({ kind: "exec", sql });
  }

  /** PGlite's transaction: commits when the callback resolves, rolls back when it throws. */
  async transaction<T>(callback: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    const transaction = (await this.call({ kind: "begin" })) as number;
    let open = true;
    const tx: RemoteTransaction = {
      get closed() {
        return !open;
      },
      query: (sql, params, options) => this.call({ kind: "query", transaction, sql, params, options: crossable(options) }) as never,
      exec: (sql) => this.call({ kind: "exec", transaction, sql }),
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      open = false;
      await this.call({ kind: "end", transaction, commit: false }).catch(() => undefined);
      throw error;
    }
    open = false;
    await this.call({ kind: "end", transaction, commit: true });
    return result;
  }

  /** PGlite's listen: the callback gets each committed NOTIFY payload; returns the unlisten. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    let callbacks = this.listeners.get(channel);
    if (!callbacks) {
      callbacks = new Set();
      this.listeners.set(channel, callbacks);
      await this.call({ kind: "listen", channel });
    }
    callbacks.add(callback);
    return async () => {
      callbacks.delete(callback);
      if (callbacks.size === 0 && this.listeners.get(channel) === callbacks) {
        this.listeners.delete(channel);
        if (!this.closed) await this.call({ kind: "unlisten", channel });
      }
    };
  }

  /** Writes the database as it is now as a template tarball (template.ts). */
  async dump(path: string): Promise<void> {
    await this.call({ kind: "dump", path });
  }

  /** Ends the thread at once, whatever it is doing: for a database nothing is kept of (one being made). */
  async abandon(): Promise<void> {
    this.closed = true;
    await this.terminate();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.call({ kind: "close" });
    } finally {
      this.closed = true;
      await this.terminate();
    }
  }

  /**
   * Stops the thread and waits until it has. A timer holds the process meanwhile: Node counts
   * neither a promise nor a thread being stopped as work left (not even one ref'd), so a process
   * with nothing else to do (one stopped during its start, while a migration wrote) ended before
   * the thread did, silently and with code 0, in the middle of its own stop.
   */
  private async terminate(): Promise<void> {
    if (this.exited) return;
    const hold = setInterval(() => {}, 60_000);
    try {
      await this.worker.terminate();
    } finally {
      clearInterval(hold);
    }
  }

  private call(request: DistributiveOmit<Request, "id">): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error("the embedded database is closed"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id } as Request);
    });
  }

  private receive(reply: Reply): void {
    if (reply.kind === "notification") {
      for (const callback of this.listeners.get(reply.channel) ?? []) callback(reply.payload);
      return;
    }
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(databaseError(reply.error));
  }

  private failAll(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of waiting) reject(error);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function crossable(options: PgliteQueryOptions | undefined): QueryOptions | undefined {
  if (!options) return undefined;
  return { rowMode: options.rowMode, rawTypes: options.parsers ? Object.keys(options.parsers).map(Number) : undefined };
}

/** The database's error as the service's thread sees it: message, SQLSTATE code and the rest of its fields. */
function databaseError(fields: ErrorFields): Error {
  const error = new Error(fields.message);
  Object.assign(error, fields);
  return error;
}
