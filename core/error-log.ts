/**
 * How an error is written to the logs (pino's `err`). A statement that failed reaches the logs as
 * drizzle's `DrizzleQueryError`, whose message is the whole SQL and its parameters ("Failed query:
 * … params: …"), wrapping the driver's error, which carries the statement again (`query`, and with
 * postgres.js `parameters`) and often a row's values (`detail`: "Key (email)=(…) already exists",
 * "Failing row contains (…)"; `where`: the statement a function ran). GraphQL errors copy the
 * message and the stack of the error they wrap. So every error of the chain is written with its
 * message and stack cleaned of statements, without those fields, and with what an operator needs
 * to find the failure: the SQLSTATE (`code`), the constraint, table and column the database names,
 * and `statement: {operation, table}` read from the SQL. The request id is the line's own field.
 */

interface ErrorLike {
  message: string;
  stack?: string;
  name?: string;
  [key: string]: unknown;
}

/** Fields of drivers' errors that hold a statement, its parameters or a row's values. */
const STATEMENT_FIELDS = new Set(["query", "params", "parameters", "queryOptions", "args", "types", "detail", "where", "internalQuery", "internal_query", "internalPosition", "internal_position"]);

/** Followed through `originalError` (GraphQL) and `cause` (drizzle, fetch). */
const MAX_CHAIN = 8;

const FAILED_QUERY = /Failed query: ([\s\S]*?)(?:\nparams: [^\n]*)?(?=\n\s+at |\ncaused by|$)/g;

const isErrorLike = (value: unknown): value is ErrorLike => typeof value === "object" && value !== null && typeof (value as { message?: unknown }).message === "string";

/** The statement's operation and first table, never more of its text. */
export function statementSummary(text: string): { operation: string; table?: string } {
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? "unknown";
  const table = /\b(?:from|into|update|join)\s+("(?:[^"]|"")+"|[\w.]+)/i.exec(text)?.[1]?.replace(/^"|"$/g, "").replace(/""/g, '"');
  return table ? { operation, table } : { operation };
}

const summaryText = (summary: { operation: string; table?: string }) => `Failed query (${summary.table ? `${summary.operation} ${summary.table}` : summary.operation})`;

/** Text where drizzle's "Failed query: <sql>\nparams: <values>" is replaced by its summary. */
export function withoutStatements(text: string): string {
  return text.replace(FAILED_QUERY, (_match, statement: string) => summaryText(statementSummary(statement)));
}

/**
 * PostgreSQL quotes the value it could not take in data errors (class 22: `invalid input syntax
 * for type uuid: "…"`, `value "…" is out of range`): a parameter, so it is left out.
 */
const quotesValues = (error: ErrorLike) => typeof error.code === "string" && error.code.startsWith("22");
const withoutQuotedValues = (text: string) => text.replace(/"(?:[^"\\]|\\.)*"/g, '"[redacted]"');

export function errorForLog(err: unknown): unknown {
  if (!isErrorLike(err)) return err;
  // Messages of the chain that must not be repeated anywhere in it (a wrapper copies its cause's).
  const chain: ErrorLike[] = [];
  for (let current: unknown = err; isErrorLike(current) && chain.length < MAX_CHAIN && !chain.includes(current); ) {
    chain.push(current);
    current = current.originalError ?? current.cause;
  }
  const unsafe = new Map<string, string>();
  for (const error of chain) {
    if (typeof error.query === "string" && error.message.startsWith("Failed query: ")) unsafe.set(error.message, summaryText(statementSummary(error.query)));
    else if (quotesValues(error)) unsafe.set(error.message, withoutQuotedValues(error.message));
  }
  const clean = (text: string) => {
    let result = withoutStatements(text);
    for (const [original, safe] of unsafe) if (original) result = result.split(original).join(safe);
    return result;
  };
  return serialize(err, clean, 0, new Set());
}

function serialize(error: ErrorLike, clean: (text: string) => string, depth: number, seen: Set<object>): Record<string, unknown> {
  seen.add(error);
  const type = typeof error.constructor === "function" && error.constructor.name !== "Object" ? error.constructor.name : (error.name ?? "Error");
  const message = clean(error.message);
  const out: Record<string, unknown> = { type, message, stack: restack(error.stack, type, message, clean) };
  for (const [key, value] of Object.entries(error)) {
    if (STATEMENT_FIELDS.has(key) || key in out || key === "cause" || key === "originalError" || key === "errors") continue;
    if (isErrorLike(value)) {
      if (!seen.has(value) && depth < MAX_CHAIN) out[key] = serialize(value, clean, depth + 1, seen);
    } else out[key] = typeof value === "string" ? clean(value) : value;
  }
  if (typeof error.query === "string") out.statement = statementSummary(error.query);
  if (Array.isArray(error.errors)) out.aggregateErrors = error.errors.filter(isErrorLike).filter((e) => !seen.has(e)).map((e) => serialize(e, clean, depth + 1, seen));
  const cause = error.originalError ?? error.cause;
  if (isErrorLike(cause) && !seen.has(cause) && depth < MAX_CHAIN) out.cause = serialize(cause, clean, depth + 1, seen);
  return out;
}

/** The stack's frames under a first line naming the error and its cleaned message (the original head repeats the message). */
function restack(stack: string | undefined, type: string, message: string, clean: (text: string) => string): string | undefined {
  if (typeof stack !== "string") return undefined;
  const frames = stack.search(/\n\s+at /);
  return `${type}: ${message}${frames < 0 ? "" : clean(stack.slice(frames))}`;
}
