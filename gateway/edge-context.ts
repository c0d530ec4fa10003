import type { Caller } from "../core/caller.js";
import type { AccountLimits } from "../identity/account-limits.js";

/** The edge's per-request context: the verified caller and what is forwarded to subgraphs. */
export interface EdgeContext {
  caller: Caller;
  /** The bearer token forwarded to subgraphs, which verify it again. */
  token: string;
  requestId: string;
  acceptLanguage?: string;
  /** The caller's API limits, when its operations are charged to its cost budget (a client's requests, not the edge's own work). */
  limits?: AccountLimits;
}

export function forwardedHeaders(context: EdgeContext): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${context.token}`, "x-request-id": context.requestId };
  if (context.acceptLanguage) headers["accept-language"] = context.acceptLanguage;
  return headers;
}
