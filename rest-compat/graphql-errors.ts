import type { GraphQLFormattedError } from "graphql";
import { EDGE_REFUSALS } from "../core/edge-refusals.js";
import { HTTP_STATUS_OF_CODE, type FieldProblem } from "../core/errors.js";
import { RestError, restRefusal } from "./error-body.js";

/**
 * Maps the first error of a GraphQL result to the REST error a route answers with. A route may
 * pass `overrides` for codes the contract gives another status on that path, and `parameters`,
 * the REST name of each operation variable (see RestRoute.parameters), so that a refused variable
 * is named as the caller sent it.
 */
export function restErrorFrom(errors: readonly GraphQLFormattedError[], overrides: Record<string, number> = {}, parameters: Record<string, string> = {}): RestError {
  const first = errors[0];
  const code = typeof first.extensions?.code === "string" ? first.extensions.code : EDGE_REFUSALS.INTERNAL_SERVER_ERROR.code;
  const status = overrides[code] ?? (Object.hasOwn(HTTP_STATUS_OF_CODE, code) ? HTTP_STATUS_OF_CODE[code as keyof typeof HTTP_STATUS_OF_CODE] : 500);
  // A documented refusal answered with 500 (9563) keeps its message and code; other 500s say nothing.
  if (status === 500 && code !== "NO_LONGER_AVAILABLE") return restRefusal("INTERNAL_SERVER_ERROR", "Internal server error");
  const given = first.extensions?.problems as FieldProblem[] | undefined;
  // A variable the operation refused (its type, its text): the REST parameter it came from, never `$name`.
  if (given?.some((problem) => problem.field.startsWith("$"))) {
    const renamed = given.map((problem) => restProblem(problem, parameters));
    return new RestError(status, "VALIDATION_FAILED", renamed.length === 1 ? `${renamed[0].field}: ${renamed[0].message}` : "The request is not valid", renamed);
  }
  const errorCode = typeof first.extensions?.errorCode === "number" ? first.extensions.errorCode : undefined;
  const reason = typeof first.extensions?.reason === "string" ? first.extensions.reason : undefined;
  if (code === "TOO_MANY_REQUESTS") {
    const retryAfterSeconds = typeof first.extensions?.retryAfterSeconds === "number" ? first.extensions.retryAfterSeconds : 1;
    return new RestError(status, code, first.message, undefined, undefined, { reason: reason ?? EDGE_REFUSALS.REQUEST_RATE.reason, retryAfterSeconds });
  }
  const restCode = reason ?? (code === "BAD_USER_INPUT" ? "VALIDATION_FAILED" : code);
  // An argument the route fills from a parameter of another name (a connection's `after` from REST's `before`).
  const named = given?.map((problem) => (Object.hasOwn(parameters, problem.field) && parameters[problem.field] ? { ...problem, field: parameters[problem.field] } : problem));
  return new RestError(status, restCode, first.message, named, errorCode);
}

/**
 * `$max` → `maxRecommendations`, `$filter.rating` → `rating` (a variable that carries the whole
 * query string or body maps to ""); the message loses graphql-js's `Variable "$…" got invalid value` prefix.
 */
function restProblem(problem: FieldProblem, parameters: Record<string, string>): FieldProblem {
  const variable = /^\$(\w+)(.*)$/.exec(problem.field);
  if (!variable) return problem;
  const name = Object.hasOwn(parameters, variable[1]) ? parameters[variable[1]] : variable[1];
  const field = name === "" ? variable[2].replace(/^\./, "") : `${name}${variable[2]}`;
  const reason = problem.message.includes("; ")
    ? problem.message.slice(problem.message.indexOf("; ") + 2)
    : /^Variable "[^"]+" of (?:non-null|required) type/.test(problem.message)
      ? "must have a value"
      : problem.message.replace(/^\$\S+ /, "");
  return { field: field || "body", rule: problem.rule, message: reason };
}
