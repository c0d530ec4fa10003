import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parentPort, threadId, workerData } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { ErrorFields, HostOptions, QueryOptions, Ready, Reply, Request } from "./protocol.js";

/**
 * The thread that owns the embedded database: it runs each statement the service's thread sends
 * and answers with the rows. PGlite itself serialises statements and transactions, exactly as it
 * does when called from one thread.
 */

const port = parentPort!;
const { dataDir, template } = workerData as HostOptions;
// pg_trgm gives typo-tolerant search, btree_gin search indexes that hold a country beside the
// title words; PostgreSQL servers ship both as contrib extensions.
const extensions = { btree_gin, pg_trgm };
let client!: PGlite;

/**
 * A new database (in memory, or in a folder that holds none yet) starts from the template when
 * there is one. A template that fails to load is removed, whatever it put in the folder is
 * removed with it (nothing that was there before), and the database is made afresh.
 */
async function open(): Promise<Ready> {
  const tarball = template ? readTemplate(template) : undefined;
  if (tarball) {
    const before = dataDir === "memory" ? undefined : new Set(readdirSync(dataDir));
    let loading: PGlite | undefined;
    try {
      loading = make({ loadDataDir: new Blob([tarball]) });
      await loading.waitReady;
      client = loading;
      return { fromTemplate: true };
    } catch {
      await loading?.close().catch(() => undefined);
      rmSync(template!, { force: true });
      if (before) for (const entry of readdirSync(dataDir)) if (!before.has(entry)) rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    }
  }
  client = make({});
  await client.waitReady;
  return { fromTemplate: false };
}

function make(options: { loadDataDir?: Blob }): PGlite {
  return dataDir === "memory" ? new PGlite({ extensions, ...options }) : new PGlite(dataDir, { extensions, ...options });
}

function readTemplate(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written beside its final name and renamed, so a reader never sees half a tarball. */
async function dump(file: string): Promise<null> {
  const tarball = Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer());
  const partial = `${file}.${process.pid}.${threadId}.partial`;
  try {
    writeFileSync(partial, tarball, { mode: 0o600 });
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  return null;
}

/** Open transactions by the id of the request that began them; each ends on its "end" request. */
const transactions = new Map<number, { tx: Transaction; decide: (commit: boolean) => void; settled: Promise<void> }>();
const listening = new Map<string, () => Promise<void>>();
const keepText = (value: string) => value;

/** Thrown inside PGlite's transaction callback so that PGlite rolls back; never leaves this thread. */
class Rollback extends Error {}

function send(reply: Reply): void {
  port.postMessage(reply);
}

function errorFields(error: unknown): ErrorFields {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: ErrorFields = { message: error.message, name: error.name };
  // DatabaseError carries the SQLSTATE code, constraint, detail...; its query options hold functions.
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === "string" || typeof value === "number") fields[key] = value;
  }
  return fields;
}

function executorOf(transaction: number | undefined): Pick<Transaction, "query" | "exec"> {
  if (transaction === undefined) return client;
  const open = transactions.get(transaction);
  if (!open) throw new Error(`transaction ${transaction} is not open`);
  return open.tx;
}

function parseOptions(options: QueryOptions | undefined) {
  if (!options) return undefined;
  return {
    rowMode: options.rowMode,
    parsers: options.rawTypes ? Object.fromEntries(options.rawTypes.map((type) => [type, keepText])) : undefined,
  };
}

async function begin(id: number): Promise<number> {
  let decide!: (commit: boolean) => void;
  const decided = new Promise<boolean>((resolve) => (decide = resolve));
  let started!: () => void;
  const opened = new Promise<void>((resolve) => (started = resolve));
  const settled = client
    .transaction(async (tx) => {
      transactions.set(id, { tx, decide, settled });
      started();
      if (!(await decided)) throw new Rollback();
    })
    .then(
      () => undefined,
      (error) => {
        if (!(error instanceof Rollback)) throw error;
      },
    )
    .finally(() => transactions.delete(id));
  // A failure to begin (the database closed) rejects settled before the callback ever runs.
  await Promise.race([opened, settled]);
  return id;
}

async function end(transaction: number, commit: boolean): Promise<null> {
  const open = transactions.get(transaction);
  if (!open) throw new Error(`transaction ${transaction} is not open`);
  open.decide(commit);
  await open.settled;
  return null;
}

async function handle(request: Request): Promise<unknown> {
  switch (request.kind) {
    case "query":
      return executorOf(request.transaction).query(request.sql, request.params, parseOptions(request.options));
    case "exec":
      return executorOf(request.transaction).exec(request.sql);
    case "begin":
      return begin(request.id);
    case "end":
      return end(request.transaction, request.commit);
    case "listen":
      if (!listening.has(request.channel)) {
        listening.set(request.channel, await client.listen(request.channel, (payload) => send({ kind: "notification", channel: request.channel, payload })));
      }
      return null;
    case "unlisten": {
      const stop = listening.get(request.channel);
      listening.delete(request.channel);
      if (stop && !client.closed) await stop();
      return null;
    }
    case "dump":
      return dump(request.path);
    case "close":
      for (const open of transactions.values()) open.decide(false);
      await Promise.allSettled([...transactions.values()].map((open) => open.settled));
      if (!client.closed) await client.close();
      return null;
  }
}

const opened = open();

port.on("message", (request: Request) => {
  opened.then(() => handle(request)).then(
    (value) => send({ kind: "reply", id: request.id, ok: true, value }),
    (error) => send({ kind: "reply", id: request.id, ok: false, error: errorFields(error) }),
  );
});

opened.then(
  (ready) => send({ kind: "reply", id: 0, ok: true, value: ready }),
  (error) => send({ kind: "reply", id: 0, ok: false, error: errorFields(error) }),
);
