import type { GraphQLFormattedError } from "graphql";
import type { FieldProblem } from "../core/errors.js";
import { RestError } from "./error-body.js";

const statusOfCode: Record<string, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  CONFLICT: 409,
  GONE: 410,
  NO_LONGER_AVAILABLE: 500,
  TOO_MANY_REQUESTS: 429,
  OPERATION_TIMEOUT: 503,
};

/**
 * Maps the first error of a GraphQL result to the REST error a route answers with. A route may
 * pass `overrides` for codes the contract gives another status on that path.
 */
export function restErrorFrom(errors: readonly GraphQLFormattedError[], overrides: Record<string, number> = {}): RestError {
  const first = errors[0];
  const code = typeof first.extensions?.code === "string" ? first.extensions.code : "INTERNAL_SERVER_ERROR";
  const status = overrides[code] ?? statusOfCode[code] ?? 500;
  // A documented refusal answered with 500 (9563) keeps its message and code; other 500s say nothing.
  if (status === 500 && code !== "NO_LONGER_AVAILABLE") return new RestError(500, "INTERNAL_SERVER_ERROR", "Internal server error");
  const problems = first.extensions?.problems as FieldProblem[] | undefined;
  const errorCode = typeof first.extensions?.errorCode === "number" ? first.extensions.errorCode : undefined;
  const reason = typeof first.extensions?.reason === "string" ? first.extensions.reason : undefined;
  const restCode = reason ?? (code === "BAD_USER_INPUT" ? "VALIDATION_FAILED" : code);
  return new RestError(status, restCode, first.message, problems, errorCode);
}
