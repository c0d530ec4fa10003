import type { FieldProblem } from "../core/errors.js";
import { isRefusalCode, statusOfRefusal } from "../core/refusals.js";
import { RestError, restRefusal } from "./error-body.js";

/** A mutation payload's refusal as the graph answers it (`userErrors { code message field rule errorCode }`). */
export interface UserErrorData {
  code: string;
  message: string;
  field?: string[] | null;
  rule?: string | null;
  errorCode?: number | null;
}

/** The selection every REST operation makes of a payload's refusals. */
export const USER_ERRORS = "userErrors { code message field rule errorCode }";

/**
 * A mutation's payload, or the REST error its refusals stand for: the status and code from the
 * table of refusals (core/refusals.ts), each refused field named as REST names it. `parameters`
 * maps an input field to the caller's parameter (`webhookEndpointId` → `id`), or names the whole
 * path where a path's own contract writes fields its own way.
 */
export function refusedUnlessEmpty<T extends { userErrors: UserErrorData[] }>(payload: T, parameters: Record<string, string> | ((path: string[]) => string) = {}): T {
  const [first] = payload.userErrors;
  if (!first) return payload;
  // A code the table does not hold cannot be answered truthfully: the graph and this layer disagree.
  if (!isRefusalCode(first.code)) throw restRefusal("INTERNAL_SERVER_ERROR", "Internal server error");
  const status = statusOfRefusal(first.code);
  const details: FieldProblem[] = payload.userErrors.flatMap((error) => (error.field && error.rule ? [{ field: typeof parameters === "function" ? parameters(error.field) : restField(error.field, parameters), rule: error.rule, message: error.message }] : []));
  const message = details.length ? details.map((detail) => `${detail.field}: ${detail.message}`).join("; ") : first.message;
  throw new RestError(status, first.code, message, details.length ? details : undefined, first.errorCode ?? undefined);
}

/** `["input", "eventTypes", "1"]` → `eventTypes[1]`, each name renamed to the caller's (`""`: the body itself). */
export function restField(path: string[], parameters: Record<string, string> = {}): string {
  const [, ...parts] = path;
  const named = (part: string) => (Object.hasOwn(parameters, part) ? parameters[part] : part);
  return parts.reduce((field, part) => (/^\d+$/.test(part) ? `${field}[${part}]` : field === "" ? named(part) : `${field}.${named(part)}`), "");
}
