import { randomUUID } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import { edgeRefusalBody, type PlainEdgeRefusalName } from "../core/edge-refusals.js";
import type { FieldProblem } from "../core/errors.js";
import { REFUSALS, statusOfRefusal, type Refusal, type RefusalCode } from "../core/refusals.js";

/**
 * The one body of every REST error (docs/spec-decisions.md, "REST error body"):
 * `status` repeats the HTTP status; `code` is a stable upper-case identifier to branch on;
 * `errorCode` is the contract's numeric code where the spec documents one (booking flow);
 * `details` lists each offending field with the rule it broke; `requestId` matches the
 * X-Request-Id response header and the logs.
 */
export interface ErrorBody {
  status: number;
  code: string;
  message: string;
  errorCode?: number;
  /** Which limit refused a 429 TOO_MANY_REQUESTS: REQUEST_RATE, COST_BUDGET or IN_FLIGHT. */
  reason?: string;
  details?: FieldProblem[];
  requestId: string;
}

export const errorBodySchema = {
  $id: "ErrorBody",
  type: "object",
  required: ["status", "code", "message", "requestId"],
  properties: {
    status: { type: "integer", description: "The HTTP status, repeated" },
    code: { type: "string", description: "Stable identifier, e.g. VALIDATION_FAILED, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND" },
    message: { type: "string" },
    errorCode: { type: "integer", description: "The contract's numeric error code, where one is documented" },
    reason: { type: "string", description: "Which of the account's limits refused a 429 TOO_MANY_REQUESTS: REQUEST_RATE, COST_BUDGET or IN_FLIGHT" },
    details: {
      type: "array",
      items: {
        type: "object",
        required: ["field", "rule", "message"],
        properties: { field: { type: "string" }, rule: { type: "string" }, message: { type: "string" } },
      },
    },
    requestId: { type: "string" },
  },
} as const;

/** A documented error status of a route: its meaning, and the one error body. */
export const errorResponse = (description: string) => ({ description, $ref: "ErrorBody#" });

/** A failure a route wants to answer with; thrown, and turned into the error body by the error handler. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: FieldProblem[],
    readonly errorCode?: number,
    /** A 429's limit and when to try again (the `Retry-After` header). */
    readonly throttle?: { reason: string; retryAfterSeconds: number },
  ) {
    super(message);
    this.name = "RestError";
  }
}

/**
 * A refusal of the services' table (core/refusals.ts) answered by a REST path itself: its status,
 * code and contract number come from the table, as the graph's refusals do.
 */
export function restRejected(reason: RefusalCode, message: string, details?: FieldProblem[]): RestError {
  const refusal: Refusal = REFUSALS[reason];
  return new RestError(statusOfRefusal(reason), reason, message, details, refusal.errorCode);
}

/** A refusal of the edge's table (core/edge-refusals.ts), thrown: its status and code, the message and the fields at fault. */
export function restRefusal(name: PlainEdgeRefusalName, message: string, details?: FieldProblem[]): RestError {
  const body = edgeRefusalBody(name, message, details);
  return new RestError(body.status, body.code, body.message, body.details);
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: Omit<ErrorBody, "requestId">) {
  const body: ErrorBody = { ...error, requestId: String(request.id) };
  if (body.reason === undefined) delete body.reason;
  if (error.status === 401) reply.header("www-authenticate", 'Bearer realm="activities", error="invalid_token"');
  return reply.code(error.status).header("content-type", "application/json; charset=utf-8").send(body);
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a head over the size limit, a
 * malformed request line, a client too slow to send its head) get the same body as every other
 * error, written straight to the socket, which then closes (Node's own behaviour).
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  // An answer already under way on this connection: another would corrupt it.
  if ((socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage?.headersSent) {
    socket.destroy(error);
    return;
  }
  const refusal =
    error.code === "HPE_HEADER_OVERFLOW"
      ? edgeRefusalBody("REQUEST_HEADER_FIELDS_TOO_LARGE", "The request line and headers are larger than the service accepts")
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? edgeRefusalBody("REQUEST_TIMEOUT", "The request was not received in time")
        : edgeRefusalBody("BAD_REQUEST", "The request is not valid HTTP");
  const requestId = randomUUID();
  const body = JSON.stringify({ ...refusal, requestId } satisfies ErrorBody);
  const { status } = refusal;
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
