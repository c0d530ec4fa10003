import { GraphQLError, type ASTNode } from "graphql";
import type { FieldProblem } from "./errors.js";

/**
 * The table of the refusals the edge answers itself, before, around or instead of an operation:
 * the HTTP server's door, the account's and the operation's limits, the protocols' own answers
 * (GraphQL over HTTP and graphql-ws, persisted queries) and the unexpected. What a service refuses
 * is in core/refusals.ts; these are kept apart because most carry no name of their own in the graph
 * (`extensions.code` alone, or a limit's `reason`), and neither `UserErrorCode` nor the REST
 * mapping of the services' refusals takes them. docs/refusals.md shows both tables, made from them.
 *
 * Each entry: `code`, the GraphQL error's `extensions.code` and REST's `code`; `reason`, where one
 * code covers several limits, the one that refused (always the entry's own name); `status`, the
 * HTTP status it is answered with over HTTP (a graphql-ws message carries the code alone).
 */
export interface EdgeRefusal {
  code: string;
  reason?: string;
  status: number;
  description: string;
}

export const EDGE_REFUSALS = {
  // At the door: the HTTP server, its parser and Fastify, before any route runs.
  TOO_MANY_CONNECTIONS: {
    code: "TOO_MANY_CONNECTIONS",
    status: 503,
    description: "The client's address holds as many connections as one address may: retry once one has closed (Retry-After)",
  },
  OVERLOADED: { code: "OVERLOADED", status: 503, description: "The process holds as many connections as it may, or its event loop is too far behind: retry shortly (Retry-After)" },
  SHUTTING_DOWN: { code: "SHUTTING_DOWN", status: 503, description: "The process is stopping: a new connection, upgrade or graphql-ws operation is refused, and another instance answers" },
  REQUEST_TIMEOUT: { code: "REQUEST_TIMEOUT", status: 408, description: "The request's head or body was not sent in time" },
  REQUEST_HEADER_FIELDS_TOO_LARGE: { code: "REQUEST_HEADER_FIELDS_TOO_LARGE", status: 431, description: "The request line and headers are larger than the service accepts" },
  BAD_REQUEST: {
    code: "BAD_REQUEST",
    status: 400,
    description:
      "The request is not one the service can read: not HTTP, a path not percent-encoded UTF-8, JSON nested too deep, a persisted query's hash not a string, a subscription sent over HTTP; another 4xx of Fastify's without a code here keeps its own status",
  },
  URI_TOO_LONG: { code: "URI_TOO_LONG", status: 414, description: "A path segment is too long" },
  PAYLOAD_TOO_LARGE: { code: "PAYLOAD_TOO_LARGE", status: 413, description: "The body is larger than the service accepts" },
  UNSUPPORTED_MEDIA_TYPE: { code: "UNSUPPORTED_MEDIA_TYPE", status: 415, description: "The body's content type is not one the path reads" },
  METHOD_NOT_ALLOWED: { code: "METHOD_NOT_ALLOWED", status: 405, description: "Fastify or a plugin refuses the request's method" },
  NOT_ACCEPTABLE: { code: "NOT_ACCEPTABLE", status: 406, description: "The Accept header asks for no type the path answers" },
  CONFLICT: { code: "CONFLICT", status: 409, description: "Fastify or a plugin refuses the request as a conflict" },
  TOO_MANY_REQUESTS: { code: "TOO_MANY_REQUESTS", status: 429, description: "Fastify or a plugin refuses the request as one too many (the account's limits have a reason: below)" },
  NOT_FOUND: { code: "NOT_FOUND", status: 404, description: "No route has this method and path; over graphql-ws, the entity a subscription names does not exist or the caller may not see it" },
  VALIDATION_FAILED: { code: "VALIDATION_FAILED", status: 400, description: "A REST request breaks its path's JSON schema: `details` names each field at fault" },
  UNAUTHENTICATED: {
    code: "UNAUTHENTICATED",
    status: 401,
    description: "No bearer token, or one not valid (why, in the message); GET /metrics without METRICS_TOKEN; a graphql-ws session whose token expired or was revoked",
  },
  FORBIDDEN: { code: "FORBIDDEN", status: 403, description: "A subgraph's own process answers the gateway alone (its signed credential); Fastify's 403s" },

  // An account's limits (identity/account-limits.ts): one 429 with Retry-After, the limit in `reason`.
  REQUEST_RATE: { code: "TOO_MANY_REQUESTS", reason: "REQUEST_RATE", status: 429, description: "The account's requests in the window are spent (REST, /graphql and each graphql-ws operation count)" },
  COST_BUDGET: { code: "TOO_MANY_REQUESTS", reason: "COST_BUDGET", status: 429, description: "The account's cost bucket has no room for the operation's estimate (`extensions.cost` shows it)" },
  IN_FLIGHT: { code: "TOO_MANY_REQUESTS", reason: "IN_FLIGHT", status: 429, description: "The account has as many operations running as it may: wait for their answers" },
  SUBSCRIPTION_CAP: { code: "TOO_MANY_REQUESTS", reason: "SUBSCRIPTION_CAP", status: 429, description: "The account holds as many graphql-ws subscriptions as it may in this process: complete one first" },

  // An operation's limits (gateway/operation-limits.ts), on the edge and, four times wider, on each subgraph.
  TOO_MANY_ALIASES: { code: "GRAPHQL_VALIDATION_FAILED", reason: "TOO_MANY_ALIASES", status: 400, description: "The operation has more aliased fields than the limit" },
  TOO_MANY_DIRECTIVES: { code: "GRAPHQL_VALIDATION_FAILED", reason: "TOO_MANY_DIRECTIVES", status: 400, description: "The operation has more directives than the limit" },
  TOO_DEEP: { code: "GRAPHQL_VALIDATION_FAILED", reason: "TOO_DEEP", status: 400, description: "The operation nests deeper than the limit (fragments add no level)" },
  TOO_MANY_MUTATIONS: { code: "GRAPHQL_VALIDATION_FAILED", reason: "TOO_MANY_MUTATIONS", status: 400, description: "A mutation operation has more root fields than the limit" },
  OPERATION_TOO_LARGE: { code: "GRAPHQL_VALIDATION_FAILED", reason: "OPERATION_TOO_LARGE", status: 400, description: "The operation selects more than its cost can be estimated over" },
  COST_LIMIT_EXCEEDED: { code: "GRAPHQL_VALIDATION_FAILED", reason: "COST_LIMIT_EXCEEDED", status: 400, description: "The operation's estimated cost is over the limit (the cost is in the message)" },

  // The protocols' answers: Apollo Server's codes, for what the edge checks itself (graphql-ws, persisted queries).
  GRAPHQL_PARSE_FAILED: { code: "GRAPHQL_PARSE_FAILED", status: 400, description: "A graphql-ws operation's text does not parse, or has more tokens than the limit" },
  GRAPHQL_VALIDATION_FAILED: { code: "GRAPHQL_VALIDATION_FAILED", status: 400, description: "A graphql-ws operation breaks a rule of GraphQL's validation (a limit's refusal keeps its reason)" },
  BAD_USER_INPUT: { code: "BAD_USER_INPUT", status: 400, description: "A graphql-ws operation's variables nest too deep, or a subscription selects other than one known field" },
  OPERATION_RESOLUTION_FAILURE: { code: "OPERATION_RESOLUTION_FAILURE", status: 400, description: "operationName names no operation of the document, or none is given for several" },
  PERSISTED_QUERY_NOT_SUPPORTED: { code: "PERSISTED_QUERY_NOT_SUPPORTED", status: 200, description: "A persisted query of another version than 1: send the operation's text" },
  PERSISTED_QUERY_NOT_FOUND: { code: "PERSISTED_QUERY_NOT_FOUND", status: 200, description: "A persisted query's hash is not one the edge knows (here: no SHA-256 at all): send the text with it" },
  PERSISTED_QUERY_HASH_MISMATCH: { code: "PERSISTED_QUERY_HASH_MISMATCH", status: 400, description: "The persisted query's hash is not the SHA-256 of the text sent with it" },

  // Execution.
  OPERATION_TIMEOUT: { code: "OPERATION_TIMEOUT", status: 503, description: "A statement ran past the statement timeout: nothing changed, and a smaller request may pass" },
  SERVICE_UNAVAILABLE: { code: "SERVICE_UNAVAILABLE", status: 503, description: "GET /metrics could not gather the series of every process" },
  INTERNAL_SERVER_ERROR: { code: "INTERNAL_SERVER_ERROR", status: 500, description: "The unexpected: nothing of it is shown; the log has it, with the request's id" },
} as const satisfies Record<string, EdgeRefusal>;

export type EdgeRefusalName = keyof typeof EDGE_REFUSALS;

type Entry<Name extends EdgeRefusalName> = (typeof EDGE_REFUSALS)[Name];

/** The refusals without a `reason`: a RestError carries a reason only with a wait (a 429's). */
export type PlainEdgeRefusalName = { [Name in EdgeRefusalName]: Entry<Name> extends { reason: string } ? never : Name }[EdgeRefusalName];

/** An edge refusal in REST's error body, less the requestId `sendError` adds (rest-compat/error-body.ts). */
export interface EdgeRefusalBody {
  status: number;
  code: Entry<EdgeRefusalName>["code"];
  reason?: string;
  message: string;
  details?: FieldProblem[];
}

/**
 * An edge refusal as REST's error body: the entry's status, code and reason (before the message,
 * where the 429s always had it), and the fields at fault. The body every HTTP refusal starts from;
 * `/graphql` answers it in GraphQL's shape (`graphqlBodyOf`).
 */
export function edgeRefusalBody(name: EdgeRefusalName, message: string, details?: FieldProblem[]): EdgeRefusalBody {
  const refusal: EdgeRefusal = EDGE_REFUSALS[name];
  return {
    status: refusal.status,
    code: refusal.code as EdgeRefusalBody["code"],
    ...(refusal.reason ? { reason: refusal.reason } : {}),
    message,
    ...(details ? { details } : {}),
  };
}

/** An HTTP refusal on `/graphql`: GraphQL's response shape, with the body's code and reason. */
export function graphqlBodyOf({ code, reason, message }: EdgeRefusalBody): { errors: [{ message: string; extensions: { code: string; reason?: string } }] } {
  return { errors: [{ message, extensions: reason ? { code, reason } : { code } }] };
}

export interface EdgeErrorOptions {
  /** What the answer adds after the code and reason: a wait (`retryAfterSeconds`), the bucket (`cost`). */
  extensions?: Record<string, unknown>;
  /**
   * For a refusal thrown inside Apollo Server's pipeline: `extensions.http`, the status it answers
   * with (the entry's), and with a map, these headers too.
   */
  http?: true | Map<string, string>;
  nodes?: readonly ASTNode[];
  path?: readonly (string | number)[];
}

/**
 * An edge refusal as a GraphQL error: `extensions.code` and `reason` from the entry (whatever the
 * extensions given say), then the extensions given, then Apollo Server's `http`. `toJSON()` gives
 * it as an answer's formatted error. The one way the edge builds a GraphQL refusal; a name outside
 * the table does not compile.
 */
export function edgeError(name: EdgeRefusalName, message: string, options: EdgeErrorOptions = {}): GraphQLError {
  const refusal: EdgeRefusal = EDGE_REFUSALS[name];
  const extensions: Record<string, unknown> = { code: refusal.code, ...(refusal.reason ? { reason: refusal.reason } : {}), ...options.extensions };
  extensions.code = refusal.code;
  if (refusal.reason) extensions.reason = refusal.reason;
  if (options.http) extensions.http = options.http === true ? { status: refusal.status } : { status: refusal.status, headers: options.http };
  return new GraphQLError(message, { nodes: options.nodes, path: options.path, extensions });
}
