import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import {
  extendSchema,
  getOperationAST,
  GraphQLError,
  parse,
  print,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from "graphql";
import { CloseCode } from "graphql-ws";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import type { Caller } from "../../core/caller.js";
import type { Logger } from "../../core/logger.js";
import { bearerToken, InvalidTokenError, type TokenVerifier } from "../../identity/token-verifier.js";
import { depthLimit } from "../depth-limit.js";
import type { EdgeGraph } from "../gateway.js";
import { MAX_QUERY_DEPTH } from "../gateway.js";
import { edgeSubscriptionsSdl } from "./edge-subscriptions.js";
import { toGraphQLError, type SubscriptionEngine } from "./subscription-engine.js";

interface ConnectionState {
  caller?: Caller;
  acceptLanguage?: string;
}

/** The client-visible schema over WebSocket: the gateway's API schema plus the edge's subscriptions. */
export const edgeSchema = (graph: EdgeGraph): GraphQLSchema => extendSchema(graph.apiSchema, parse(edgeSubscriptionsSdl));

/**
 * graphql-ws on the same path as the HTTP endpoint. The connection is authenticated once, by
 * the bearer token in the connection_init payload (`{ "Authorization": "Bearer …" }`); queries and
 * mutations go through the gateway, subscriptions through the subscription engine.
 */
export function attachGraphqlWs(options: {
  httpServer: Server;
  path: string;
  graph: EdgeGraph;
  engine: SubscriptionEngine;
  verifier: TokenVerifier;
  delegatedToken: (caller: Caller) => Promise<string>;
  logger: Logger;
}): { close(): Promise<void> } {
  const { graph, engine, verifier, logger } = options;
  const schema = edgeSchema(graph);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? "/", "http://local");
    if (pathname !== options.path) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request));
  };
  options.httpServer.on("upgrade", onUpgrade);
  const states = new WeakMap<object, ConnectionState>();
  const stateOf = (extra: object): ConnectionState => {
    let state = states.get(extra);
    if (!state) states.set(extra, (state = {}));
    return state;
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
          return true;
        } catch (error) {
          if (!(error instanceof InvalidTokenError)) throw error;
          ctx.extra.socket.close(CloseCode.Unauthorized, `Unauthorized: ${error.message}`.slice(0, 120));
          return false;
        }
      },
      onSubscribe: (ctx, _id, payload) => {
        let document: DocumentNode;
        try {
          document = parse(payload.query);
        } catch (error) {
          return [error instanceof GraphQLError ? error : new GraphQLError("Query could not be parsed")];
        }
        const errors = validate(schema, document, [...specifiedRules, depthLimit(MAX_QUERY_DEPTH)]);
        if (errors.length) return errors;
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables ?? {},
          contextValue: { ...stateOf(ctx.extra), requestId: randomUUID() },
        };
      },
      execute: async (args): Promise<ExecutionResult> => {
        const state = args.contextValue as ConnectionState & { requestId: string };
        const token = await options.delegatedToken(state.caller!).catch(() => undefined);
        if (!token) return { errors: [new GraphQLError("The session has ended; reconnect with a new token", { extensions: { code: "UNAUTHENTICATED" } })] };
        const result = await graph.execute(
          { query: print(args.document), variables: (args.variableValues ?? {}) as Record<string, unknown>, operationName: args.operationName ?? undefined },
          { caller: state.caller!, token, requestId: state.requestId, acceptLanguage: state.acceptLanguage },
        );
        return { data: result.data ?? null, ...(result.errors?.length ? { errors: result.errors.map(toGraphQLError) } : {}) } as ExecutionResult;
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
    close: async () => {
      options.httpServer.off("upgrade", onUpgrade);
      for (const client of wss.clients) client.close(1001, "Server shutting down");
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
