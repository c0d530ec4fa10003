import { GraphQLError } from "graphql";

/**
 * GraphQL error codes the service produces (extensions.code). The REST layer maps them to HTTP
 * statuses in one table (rest-compat/errors.ts).
 */
export type ErrorCode = "UNAUTHENTICATED" | "FORBIDDEN" | "NOT_FOUND" | "BAD_USER_INPUT" | "CONFLICT" | "GONE" | "NO_LONGER_AVAILABLE" | "SERVICE_UNAVAILABLE" | "INTERNAL_SERVER_ERROR";

export interface FieldProblem {
  field: string;
  rule: string;
  message: string;
}

const httpStatus: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  CONFLICT: 409,
  GONE: 410,
  /** The contract answers "no longer available" (9563) with a 500. */
  NO_LONGER_AVAILABLE: 500,
  /** A supplier system did not answer: nothing changed, and the same request may be sent again. */
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_SERVER_ERROR: 500,
};

export function serviceError(code: ErrorCode, message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status: httpStatus[code] }, ...extra } });
}

export const unauthenticated = (message = "A valid bearer access token is required") => serviceError("UNAUTHENTICATED", message);
export const forbidden = (message = "The caller's roles do not permit this operation", extra: Record<string, unknown> = {}) => serviceError("FORBIDDEN", message, extra);
export const notFound = (message: string) => serviceError("NOT_FOUND", message);
export const badInput = (message: string, problems: FieldProblem[] = []) =>
  serviceError("BAD_USER_INPUT", message, problems.length ? { problems } : {});

/**
 * A refused request that is not a field's shape: `reason` is the stable identifier REST shows as
 * `code` (e.g. MISSING_BOOKING_ENGINE); GraphQL clients read it from extensions.reason.
 */
export const rejected = (reason: string, message: string, problems: FieldProblem[] = []) =>
  serviceError("BAD_USER_INPUT", message, { reason, ...(problems.length ? { problems } : {}) });
