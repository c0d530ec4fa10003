import { context, SpanKind, trace, type Attributes } from "@opentelemetry/api";
import { ATTR_DB_COLLECTION_NAME, ATTR_DB_OPERATION_NAME, ATTR_DB_QUERY_TEXT, ATTR_DB_SYSTEM_NAME } from "@opentelemetry/semantic-conventions";
import type postgres from "postgres";
import { activeTracer, inSpan, markFailed } from "../core/tracing.js";
import type { PreparedStatementPolicy } from "./prepared-statements.js";
import type { PgliteQueries, RemotePglite, RemoteTransaction } from "./pglite-thread/remote.js";
import type { FairShare } from "./fair-share.js";

/** Whose statements these are, and the connections they take turns at (fair-share.ts). */
export interface Turns {
  share: FairShare;
  account: string;
}

/** How much of the database's connections the service is using right now. */
export interface PoolUse {
  /** postgres.js: the pool's `max`; PGlite: 1, the one connection every statement takes in turn. */
  maxConnections: number;
  /** Statements handed to the driver and not answered yet, inside transactions or not. */
  statementsInFlight: number;
  /** Transactions holding a connection (a pooled one on PostgreSQL, the only one on PGlite) until they end. */
  connectionsReserved: number;
  /** Transactions asked for and still waiting for a connection (or for their account's turn at one). */
  transactionsWaiting: number;
  /** Statements waiting for their account's turn at a connection (fair-share.ts), not handed to the driver yet. */
  statementsQueued: number;
}

/**
 * The point where the service hands statements to its driver. Neither postgres.js nor PGlite
 * says how busy its connections are, so the counts are kept here, for both drivers alike. With
 * tracing on, a statement or transaction run within traced work (a request, a job) is a span.
 */
export class DriverObserver {
  private inFlight = 0;
  private reserved = 0;
  private waiting = 0;

  constructor(readonly maxConnections: number) {}

  get use(): Omit<PoolUse, "statementsQueued"> {
    return { maxConnections: this.maxConnections, statementsInFlight: this.inFlight, connectionsReserved: this.reserved, transactionsWaiting: this.waiting };
  }

  async statement<T>(text: string, run: () => PromiseLike<T>): Promise<T> {
    this.inFlight++;
    try {
      const tracer = activeTracer();
      // Statements outside traced work (LISTEN upkeep, a poll finding nothing) would each be a
      // trace of one span: only work worth a trace has its statements in one.
      if (!tracer || !trace.getSpan(context.active())) return await run();
      const span = tracer.startSpan(statementName(text), { kind: SpanKind.CLIENT, attributes: statementAttributes(text) });
      try {
        return await run();
      } catch (error) {
        markFailed(span, error);
        throw error;
      } finally {
        span.end();
      }
    } finally {
      this.inFlight--;
    }
  }

  /**
   * A transaction from the moment it is asked for: `run` starts it and calls `holding` once the
   * driver has given it a connection, which it keeps until the transaction ends.
   */
  async transaction<T>(run: (holding: () => void) => Promise<T>): Promise<T> {
    if (activeTracer() && trace.getSpan(context.active())) {
      // The span holds the transaction's statements; it lasts from asking for a connection to giving it back.
      return inSpan("transaction", { kind: SpanKind.CLIENT, attributes: DB_SYSTEM }, () => this.counted(run));
    }
    return this.counted(run);
  }

  private async counted<T>(run: (holding: () => void) => Promise<T>): Promise<T> {
    this.waiting++;
    let held = false;
    try {
      return await run(() => {
        if (held) return;
        held = true;
        this.waiting--;
        this.reserved++;
      });
    } finally {
      if (held) this.reserved--;
      else this.waiting--;
    }
  }
}

/**
 * Both names: `db.system.name` is the current convention, `db.system` the one most tracing
 * backends still draw their database views from.
 */
const DB_SYSTEM: Attributes = { [ATTR_DB_SYSTEM_NAME]: "postgresql", "db.system": "postgresql" };
/** Statements are drizzle's text with $1… placeholders: parameter values never reach a span. Long ones are cut. */
const MAX_STATEMENT_TEXT = 2_000;
const OPERATION = /^\s*([A-Za-z]+)/;
/** Only statements with one unambiguous table say which: a select's first FROM may be a subquery's. */
const WRITTEN_TABLE = /^\s*(?:insert\s+into|update|delete\s+from)\s+"?([\w.]+)"?/i;

function statementName(text: string): string {
  const operation = OPERATION.exec(text)?.[1]?.toUpperCase() ?? "SQL";
  const table = WRITTEN_TABLE.exec(text)?.[1];
  return table ? `${operation} ${table}` : operation;
}

function statementAttributes(text: string): Attributes {
  const operation = OPERATION.exec(text)?.[1]?.toUpperCase();
  const table = WRITTEN_TABLE.exec(text)?.[1];
  return {
    ...DB_SYSTEM,
    [ATTR_DB_QUERY_TEXT]: text.length > MAX_STATEMENT_TEXT ? `${text.slice(0, MAX_STATEMENT_TEXT)}…` : text,
    ...(operation ? { [ATTR_DB_OPERATION_NAME]: operation } : {}),
    ...(table ? { [ATTR_DB_COLLECTION_NAME]: table } : {}),
  };
}

type Sql = postgres.Sql;
type TransactionSql = postgres.TransactionSql;

/**
 * postgres.js as drizzle uses it (`unsafe`, `begin`, and `savepoint` inside a transaction), with
 * every statement and transaction going through the observer, each in its account's turn.
 * Everything else passes untouched.
 */
export function observedPostgres(client: Sql, observer: DriverObserver, statements: PreparedStatementPolicy, turns: Turns): Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "unsafe") return observedUnsafe(target, observer, statements, turns);
      if (property === "begin") {
        return (...args: unknown[]) => {
          const callback = args.pop() as (tx: TransactionSql) => unknown;
          // Waiting for its turn is waiting for a connection: the observer counts both.
          return observer.transaction((holding) =>
            turns.share.run(turns.account, () =>
              (target.begin as (...rest: unknown[]) => Promise<unknown>)(...args, (tx: TransactionSql) => {
                holding();
                return callback(observedTransaction(tx, observer, statements));
              }),
            ),
          );
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

function observedTransaction(tx: TransactionSql, observer: DriverObserver, statements: PreparedStatementPolicy): TransactionSql {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property === "unsafe") return observedUnsafe(target, observer, statements, undefined);
      if (property === "savepoint") {
        return (...args: unknown[]) => {
          const callback = args.pop() as (sp: TransactionSql) => unknown;
          return (target.savepoint as (...rest: unknown[]) => Promise<unknown>)(...args, (sp: TransactionSql) => callback(observedTransaction(sp, observer, statements)));
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

/**
 * postgres.js sends a statement when its pending query is awaited, and drizzle may ask for
 * `.values()` first: the answer keeps both, and counts from the await to the answer. drizzle asks
 * for every statement unprepared; the policy decides which run prepared.
 */
function observedUnsafe(target: Sql | TransactionSql, observer: DriverObserver, statements: PreparedStatementPolicy, turns: Turns | undefined) {
  return (text: string, parameters?: unknown[], options?: postgres.UnsafeQueryOptions) => {
    const query = target.unsafe(text, parameters as never, statements.prepare(text) ? { ...options, prepare: true } : options);
    let answer: Promise<unknown> | undefined;
    const observed = {
      values() {
        query.values();
        return observed;
      },
      then<A, B>(onAnswer?: (value: unknown) => A | PromiseLike<A>, onError?: (error: unknown) => B | PromiseLike<B>) {
        // A transaction's statements run in the turn its transaction holds.
        answer ??= turns ? turns.share.run(turns.account, () => observer.statement(text, () => query)) : observer.statement(text, () => query);
        return answer.then(onAnswer, onError);
      },
    };
    return observed;
  };
}

/** The PGlite thread as drizzle uses it (`query`, `exec`, `transaction`), every statement and transaction observed, each in its account's turn. */
export function observedPglite(client: RemotePglite, observer: DriverObserver, turns: Turns): PgliteQueries & Pick<RemotePglite, "transaction"> {
  const queries = (target: PgliteQueries): PgliteQueries => ({
    query: (text, parameters, options) => observer.statement(text, () => target.query(text, parameters, options)) as never,
    exec: (text) => observer.statement(text, () => target.exec(text)),
  });
  const inTurn = <T>(work: () => PromiseLike<T>) => turns.share.run(turns.account, work);
  const outside = queries(client);
  return {
    query: (text, parameters, options) => inTurn(() => outside.query(text, parameters, options)) as never,
    exec: (text) => inTurn(() => outside.exec(text)),
    transaction: <T>(callback: (tx: RemoteTransaction) => Promise<T>) =>
      observer.transaction((holding) =>
        inTurn(() =>
          client.transaction((tx) => {
            holding();
            const observed: RemoteTransaction = {
              ...queries(tx),
              get closed() {
                return tx.closed;
              },
            };
            return callback(observed);
          }),
        ),
      ),
  };
}
