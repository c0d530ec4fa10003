import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { getOperationAST, GraphQLError, print, type ExecutionArgs, type ExecutionResult } from "graphql";
import { CloseCode } from "graphql-ws";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import type { Caller } from "../../core/caller.js";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../core/logger.js";
import type { SessionRevocations } from "../../identity/session-revocations.js";
import { bearerToken, InvalidTokenError, type TokenVerifier } from "../../identity/token-verifier.js";
import type { EdgeGraph, SchemaDisclosure } from "../gateway.js";
import { checkEdgeOperation, ValidatedDocuments } from "../operation-limits.js";
import type { AccountLimits } from "../../identity/account-limits.js";
import { toGraphQLError, type SubscriptionEngine } from "./subscription-engine.js";
import { requestRateMessage } from "../../identity/account-limits.js";

interface ConnectionState {
  caller?: Caller;
  acceptLanguage?: string;
  socket?: { close(code: number, reason: string): void };
}

/** What an admitted operation carries from onSubscribe to its execution. */
type OperationContext = ConnectionState & {
  requestId: string;
  /** The operation's estimated cost. */
  cost: number;
  /** Gives back the account's subscription slot taken for it (subscriptions only; once). */
  release?: () => void;
};

/** How often open connections are compared with the expiry of the token they were opened with. */
const EXPIRY_SWEEP_MS = 1000;

/** Close codes: the token or its session no longer holds (reconnect with a new token), or the account may no longer sign in. */
const SESSION_ENDED = 4401;
const ACCOUNT_DISABLED = 4403;
/**
 * Close codes: the account already holds WS_MAX_SOCKETS_PER_ACCOUNT sockets in this process (the
 * code graphql-ws clients treat as final, so they do not retry in a loop); the socket's unsent
 * messages passed WS_MAX_BUFFERED_BYTES (a consumer that does not read).
 */
export const TOO_MANY_SOCKETS = 4429;
export const SLOW_CONSUMER = 4413;

/** graphql-ws limits of the process: see Config.websocket. 0 for a cap: none. */
export interface WebSocketLimits {
  maxSocketsPerAccount: number;
  maxSubscriptionsPerAccount: number;
  maxBufferedBytes: number;
}

/**
 * Slots per account, counted by this process. Each process of WEB_CONCURRENCY (and each replica)
 * counts its own: a socket is held by one process for its whole life, so the count is exact
 * there and costs nothing to keep, where a shared count would need a write to the database for
 * every socket and subscription opened and closed, and a way to give back the slots of a process
 * that died. An account may so hold the cap times the number of processes; what a cap is for,
 * that one account cannot fill a process, holds as it is.
 */
class AccountSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly cap: number) {}

  /** Takes a slot; false when the account holds the cap already. */
  take(accountId: string): boolean {
    const count = this.held.get(accountId) ?? 0;
    if (this.cap > 0 && count >= this.cap) return false;
    this.held.set(accountId, count + 1);
    return true;
  }

  give(accountId: string): void {
    const count = this.held.get(accountId) ?? 0;
    if (count <= 1) this.held.delete(accountId);
    else this.held.set(accountId, count - 1);
  }
}

/** The stream, giving back its slot once when it ends: completed by the server, by the client, or with its socket. */
function releasing(stream: AsyncIterableIterator<ExecutionResult>, release: () => void): AsyncIterableIterator<ExecutionResult> {
  return {
    next: async () => {
      const next = await stream.next();
      if (next.done) release();
      return next;
    },
    return: (value?: unknown) => {
      release();
      return stream.return ? stream.return(value) : Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
 * graphql-ws on the same path as the HTTP endpoint. The connection is authenticated by the
 * bearer token in the connection_init payload (`{ "Authorization": "Bearer …" }`) and lives as
 * long as that token would be accepted on HTTP: it closes with 4401 when the token expires or its
 * session is revoked, and with 4403 when the account is disabled (clients reconnect with a fresh
 * token; a subscription's first message is the current state, so nothing is missed). Queries and
 * mutations go through the gateway, subscriptions through the subscription engine.
 *
 * One account holds at most `limits.maxSocketsPerAccount` sockets (one more is closed at
 * connection_init with 4429) and `limits.maxSubscriptionsPerAccount` subscriptions (one more is
 * refused with an `error` message, TOO_MANY_REQUESTS, reason SUBSCRIPTION_CAP; the socket stays
 * open); a socket closed or a subscription ended frees its slot. A socket whose unsent messages
 * pass `limits.maxBufferedBytes` is closed with 4413 rather than buffered without end. A
 * subscription is admitted by the cost budget (the engine's) at its operation's estimated cost.
 */
export function attachGraphqlWs(options: {
  httpServer: Server;
  path: string;
  graph: EdgeGraph;
  engine: SubscriptionEngine;
  verifier: TokenVerifier;
  revocations: SessionRevocations;
  clock: Clock;
  disclosure: SchemaDisclosure;
  /** Operations over the socket count against the account's API limits like HTTP requests: its rate, its cost budget, its operations in flight. */
  accountLimits?: AccountLimits;
  /** The server's connection caps and stop: false when the upgrade was refused (and answered). */
  admitUpgrade?: (request: IncomingMessage, socket: Duplex) => boolean;
  delegatedToken: (caller: Caller) => Promise<string>;
  logger: Logger;
  /** Unset: no cap per account, and a 4 MiB send buffer. */
  limits?: WebSocketLimits;
}): { close(): Promise<void>; connections(): number } {
  let stopping = false;
  /** Queries and mutations being executed: a stop lets them answer before closing their socket. */
  const inFlight = new Set<Promise<unknown>>();
  const { graph, engine, verifier, logger } = options;
  const schema = graph.clientSchema;
  const validated = new ValidatedDocuments();
  const limits: WebSocketLimits = options.limits ?? { maxSocketsPerAccount: 0, maxSubscriptionsPerAccount: 0, maxBufferedBytes: 4 * 1024 * 1024 };
  const sockets = new AccountSlots(limits.maxSocketsPerAccount);
  const subscriptions = new AccountSlots(limits.maxSubscriptionsPerAccount);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? "/", "http://local");
    if (pathname !== options.path || stopping) {
      socket.destroy();
      return;
    }
    if (options.admitUpgrade && !options.admitUpgrade(request, socket)) return;
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request));
  };
  options.httpServer.on("upgrade", onUpgrade);
  const states = new WeakMap<object, ConnectionState>();
  const stateOf = (extra: object): ConnectionState => {
    let state = states.get(extra);
    if (!state) states.set(extra, (state = {}));
    return state;
  };
  const open = new Set<ConnectionState>();
  /**
   * Open connections by the second their token expires in. The sweep looks only at seconds that
   * have begun, so its work each second is the connections due, not every open one: at 10,000
   * idle connections a pass over all of them each second was work that delayed deliveries.
   * Revocations still close connections by a pass over all of them, when one is heard.
   */
  const expiring = new Map<number, Set<ConnectionState>>();
  const secondOf = (caller: Caller) => Math.floor(caller.expiresAt.getTime() / 1000);
  const forget = (state: ConnectionState) => {
    open.delete(state);
    if (!state.caller) return;
    const second = secondOf(state.caller);
    const due = expiring.get(second);
    due?.delete(state);
    if (due?.size === 0) expiring.delete(second);
  };
  const remember = (state: ConnectionState) => {
    open.add(state);
    const second = secondOf(state.caller!);
    let due = expiring.get(second);
    if (!due) expiring.set(second, (due = new Set()));
    due.add(state);
  };
  /** The close a connection is due, or undefined while its token would still be accepted on HTTP. */
  const endOf = (caller: Caller): { code: number; reason: string } | undefined => {
    const revoked = options.revocations.reasonAgainst(caller);
    if (revoked === "account disabled") return { code: ACCOUNT_DISABLED, reason: "Forbidden: the account is disabled" };
    if (revoked) return { code: SESSION_ENDED, reason: "Unauthorized: the session has been revoked" };
    if (options.clock.now() >= caller.expiresAt) return { code: SESSION_ENDED, reason: "Unauthorized: the access token has expired" };
    return undefined;
  };
  const closeIfEnded = (state: ConnectionState): boolean => {
    const end = state.caller && endOf(state.caller);
    if (!end) return false;
    forget(state);
    state.socket?.close(end.code, end.reason);
    return true;
  };
  const sweep = setInterval(() => {
    const now = options.clock.now().getTime();
    for (const [second, due] of expiring) if (second * 1000 <= now) for (const state of due) closeIfEnded(state);
  }, EXPIRY_SWEEP_MS);
  sweep.unref();
  const stopHearingRevocations = options.revocations.onRevocation(() => {
    for (const state of open) closeIfEnded(state);
  });

  const executeOperation = async (args: ExecutionArgs): Promise<ExecutionResult> => {
    const state = args.contextValue as ConnectionState & { requestId: string };
    const token = await options.delegatedToken(state.caller!).catch(() => undefined);
    if (!token) return { errors: [new GraphQLError("The session has ended; reconnect with a new token", { extensions: { code: "UNAUTHENTICATED" } })] };
    const result = await graph.execute(
      { query: print(args.document), variables: (args.variableValues ?? {}) as Record<string, unknown>, operationName: args.operationName ?? undefined },
      { caller: state.caller!, token, requestId: state.requestId, acceptLanguage: state.acceptLanguage, limits: options.accountLimits },
      "client",
    );
    return {
      data: result.data ?? null,
      ...(result.errors?.length ? { errors: result.errors.map(toGraphQLError) } : {}),
      ...(result.extensions ? { extensions: result.extensions } : {}),
    } as ExecutionResult;
  };

  useServer(
    {
      schema,
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const raw = params.Authorization ?? params.authorization ?? ctx.extra.request.headers.authorization;
        const token = typeof raw === "string" ? bearerToken(raw) : undefined;
        try {
          if (!token) throw new InvalidTokenError("connection_init carries no Authorization bearer token");
          const state = stateOf(ctx.extra);
          const caller = await verifier.verify(token);
          // Closed while its token was being checked: its close has been heard, and a slot taken now would never be given back.
          if (ctx.extra.socket.readyState !== ctx.extra.socket.OPEN) return false;
          if (!sockets.take(caller.accountId)) {
            logger.debug({ accountId: caller.accountId }, "graphql-ws socket refused: too many sockets for this account");
            ctx.extra.socket.close(TOO_MANY_SOCKETS, "Too many sockets for this account");
            return false;
          }
          ctx.extra.socket.once("close", () => sockets.give(caller.accountId));
          state.caller = caller;
          const language = params["Accept-Language"] ?? params["accept-language"] ?? ctx.extra.request.headers["accept-language"];
          state.acceptLanguage = typeof language === "string" ? language : undefined;
          state.socket = ctx.extra.socket;
          remember(state);
          ctx.extra.socket.once("close", () => forget(state));
          return true;
        } catch (error) {
          if (!(error instanceof InvalidTokenError)) throw error;
          ctx.extra.socket.close(CloseCode.Unauthorized, `Unauthorized: ${error.message}`.slice(0, 120));
          return false;
        }
      },
      onSubscribe: async (ctx, _id, payload) => {
        if (stopping) return [new GraphQLError("The server is shutting down; reconnect", { extensions: { code: "SHUTTING_DOWN" } })];
        const state = stateOf(ctx.extra);
        // Judged again for every operation: the sweep and the revocation events close the socket
        // soon, but never after an operation has been let through on a dead session.
        if (closeIfEnded(state)) return [new GraphQLError("The session has ended; reconnect with a new token", { extensions: { code: "UNAUTHENTICATED" } })];
        const caller = state.caller;
        const decision = caller && options.accountLimits?.settings.requests ? await options.accountLimits.takeRequest(caller.accountId) : undefined;
        if (decision && !decision.allowed) return [new GraphQLError(requestRateMessage(decision), { extensions: { code: "TOO_MANY_REQUESTS", reason: "REQUEST_RATE", retryAfterSeconds: decision.resetSeconds } })];
        const checked = checkEdgeOperation(schema, { ...payload, operationName: payload.operationName ?? undefined, variables: payload.variables ?? undefined }, options.disclosure, validated);
        if ("errors" in checked) return checked.errors;
        const context: OperationContext = { ...stateOf(ctx.extra), requestId: randomUUID(), cost: checked.cost };
        if (caller && getOperationAST(checked.document, payload.operationName ?? undefined)?.operation === "subscription") {
          // Taken before anything is awaited, so that subscribes arriving together cannot all pass the cap.
          if (!subscriptions.take(caller.accountId)) {
            return [
              new GraphQLError(`This account holds ${limits.maxSubscriptionsPerAccount} subscriptions, the most it may; complete one to start another`, {
                extensions: { code: "TOO_MANY_REQUESTS", reason: "SUBSCRIPTION_CAP" },
              }),
            ];
          }
          let held = true;
          const release = () => {
            if (held) subscriptions.give(caller.accountId);
            held = false;
          };
          context.release = release;
          const refused = await engine.admit(caller, checked.cost).catch((error: unknown) => {
            release();
            throw error;
          });
          if (refused) {
            release();
            return [refused];
          }
        }
        return {
          schema,
          document: checked.document,
          operationName: payload.operationName,
          variableValues: payload.variables ?? {},
          contextValue: context,
        };
      },
      execute: (args): Promise<ExecutionResult> => {
        const state = args.contextValue as ConnectionState;
        const place = options.accountLimits && state.caller ? options.accountLimits.enter(state.caller.accountId) : undefined;
        if (place && typeof place !== "function") {
          return Promise.resolve({ errors: [new GraphQLError(place.message, { extensions: { code: "TOO_MANY_REQUESTS", reason: place.reason, retryAfterSeconds: place.retryAfterSeconds } })] });
        }
        const running = executeOperation(args);
        if (place) void running.finally(place).catch(() => undefined);
        inFlight.add(running);
        void running.finally(() => inFlight.delete(running)).catch(() => undefined);
        return running;
      },
      subscribe: async (args) => {
        const state = args.contextValue as OperationContext;
        const release = state.release ?? (() => {});
        try {
          const operation = getOperationAST(args.document, args.operationName ?? undefined);
          if (!operation) {
            release();
            return { errors: [new GraphQLError("No operation to run")] };
          }
          const stream = await engine.subscribe({
            schema,
            document: args.document,
            operation,
            variableValues: (args.variableValues ?? {}) as Record<string, unknown>,
            caller: state.caller!,
            requestId: state.requestId,
            acceptLanguage: state.acceptLanguage,
            cost: state.cost,
          });
          if (Symbol.asyncIterator in stream) return releasing(stream, release);
          release();
          return stream;
        } catch (error) {
          release();
          throw error;
        }
      },
      onNext: (ctx) => {
        // Checked before each result is written: past the bound, the socket is closed instead of
        // holding ever more for a client that does not read. Its subscriptions end with it.
        const socket = ctx.extra.socket;
        if (socket.readyState === socket.OPEN && socket.bufferedAmount > limits.maxBufferedBytes) {
          logger.info({ bufferedBytes: socket.bufferedAmount }, "graphql-ws socket closed: its client does not read its messages");
          socket.close(SLOW_CONSUMER, "Slow consumer: too many unsent messages");
        }
      },
      onError: (_ctx, _id, _payload, errors) => {
        logger.debug({ errors: errors.map((e) => e.message) }, "graphql-ws operation refused");
      },
    },
    wss,
  );

  return {
    connections: () => wss.clients.size,
    close: async () => {
      stopping = true;
      clearInterval(sweep);
      stopHearingRevocations();
      // Queries and mutations already running answer first; subscriptions end with the socket
      // (1001: the client reconnects, to another instance, and its first message is the current state).
      await Promise.allSettled([...inFlight]);
      // graphql-ws sends a result a few microtasks after the execution settles.
      await new Promise((resolve) => setImmediate(resolve));
      options.httpServer.off("upgrade", onUpgrade);
      for (const client of wss.clients) client.close(1001, "Server shutting down");
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
