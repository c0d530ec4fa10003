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

/** How often open connections are compared with the expiry of the token they were opened with. */
const EXPIRY_SWEEP_MS = 1000;

/** Close codes: the token or its session no longer holds (reconnect with a new token), or the account may no longer sign in. */
const SESSION_ENDED = 4401;
const ACCOUNT_DISABLED = 4403;


/**
 * graphql-ws on the same path as the HTTP endpoint. The connection is authenticated by the
 * bearer token in the connection_init payload (`{ "Authorization": "Bearer …" }`) and lives as
 * long as that token would be accepted on HTTP: it closes with 4401 when the token expires or its
 * session is revoked, and with 4403 when the account is disabled (clients reconnect with a fresh
 * token; a subscription's first message is the current state, so nothing is missed). Queries and
 * mutations go through the gateway, subscriptions through the subscription engine.
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
  limits?: AccountLimits;
  /** The server's connection caps and stop: false when the upgrade was refused (and answered). */
  admitUpgrade?: (request: IncomingMessage, socket: Duplex) => boolean;
  delegatedToken: (caller: Caller) => Promise<string>;
  logger: Logger;
}): { close(): Promise<void>; connections(): number } {
  let stopping = false;
  /** Queries and mutations being executed: a stop lets them answer before closing their socket. */
  const inFlight = new Set<Promise<unknown>>();
  const { graph, engine, verifier, logger } = options;
  const schema = graph.clientSchema;
  const validated = new ValidatedDocuments();
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
      { caller: state.caller!, token, requestId: state.requestId, acceptLanguage: state.acceptLanguage, limits: options.limits },
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
          state.caller = await verifier.verify(token);
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
        const decision = caller && options.limits?.settings.requests ? await options.limits.takeRequest(caller.accountId) : undefined;
        if (decision && !decision.allowed) return [new GraphQLError(requestRateMessage(decision), { extensions: { code: "TOO_MANY_REQUESTS", reason: "REQUEST_RATE", retryAfterSeconds: decision.resetSeconds } })];
        const checked = checkEdgeOperation(schema, { ...payload, operationName: payload.operationName ?? undefined, variables: payload.variables ?? undefined }, options.disclosure, validated);
        if ("errors" in checked) return checked.errors;
        return {
          schema,
          document: checked.document,
          operationName: payload.operationName,
          variableValues: payload.variables ?? {},
          contextValue: { ...stateOf(ctx.extra), requestId: randomUUID() },
        };
      },
      execute: (args): Promise<ExecutionResult> => {
        const state = args.contextValue as ConnectionState;
        const place = options.limits && state.caller ? options.limits.enter(state.caller.accountId) : undefined;
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
        const state = args.contextValue as ConnectionState & { requestId: string };
        const operation = getOperationAST(args.document, args.operationName ?? undefined);
        if (!operation) return { errors: [new GraphQLError("No operation to run")] };
        return engine.subscribe({
          schema,
          document: args.document,
          operation,
          variableValues: (args.variableValues ?? {}) as Record<string, unknown>,
          caller: state.caller!,
          requestId: state.requestId,
          acceptLanguage: state.acceptLanguage,
        });
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
