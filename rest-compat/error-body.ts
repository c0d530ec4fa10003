import type { FastifyReply, FastifyRequest } from "fastify";
import type { FieldProblem } from "../core/errors.js";

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
  ) {
    super(message);
    this.name = "RestError";
  }
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: Omit<ErrorBody, "requestId">) {
  const body: ErrorBody = { ...error, requestId: String(request.id) };
  if (error.status === 401) reply.header("www-authenticate", 'Bearer realm="activities", error="invalid_token"');
  return reply.code(error.status).header("content-type", "application/json; charset=utf-8").send(body);
}
