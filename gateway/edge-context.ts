import type { Caller } from "../core/caller.js";

/** The edge's per-request context: the verified caller and what is forwarded to subgraphs. */
export interface EdgeContext {
  caller: Caller;
  /** The bearer token forwarded to subgraphs, which verify it again. */
  token: string;
  requestId: string;
  acceptLanguage?: string;
}

export function forwardedHeaders(context: EdgeContext): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${context.token}`, "x-request-id": context.requestId };
  if (context.acceptLanguage) headers["accept-language"] = context.acceptLanguage;
  return headers;
}
