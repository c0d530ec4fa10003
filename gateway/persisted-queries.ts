import { createHash } from "node:crypto";
import type { ApolloServerPlugin } from "@apollo/server";
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { edgeRefusalBody, graphqlBodyOf, type EdgeRefusalBody } from "../core/edge-refusals.js";
import type { Logger } from "../core/logger.js";

/**
 * Automatic persisted queries (Apollo's `extensions.persistedQuery`, version 1) on `/graphql`:
 * a client sends the SHA-256 of its operation's text alone, and the text with its hash when told
 * `PERSISTED_QUERY_NOT_FOUND`; the edge's Apollo Server registers a text under its hash once it has
 * been parsed and validated, and runs the text a known hash names (docs/spec-decisions.md,
 * "Persisted queries"). Apollo Server answers two mistakes of the protocol with an error that has
 * no code, which the service showed as `INTERNAL_SERVER_ERROR` and logged with its stack: a
 * version other than 1, and a text whose hash is not the one sent. They are answered here before
 * it reads the request, with the codes Apollo's clients and router know, and logged at info: the
 * caller's mistake, not the service's.
 */

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The refusal a request's persistedQuery extension calls for, or undefined when Apollo Server
 * answers it as it should: no extension, a known hash, an unknown one (PERSISTED_QUERY_NOT_FOUND),
 * a text sent with its own hash (registered), or a request it refuses for another reason.
 */
export function persistedQueryRefusal(method: string, body: unknown, queryString: unknown): EdgeRefusalBody | undefined {
  let extensions: unknown;
  let query: unknown;
  if (method === "POST") {
    if (!isObject(body)) return undefined;
    ({ extensions, query } = body);
  } else if (method === "GET" && isObject(queryString)) {
    query = queryString.query;
    if (typeof queryString.extensions !== "string") return undefined;
    try {
      extensions = JSON.parse(queryString.extensions);
    } catch {
      // Apollo Server answers what is not JSON itself (400 BAD_REQUEST).
      return undefined;
    }
  } else return undefined;
  if (!isObject(extensions) || extensions.persistedQuery === undefined) return undefined;
  const persisted = extensions.persistedQuery;
  if (!isObject(persisted) || persisted.version !== 1) {
    // Apollo Server's own answer when persisted queries are off: its clients then send the text alone.
    return edgeRefusalBody("PERSISTED_QUERY_NOT_SUPPORTED", "Only version 1 of automatic persisted queries is supported: send the operation's text");
  }
  const hash = persisted.sha256Hash;
  if (typeof hash !== "string") return edgeRefusalBody("BAD_REQUEST", "extensions.persistedQuery.sha256Hash must be the SHA-256 of the operation's text, in lower-case hex");
  if (typeof query === "string" && query !== "") {
    if (createHash("sha256").update(query).digest("hex") !== hash) {
      return edgeRefusalBody("PERSISTED_QUERY_HASH_MISMATCH", "extensions.persistedQuery.sha256Hash is not the SHA-256 of the query sent (lower-case hex of its UTF-8 text)");
    }
    return undefined;
  }
  // No text can have this hash: it is unknown, as Apollo Server would find.
  if (!SHA256_HEX.test(hash)) return edgeRefusalBody("PERSISTED_QUERY_NOT_FOUND", "PersistedQueryNotFound");
  return undefined;
}

/** A preHandler for `/graphql` answering the refusals above as Apollo Server answers its own. */
export function persistedQueryCheck(): preHandlerAsyncHookHandler {
  return async function (request: FastifyRequest, reply: FastifyReply) {
    const refusal = persistedQueryRefusal(request.method, request.body, request.query);
    if (!refusal) return;
    request.log.info({ code: refusal.code }, "persisted query refused");
    // Apollo Server's answers to persisted-query misses: never cached by the browser or a proxy.
    if (refusal.status === 200) reply.header("cache-control", "private, no-cache, must-revalidate");
    return reply
      .code(refusal.status)
      .header("content-type", "application/json; charset=utf-8")
      .send(`${JSON.stringify(graphqlBodyOf(refusal))}\n`);
  };
}

/** Apollo Server's own PERSISTED_QUERY_NOT_FOUND (an unknown hash), logged at info as the refusals above are. */
export function persistedQueryMissLog<TContext extends { requestId: string }>(logger: Logger): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          const code = errors.find((error) => String(error.extensions?.code ?? "").startsWith("PERSISTED_QUERY_"))?.extensions?.code;
          if (code) logger.info({ code, requestId: contextValue.requestId }, "persisted query refused");
        },
      };
    },
  };
}
