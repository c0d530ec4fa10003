import { createClient, type Client, type ClientOptions, type ExecutionResult } from "graphql-ws";
import WebSocket from "ws";
import type { Stack } from "./stack.js";

/** A graphql-ws client of the stack's /graphql: connects at once, never retries, signs in with the token. */
export function wsClient(stack: Pick<Stack, "url">, token: string | undefined, on: ClientOptions["on"] = {}): Client {
  return createClient({
    url: `${stack.url.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => {},
    connectionParams: token ? { Authorization: `Bearer ${token}` } : {},
    on,
  });
}

export interface WsOutcome {
  /** The last result, when the operation completed. */
  result?: ExecutionResult;
  /** The errors the operation was refused with. */
  errors?: readonly { message: string; extensions?: Record<string, unknown> }[];
}

/** Runs one operation over the client and waits for its end: completion or refusal. */
export function wsOutcome(client: Client, query: string, variables?: Record<string, unknown>): Promise<WsOutcome> {
  return new Promise((resolve) => {
    let result: ExecutionResult | undefined;
    client.subscribe(
      { query, variables },
      { next: (next) => (result = next as ExecutionResult), error: (errors) => resolve({ errors: errors as WsOutcome["errors"] }), complete: () => resolve({ result }) },
    );
  });
}

/** The close code and reason of a graphql-ws `closed` event. */
export const closeOf = (event: unknown) => ({ code: (event as { code: number }).code, reason: (event as { reason: string }).reason });
