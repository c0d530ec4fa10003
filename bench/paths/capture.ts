import { AsyncLocalStorage } from "node:async_hooks";
import { fillPlaceholders } from "drizzle-orm";
import { PgliteSession, PglitePreparedQuery } from "drizzle-orm/pglite/session";
import { PostgresJsPreparedQuery, PostgresJsSession } from "drizzle-orm/postgres-js/session";
import type { Service } from "../../server/service.js";
import type { HeaderMap } from "../../subgraphs/common/subgraph.context.js";
import type { SubgraphName } from "../../subgraphs/subgraph.names.js";

/** One SQL statement a request ran, as drizzle sent it to the driver; `tx` groups the statements of one transaction. */
export interface CapturedStatement {
  sql: string;
  params: unknown[];
  tx?: number;
}

/** One call the gateway made on an in-process subgraph, with the headers it forwarded. */
export interface CapturedSubgraphCall {
  subgraph: SubgraphName;
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  headers: Record<string, string>;
}

/** Everything one REST request did below the REST layer: the gateway operation, the subgraph calls, the SQL. */
export interface Capture {
  gateway?: { query: string; variables?: Record<string, unknown> };
  subgraphCalls: CapturedSubgraphCall[];
  statements: CapturedStatement[];
}

interface Scope {
  capture: Capture;
  tx?: number;
}

const als = new AsyncLocalStorage<Scope>();
let transactions = 0;
let driversPatched = false;

/**
 * drizzle's prepared queries and sessions of both drivers, patched once per process so that a
 * request marked for capture records what it runs; requests without the mark pay one
 * AsyncLocalStorage lookup per statement, the same on every path measured.
 */
function patchDrivers() {
  if (driversPatched) return;
  driversPatched = true;
  type Query = { queryString: string; params: unknown[] };
  for (const prototype of [PostgresJsPreparedQuery.prototype, PglitePreparedQuery.prototype] as unknown as Record<"execute" | "all", (this: Query, ...args: unknown[]) => Promise<unknown>>[]) {
    for (const name of ["execute", "all"] as const) {
      const original = prototype[name];
      prototype[name] = function (this: Query, ...args: unknown[]) {
        const scope = als.getStore();
        // A compiled select (drizzle/compiled-select.ts) keeps placeholders in its params: the values it ran with are filled in.
        if (scope) scope.capture.statements.push({ sql: this.queryString, params: fillPlaceholders(this.params, (args[0] as Record<string, unknown> | undefined) ?? {}), tx: scope.tx });
        return original.apply(this, args);
      };
    }
  }
  for (const prototype of [PostgresJsSession.prototype, PgliteSession.prototype] as unknown as { transaction: (body: unknown, config?: unknown) => Promise<unknown> }[]) {
    const transaction = prototype.transaction;
    prototype.transaction = function (this: unknown, body: unknown, config?: unknown) {
      const scope = als.getStore();
      if (!scope) return transaction.call(this, body, config);
      return als.run({ ...scope, tx: ++transactions }, () => transaction.call(this, body, config));
    };
  }
}

export const CAPTURE_HEADER = "x-bench-capture";

/**
 * Arms capture on a running single-process service: a request carrying CAPTURE_HEADER records
 * into the Capture that `take` hands back afterwards.
 */
export function captureService(service: Service): ServiceCapture {
  // Armed once per service: a second request listener would re-enter its own scope after the first's.
  let armed = armedServices.get(service);
  if (!armed) armedServices.set(service, (armed = armService(service)));
  return armed;
}

interface ServiceCapture {
  take(key: string): Capture;
}

const armedServices = new WeakMap<Service, ServiceCapture>();

function armService(service: Service): ServiceCapture {
  patchDrivers();
  const edge = service.edge!;
  const pending = new Map<string, Capture>();
  service.app.server.prependListener("request", (request) => {
    const key = request.headers[CAPTURE_HEADER];
    if (typeof key !== "string") {
      // A keep-alive connection's next request runs in the context this one entered: while a
      // capture is open, every request sets its own.
      if (pending.size) als.enterWith(undefined as unknown as Scope);
      return;
    }
    const capture: Capture = { subgraphCalls: [], statements: [] };
    pending.set(key, capture);
    als.enterWith({ capture });
  });
  const graph = edge.graph;
  const execute = graph.execute.bind(graph);
  graph.execute = ((request, context) => {
    const scope = als.getStore();
    if (scope && !scope.capture.gateway) scope.capture.gateway = { query: request.query, variables: request.variables };
    return execute(request, context);
  }) as typeof graph.execute;
  for (const running of Object.values(edge.subgraphs)) {
    const createContext = running!.createContext;
    // The headers the gateway forwards travel with the context they made, to the call that uses it.
    running!.createContext = async (headers: HeaderMap) => {
      const context = await createContext(headers);
      if (als.getStore()) (context as unknown as { benchHeaders?: Record<string, string> }).benchHeaders = Object.fromEntries(
          (headers instanceof Map ? [...headers.entries()] : Object.entries(headers)).map(([name, value]) => [name, String(value)]),
        );
      return context;
    };
    const executeInProcess = running!.executeInProcess;
    running!.executeInProcess = (request, contextValue) => {
      const scope = als.getStore();
      // The gateway's fetches only: a subgraph's own calls to another (in its service's name) run inside them.
      if (scope && !contextValue.caller.service)
        scope.capture.subgraphCalls.push({
          subgraph: running!.name,
          query: request.query,
          variables: request.variables,
          operationName: request.operationName,
          headers: (contextValue as { benchHeaders?: Record<string, string> }).benchHeaders ?? {},
        });
      return executeInProcess(request, contextValue);
    };
  }
  return {
    take(key: string): Capture {
      const capture = pending.get(key);
      if (!capture) throw new Error(`no capture ${key}`);
      pending.delete(key);
      // An enabled AsyncLocalStorage runs a hook on every promise the process makes, which the
      // service never pays in production: it stays off while the cells are measured.
      if (!pending.size) als.disable();
      // Work the request left behind (a late callback) must not add to what was taken.
      return { gateway: capture.gateway, subgraphCalls: [...capture.subgraphCalls], statements: [...capture.statements] };
    },
  };
}
