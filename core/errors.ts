import { GraphQLError } from "graphql";

/**
 * Every code an error's `extensions.code` carries, with the HTTP status it is answered with: the
 * services' own errors carry it as `extensions.http` (Apollo Server's status), and the REST layer
 * answers each code with it (rest-compat/graphql-errors.ts), unless a path's contract says otherwise.
 */
export const HTTP_STATUS_OF_CODE = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  CONFLICT: 409,
  GONE: 410,
  /** The contract answers "no longer available" (9563) with a 500. */
  NO_LONGER_AVAILABLE: 500,
  TOO_MANY_REQUESTS: 429,
  /** A statement ran past the statement timeout: nothing was changed, and a smaller request may pass. */
  OPERATION_TIMEOUT: 503,
  /** A supplier system did not answer: nothing changed, and the same request may be sent again. */
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_SERVER_ERROR: 500,
} as const;

/** The codes of the errors the services throw themselves (the limits' codes come from the gateway and the subgraph server). */
export type ErrorCode = Exclude<keyof typeof HTTP_STATUS_OF_CODE, "TOO_MANY_REQUESTS" | "OPERATION_TIMEOUT">;

export interface FieldProblem {
  field: string;
  rule: string;
  message: string;
}

export function serviceError(code: ErrorCode, message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status: HTTP_STATUS_OF_CODE[code] }, ...extra } });
}

export const unauthenticated = (message = "A valid bearer access token is required") => serviceError("UNAUTHENTICATED", message);
export const forbidden = (message = "The caller's roles do not permit this operation", extra: Record<string, unknown> = {}) => serviceError("FORBIDDEN", message, extra);
export const notFound = (message: string) => serviceError("NOT_FOUND", message);
export const badInput = (message: string, problems: FieldProblem[] = []) =>
  serviceError("BAD_USER_INPUT", message, problems.length ? { problems } : {});
