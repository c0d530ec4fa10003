import { Kind, visit, type DocumentNode, type ValueNode } from "graphql";
import { badInput, type FieldProblem } from "./errors.js";

/**
 * The one check of text coming in, on every path: no NUL character and no lone UTF-16 surrogate.
 * PostgreSQL (and PGlite) refuse a NUL in text and cannot encode a lone surrogate in UTF-8, so such
 * a value would fail deep in a statement as an internal error, or be stored altered.
 *
 * A high surrogate not followed by a low one, or a low one not preceded by a high one (code units, no `u` flag).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function textProblem(value: string): string | undefined {
  if (value.includes("\u0000")) return "must not contain the NUL character (U+0000)";
  if (LONE_SURROGATE.test(value)) return "must not contain a lone UTF-16 surrogate";
  return undefined;
}

/**
 * Every string in a JSON value, keys included, checked; each problem names its place in the
 * caller's own spelling (`title.en`, `answers[0].value`) under `prefix`.
 */
export function textProblems(value: unknown, prefix: string, problems: FieldProblem[] = []): FieldProblem[] {
  if (typeof value === "string") {
    const message = textProblem(value);
    if (message) problems.push({ field: prefix, rule: "text", message: `${prefix || "value"} ${message}` });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => textProblems(item, `${prefix}[${index}]`, problems));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const field = prefix ? `${prefix}.${key}` : key;
      const keyMessage = textProblem(key);
      if (keyMessage) problems.push({ field, rule: "text", message: `the name ${field} ${keyMessage}` });
      else textProblems(item, field, problems);
    }
  }
  return problems;
}

/**
 * The same check for a GraphQL operation: every variable (named `$name.path`) and every string
 * literal of an argument (named `argument.path`), wherever it stands in the document.
 */
export function operationTextProblems(document: DocumentNode, variables: Record<string, unknown> | undefined): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [name, value] of Object.entries(variables ?? {})) textProblems(value, `$${name}`, problems);
  let literals = literalProblems.get(document);
  if (!literals) literalProblems.set(document, (literals = documentTextProblems(document)));
  return problems.concat(literals);
}

/**
 * The literals' problems by document: Apollo's document store hands back the same parsed document
 * for the same text, and walking it again on every request (at the edge and in each subgraph)
 * showed in the booking flow's profile.
 */
const literalProblems = new WeakMap<DocumentNode, FieldProblem[]>();

function documentTextProblems(document: DocumentNode): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const literal = (node: ValueNode, field: string) => {
    if (node.kind === Kind.STRING) {
      const message = textProblem(node.value);
      if (message) problems.push({ field, rule: "text", message: `${field} ${message}` });
    } else if (node.kind === Kind.LIST) {
      node.values.forEach((item, index) => literal(item, `${field}[${index}]`));
    } else if (node.kind === Kind.OBJECT) {
      for (const entry of node.fields) literal(entry.value, `${field}.${entry.name.value}`);
    }
  };
  visit(document, {
    Argument(node) {
      literal(node.value, node.name.value);
      return false;
    },
    VariableDefinition(node) {
      if (node.defaultValue) literal(node.defaultValue, `$${node.variable.name.value}`);
      return false;
    },
  });
  return problems;
}

export function checkOperationText(document: DocumentNode, variables: Record<string, unknown> | undefined): void {
  const problems = operationTextProblems(document, variables);
  if (problems.length) throw badInput(problems.length === 1 ? problems[0].message : "Text arguments contain characters the service cannot store", problems);
}

/**
 * How deep a JSON value may nest: far beyond any document of the contract (a booking's questions
 * nest a handful of levels), far below what recursive code (checks, serialisers, the database
 * driver) can walk without exhausting the stack. A 1 MB body can otherwise nest 500,000 levels.
 */
export const MAX_JSON_DEPTH = 64;

/** True when the value nests deeper than `max` arrays and objects; walked without recursion. */
export function nestsDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== "object") continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
