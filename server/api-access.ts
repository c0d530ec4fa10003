import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import type { Caller } from "../core/caller.js";
import { edgeRefusalBody, graphqlBodyOf, type EdgeRefusalBody } from "../core/edge-refusals.js";
import type { AccountLimits } from "../identity/account-limits.js";
import { bearerToken, InvalidTokenError, type TokenVerifier } from "../identity/token-verifier.js";

/** How a path answers a refused request: the REST error body, or a GraphQL response. */
export type Refusal = (request: FastifyRequest, reply: FastifyReply, refusal: RefusalBody) => FastifyReply;

/** A refusal before any operation (core/edge-refusals.ts): `reason` says which limit refused a 429. */
export type RefusalBody = EdgeRefusalBody;

/** Admits a verified caller or refuses (the account's API limits); may set answer headers. */
export type Admission = (caller: Caller, reply: FastifyReply) => Promise<RefusalBody | undefined> | RefusalBody | undefined;

/**
 * The gate of every API path (REST and /graphql over HTTP): a verified bearer token, the
 * caller's admission (request rate), and `Cache-Control: no-store` on every answer, since each
 * carries one caller's data (bookings, accounts, tokens) that no shared cache may keep.
 * Paths marked `public` (signed links, the console) pass without a token.
 */
export function apiAccessHook(deps: { verifier: TokenVerifier; admit?: Admission; limits?: AccountLimits; refuse: Refusal }): onRequestAsyncHookHandler {
  return async function apiAccess(request, reply) {
    if (request.routeOptions.config?.public) return;
    reply.header("cache-control", "no-store");
    const token = bearerToken(request.headers.authorization);
    if (!token) return deps.refuse(request, reply, edgeRefusalBody("UNAUTHENTICATED", "A bearer access token is required (Authorization: Bearer <token>)"));
    let caller: Caller;
    try {
      caller = await deps.verifier.verify(token);
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
      return deps.refuse(request, reply, edgeRefusalBody("UNAUTHENTICATED", `Invalid access token: ${error.message}`));
    }
    const refused = await deps.admit?.(caller, reply);
    if (refused) return deps.refuse(request, reply, refused);
    request.edgeContext = { caller, token, requestId: String(request.id), acceptLanguage: request.headers["accept-language"], limits: deps.limits };
  };
}

/** GraphQL clients read errors from `errors[].extensions.code`, whatever the HTTP status. */
export const graphqlRefusal: Refusal = (_request, reply, refusal) => {
  if (refusal.status === 401) reply.header("www-authenticate", 'Bearer realm="activities", error="invalid_token"');
  return reply.code(refusal.status).type("application/json; charset=utf-8").send(graphqlBodyOf(refusal));
};
