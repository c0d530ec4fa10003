import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { getOperationAST, GraphQLError, print, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from "graphql";
import { CloseCode, type ConnectionInitMessage, type Context, type SubscribePayload } from "graphql-ws";
import { useServer, type Extra } from "graphql-ws/use/ws";
import { WebSocketServer, type WebSocket } from "ws";
import type { Caller } from "../../core/caller.js";
import { edgeError } from "../../core/edge-refusals.js";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../core/logger.js";
import type { SessionRevocations } from "../../identity/session-revocations.js";
import { bearerToken, InvalidTokenError, type TokenVerifier } from "../../identity/token-verifier.js";
import type { EdgeGraph, SchemaDisclosure } from "../gateway.js";
import { checkEdgeOperation, ValidatedDocuments } from "../operation-limits.js";
import type { AccountLimits, RateDecision } from "../../identity/account-limits.js";
import { toGraphQLError, type SubscriptionEngine } from "./subscription-engine.js";
import { requestRateMessage } from "../../identity/account-limits.js";

interface ConnectionState {
  caller?: Caller;
  acceptLanguage?: string;
  socket?: { close(code: number, reason: string): void };
}

/** What graphql-ws gives each callback about the connection. */
type SocketContext = Context<ConnectionInitMessage["payload"], Extra>;

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

/** The client's bearer token: in the connection_init payload, or on the upgrade request. */
function bearerOf(ctx: SocketContext): string | undefined {
  const params = ctx.connectionParams ?? {};
  const raw = params.Authorization ?? params.authorization ?? ctx.extra.request.headers.authorization;
  return typeof raw === "string" ? bearerToken(raw) : undefined;
}

/** The client's languages: in the connection_init payload, or on the upgrade request. */
function languageOf(ctx: SocketContext): string | undefined {
  const params = ctx.connectionParams ?? {};
  const language = params["Accept-Language"] ?? params["accept-language"] ?? ctx.extra.request.headers["accept-language"];
  return typeof language === "string" ? language : undefined;
}

const secondOf = (caller: Caller) => Math.floor(caller.expiresAt.getTime() / 1000);

const overRate = (decision: RateDecision) =>
  edgeError("REQUEST_RATE", requestRateMessage(decision), { extensions: { retryAfterSeconds: decision.resetSeconds } });

const sessionEnded = () => edgeError("UNAUTHENTICATED", "The session has ended; reconnect with a new token");

/**
 * The open connections, each closed when the token it was opened with would no longer be
 * accepted on HTTP: by a sweep of the tokens expired, and by a pass over all of them when a
 * revocation is heard.
 */
class OpenConnections {
  private readonly states = new WeakMap<object, ConnectionState>();
  private readonly open = new Set<ConnectionState>();
  /**
   * Open connections by the second their token expires in. The sweep looks only at seconds that
   * have begun, so its work each second is the connections due, not every open one: at 10,000
   * idle connections a pass over all of them each second was work that delayed deliveries.
   */
  private readonly expiring = new Map<number, Set<ConnectionState>>();
  private readonly sweep: ReturnType<typeof setInterval>;
  private readonly stopHearingRevocations: () => void;

  constructor(
    private readonly revocations: SessionRevocations,
    private readonly clock: Clock,
  ) {
    this.sweep = setInterval(() => this.closeExpired(), EXPIRY_SWEEP_MS);
    this.sweep.unref();
    this.stopHearingRevocations = revocations.onRevocation(() => {
      for (const state of this.open) this.closeIfEnded(state);
    });
  }

  /** The state of a graphql-ws connection, by its `extra`. */
  stateOf(extra: object): ConnectionState {
    let state = this.states.get(extra);
    if (!state) this.states.set(extra, (state = {}));
    return state;
  }

  /** The connection is the caller's from now until its socket closes. */
  admit(state: ConnectionState, caller: Caller, acceptLanguage: string | undefined, socket: WebSocket): void {
    state.caller = caller;
    state.acceptLanguage = acceptLanguage;
    state.socket = socket;
    this.remember(state);
    socket.once("close", () => this.forget(state));
  }

  /** Closes the connection when its token or session no longer holds; true when it did. */
  closeIfEnded(state: ConnectionState): boolean {
    const end = state.caller && this.endOf(state.caller);
    if (!end) return false;
    this.forget(state);
    state.socket?.close(end.code, end.reason);
    return true;
  }

  stop(): void {
    clearInterval(this.sweep);
    this.stopHearingRevocations();
  }

  private remember(state: ConnectionState): void {
    this.open.add(state);
    const second = secondOf(state.caller!);
    let due = this.expiring.get(second);
    if (!due) this.expiring.set(second, (due = new Set()));
    due.add(state);
  }

  private forget(state: ConnectionState): void {
    this.open.delete(state);
    if (!state.caller) return;
    const second = secondOf(state.caller);
    const due = this.expiring.get(second);
    due?.delete(state);
    if (due?.size === 0) this.expiring.delete(second);
  }

  private closeExpired(): void {
    const now = this.clock.now().getTime();
    for (const [second, due] of this.expiring) if (second * 1000 <= now) for (const state of due) this.closeIfEnded(state);
  }

  /** The close a connection is due, or undefined while its token would still be accepted on HTTP. */
  private endOf(caller: Caller): { code: number; reason: string } | undefined {
    const revoked = this.revocations.reasonAgainst(caller);
    if (revoked === "account disabled") return { code: ACCOUNT_DISABLED, reason: "Forbidden: the account is disabled" };
    if (revoked) return { code: SESSION_ENDED, reason: "Unauthorized: the session has been revoked" };
    if (this.clock.now() >= caller.expiresAt) return { code: SESSION_ENDED, reason: "Unauthorized: the access token has expired" };
    return undefined;
  }
}

/**
 * What graphql-ws asks of us for each connection and operation: who connects, whether an
 * operation may run, how it runs (queries and mutations through the gateway, subscriptions
 * through the subscription engine), and what a socket that does not read gets.
 */
class SocketOperations {
  private stopping = false;
  /** Queries and mutations being executed: a stop lets them answer before closing their socket. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly validated = new ValidatedDocuments();
  private readonly limits: WebSocketLimits;
  private readonly sockets: AccountSlots;
  private readonly subscriptions: AccountSlots;
  readonly schema: GraphQLSchema;

  constructor(
    private readonly options: GraphqlWsOptions,
    private readonly connections: OpenConnections,
  ) {
    this.schema = options.graph.clientSchema;
    this.limits = options.limits ?? { maxSocketsPerAccount: 0, maxSubscriptionsPerAccount: 0, maxBufferedBytes: 4 * 1024 * 1024 };
    this.sockets = new AccountSlots(this.limits.maxSocketsPerAccount);
    this.subscriptions = new AccountSlots(this.limits.maxSubscriptionsPerAccount);
  }

  get refusing(): boolean {
    return this.stopping;
  }

  /** From now, upgrades and operations are refused. */
  refuseNew(): void {
    this.stopping = true;
  }

  async answered(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    // graphql-ws sends a result a few microtasks after the execution settles.
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** connection_init: the bearer token's caller, within the account's socket cap. */
  async connect(ctx: SocketContext): Promise<boolean> {
    const socket = ctx.extra.socket;
    const token = bearerOf(ctx);
    try {
      if (!token) throw new InvalidTokenError("connection_init carries no Authorization bearer token");
      const state = this.connections.stateOf(ctx.extra);
      const caller = await this.options.verifier.verify(token);
      // Closed while its token was being checked: its close has been heard, and a slot taken now would never be given back.
      if (socket.readyState !== socket.OPEN) return false;
      if (!this.takeSocket(caller, socket)) return false;
      this.connections.admit(state, caller, languageOf(ctx), socket);
      return true;
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
      socket.close(CloseCode.Unauthorized, `Unauthorized: ${error.message}`.slice(0, 120));
      return false;
    }
  }

  /** subscribe: the operation's arguments when it may run, or why it may not. */
  async admit(ctx: SocketContext, payload: SubscribePayload): Promise<ExecutionArgs | readonly GraphQLError[]> {
    if (this.stopping) return [edgeError("SHUTTING_DOWN", "The server is shutting down; reconnect")];
    const state = this.connections.stateOf(ctx.extra);
    // Judged again for every operation: the sweep and the revocation events close the socket
    // soon, but never after an operation has been let through on a dead session.
    if (this.connections.closeIfEnded(state)) return [sessionEnded()];
    const caller = state.caller;
    const decision = caller && this.options.accountLimits?.settings.requests ? await this.options.accountLimits.takeRequest(caller.accountId) : undefined;
    if (decision && !decision.allowed) return [overRate(decision)];
    const operationName = payload.operationName ?? undefined;
    const checked = checkEdgeOperation(this.schema, { ...payload, operationName, variables: payload.variables ?? undefined }, this.options.disclosure, this.validated);
    if ("errors" in checked) return checked.errors;
    const context: OperationContext = { ...state, requestId: randomUUID(), cost: checked.cost };
    if (caller && getOperationAST(checked.document, operationName)?.operation === "subscription") {
      const refused = await this.holdSubscription(caller, context);
      if (refused) return [refused];
    }
    return { schema: this.schema, document: checked.document, operationName: payload.operationName, variableValues: payload.variables ?? {}, contextValue: context };
  }

  /** A query or mutation, counted among the account's operations in flight and the server's. */
  execute(args: ExecutionArgs): Promise<ExecutionResult> {
    const state = args.contextValue as ConnectionState;
    const place = this.options.accountLimits && state.caller ? this.options.accountLimits.enter(state.caller.accountId) : undefined;
    if (place && typeof place !== "function") {
      return Promise.resolve({ errors: [edgeError(place.reason, place.message, { extensions: { retryAfterSeconds: place.retryAfterSeconds } })] });
    }
    const running = this.executeThroughGateway(args);
    if (place) void running.finally(place).catch(() => undefined);
    this.inFlight.add(running);
    void running.finally(() => this.inFlight.delete(running)).catch(() => undefined);
    return running;
  }

  /** A subscription's stream from the engine, giving back its slot when it ends (or never starts). */
  async subscribe(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
    const state = args.contextValue as OperationContext;
    const release = state.release ?? (() => {});
    try {
      const operation = getOperationAST(args.document, args.operationName ?? undefined);
      if (!operation) {
        release();
        return { errors: [new GraphQLError("No operation to run")] };
      }
      const stream = await this.options.engine.subscribe({
        schema: this.schema,
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
  }

  /**
   * Checked before each result is written: past the bound, the socket is closed instead of
   * holding ever more for a client that does not read. Its subscriptions end with it.
   */
  closeIfSlow(socket: WebSocket): void {
    if (socket.readyState === socket.OPEN && socket.bufferedAmount > this.limits.maxBufferedBytes) {
      this.options.logger.info({ bufferedBytes: socket.bufferedAmount }, "graphql-ws socket closed: its client does not read its messages");
      socket.close(SLOW_CONSUMER, "Slow consumer: too many unsent messages");
    }
  }

  /** Takes one of the account's sockets until this one closes; false (and the socket closed) past the cap. */
  private takeSocket(caller: Caller, socket: WebSocket): boolean {
    if (!this.sockets.take(caller.accountId)) {
      this.options.logger.debug({ accountId: caller.accountId }, "graphql-ws socket refused: too many sockets for this account");
      socket.close(TOO_MANY_SOCKETS, "Too many sockets for this account");
      return false;
    }
    socket.once("close", () => this.sockets.give(caller.accountId));
    return true;
  }

  /** Takes the account's subscription slot for the operation and admits its cost; the refusal when either is refused. */
  private async holdSubscription(caller: Caller, context: OperationContext): Promise<GraphQLError | undefined> {
    // Taken before anything is awaited, so that subscribes arriving together cannot all pass the cap.
    if (!this.subscriptions.take(caller.accountId)) {
      return edgeError("SUBSCRIPTION_CAP", `This account holds ${this.limits.maxSubscriptionsPerAccount} subscriptions, the most it may; complete one to start another`);
    }
    let held = true;
    const release = () => {
      if (held) this.subscriptions.give(caller.accountId);
      held = false;
    };
    context.release = release;
    const refused = await this.options.engine.admit(caller, context.cost).catch((error: unknown) => {
      release();
      throw error;
    });
    if (refused) release();
    return refused;
  }

  private async executeThroughGateway(args: ExecutionArgs): Promise<ExecutionResult> {
    const state = args.contextValue as ConnectionState & { requestId: string };
    const token = await this.options.delegatedToken(state.caller!).catch(() => undefined);
    if (!token) return { errors: [sessionEnded()] };
    const result = await this.options.graph.execute(
      { query: print(args.document), variables: (args.variableValues ?? {}) as Record<string, unknown>, operationName: args.operationName ?? undefined },
      { caller: state.caller!, token, requestId: state.requestId, acceptLanguage: state.acceptLanguage, limits: this.options.accountLimits },
      "client",
    );
    return {
      data: result.data ?? null,
      ...(result.errors?.length ? { errors: result.errors.map(toGraphQLError) } : {}),
      ...(result.extensions ? { extensions: result.extensions } : {}),
    } as ExecutionResult;
  }
}

export interface GraphqlWsOptions {
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
export function attachGraphqlWs(options: GraphqlWsOptions): { close(): Promise<void>; connections(): number } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const connections = new OpenConnections(options.revocations, options.clock);
  const operations = new SocketOperations(options, connections);
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? "/", "http://local");
    if (pathname !== options.path || operations.refusing) {
      socket.destroy();
      return;
    }
    if (options.admitUpgrade && !options.admitUpgrade(request, socket)) return;
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request));
  };
  options.httpServer.on("upgrade", onUpgrade);
  useServer(
    {
      schema: operations.schema,
      onConnect: (ctx) => operations.connect(ctx),
      onSubscribe: (ctx, _id, payload) => operations.admit(ctx, payload),
      execute: (args) => operations.execute(args),
      subscribe: (args) => operations.subscribe(args),
      onNext: (ctx) => operations.closeIfSlow(ctx.extra.socket),
      onError: (_ctx, _id, _payload, errors) => {
        options.logger.debug({ errors: errors.map((e) => e.message) }, "graphql-ws operation refused");
      },
    },
    wss,
  );
  return {
    connections: () => wss.clients.size,
    close: async () => {
      operations.refuseNew();
      connections.stop();
      // Queries and mutations already running answer first; subscriptions end with the socket
      // (1001: the client reconnects, to another instance, and its first message is the current state).
      await operations.answered();
      options.httpServer.off("upgrade", onUpgrade);
      for (const client of wss.clients) client.close(1001, "Server shutting down");
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
