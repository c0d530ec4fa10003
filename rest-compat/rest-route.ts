import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from "fastify";
import Negotiator from "negotiator";
import type { FieldProblem } from "../core/errors.js";
import type { EdgeContext } from "../gateway/edge-context.js";
import type { EdgeGraph } from "../gateway/gateway.js";
import { errorResponse, restRefusal, restRejected } from "./error-body.js";
import { restErrorFrom } from "./graphql-errors.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the REST layer's authentication hook for every protected route. */
    edgeContext?: EdgeContext;
    /** The service's configured public base URL (PUBLIC_URL): links in answers start with it. */
    readonly publicUrl: string;
  }
  interface FastifyContextConfig {
    /** Reachable without a bearer token. */
    public?: boolean;
  }
}

export interface RestRoute<TData> {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  /** operationId: a stable camelCase name, which generated clients make their function's name. */
  schema: FastifySchema & { operationId: string; summary: string; tags: string[]; description?: string };
  /** The one GraphQL operation the route runs on the gateway. */
  operation: string;
  variables?: (request: FastifyRequest) => Record<string, unknown>;
  /**
   * The REST name of each operation variable that has another name than the parameter the caller
   * sends (`max` → `maxRecommendations`; "" for a variable carrying the whole query string or
   * body), so that a refused variable is reported by the caller's name.
   */
  parameters?: Record<string, string>;
  /** GraphQL error codes this path answers with another status than the default mapping. */
  statusOverrides?: Record<string, number>;
  /** Shapes the documented body from the operation's data; may set the status on `reply`. */
  respond: (data: TData, request: FastifyRequest, reply: FastifyReply) => unknown;
  /**
   * A list the contract answers whole, read from a connection a page at a time: `after` gives the
   * cursor that follows a page (null after the last), the operation runs again with it as its
   * `after` variable, and `merge` makes the pages one answer of the same shape for `respond` (typed
   * `unknown` so that a route of any data stays a `RestRoute<never>` in the list of routes). Each
   * run is bounded and charged as any other operation of the caller.
   */
  allPages?: { after(data: TData): string | null; merge(pages: TData[]): unknown };
  /**
   * Another operation for the requests `when` picks: those the route's own operation cannot carry
   * (a body the graph's input types cannot express), answered by what the graph says of what the
   * path names, so that a refusal of the path comes before the body's, as it would through the
   * route's operation. `respond` takes its data (typed `never` here so that a route of any data
   * stays a `RestRoute<never>`).
   */
  otherwise?: {
    when: (request: FastifyRequest) => boolean;
    operation: string;
    variables?: (request: FastifyRequest) => Record<string, unknown>;
    respond: (data: never, request: FastifyRequest, reply: FastifyReply) => unknown;
  };
  /** A CSV form of the same resource, answered for `Accept: text/csv` (JSON stays the default). */
  csv?: CsvExport;
  /**
   * The answer is sent with JSON.stringify rather than the serializer Fastify compiles from the
   * response schema. For bodies of free-form records (items with additionalProperties only), which
   * the compiled serializer writes key by key: 22 ms for a 2.3 MB import page against 6 ms, and
   * 14 ms of a 205 kB search page's 40. The schema still documents the body; such a route's
   * `respond` must build exactly the bytes the compiled serializer would write (declared keys
   * first, in the schema's order), which test/contract/plain-json-bodies.test.ts holds.
   */
  plainJson?: boolean;
}

/** Runs one operation on the gateway as the caller; GraphQL errors become the REST error. */
export type RunOperation = <T>(query: string, variables: Record<string, unknown>) => Promise<T>;

export interface CsvExport {
  filename: (request: FastifyRequest) => string;
  /** The lines of the file, header first; may run as many operations as the export needs. */
  lines: (request: FastifyRequest, run: RunOperation) => AsyncIterable<string>;
}

const JSON_TYPE = "application/json";
const CSV_TYPE = "text/csv";
/** What Fastify sends with the bodies its compiled serializers write. */
const JSON_BODY_TYPE = "application/json; charset=utf-8";

/** Every REST path can answer these; a route's own schema adds or overrides statuses. */
const documentedErrors = {
  400: errorResponse("Bad request or validation failure"),
  401: errorResponse("No valid bearer token"),
  403: errorResponse("Authenticated but not permitted"),
  429: errorResponse("TOO_MANY_REQUESTS: one of the account's limits refused (`reason`: REQUEST_RATE, see the RateLimit-* headers; COST_BUDGET, the operation's cost; IN_FLIGHT, too many requests running); try again after Retry-After seconds"),
  500: errorResponse("Internal server error"),
  503: errorResponse("OPERATION_TIMEOUT: the operation took longer than the service allows"),
};

/**
 * Registers one documented REST path: input validated by its JSON schema (which also feeds the
 * OpenAPI document), one operation on the gateway, errors mapped to the REST error body. No
 * domain rule lives here.
 */
export function registerRestRoute<TData>(app: FastifyInstance, graph: EdgeGraph, route: RestRoute<TData>): void {
  app.route({
    method: route.method,
    url: route.url,
    schema: {
      security: [{ bearerAuth: [] }, { oauth2Password: [] }],
      ...route.schema,
      response: { ...documentedErrors, ...(route.schema.response as object) },
    },
    preHandler: async (request) => rejectNonFiniteNumbers(request),
    handler: async (request, reply) => {
      const context = request.edgeContext;
      if (!context) throw restRefusal("UNAUTHENTICATED", "A valid bearer access token is required");
      const run: RunOperation = async <T>(query: string, variables: Record<string, unknown>) => {
        const result = await graph.execute<T>({ query, variables }, context);
        if (result.errors?.length) throw restErrorFrom(result.errors, route.statusOverrides, route.parameters);
        if (!result.data) throw restRefusal("INTERNAL_SERVER_ERROR", "Internal server error");
        return result.data;
      };
      if (route.csv) {
        reply.header("vary", "Accept");
        const chosen = new Negotiator(request).mediaType([JSON_TYPE, CSV_TYPE]);
        if (!chosen) throw restRefusal("NOT_ACCEPTABLE", `This path answers ${JSON_TYPE} or ${CSV_TYPE}`);
        if (chosen === CSV_TYPE) return streamCsv(route.csv, request, reply, run);
      }
      const otherwise = route.otherwise;
      if (otherwise?.when(request)) return otherwise.respond(await run<never>(otherwise.operation, otherwise.variables?.(request) ?? {}), request, reply);
      const variables = route.variables?.(request) ?? {};
      const body = route.respond(await (route.allPages ? runAllPages(route.allPages, (after) => run<TData>(route.operation, { ...variables, after })) : run<TData>(route.operation, variables)), request, reply);
      // A serializer of the reply's own makes Fastify skip the content type it sets for the
      // compiled one: without it these answers had none, and clients read them as a stream.
      if (route.plainJson) reply.type(JSON_BODY_TYPE).serializer(JSON.stringify);
      return body;
    },
  });
}

/** Every page of a connection, from the first, as one answer. */
async function runAllPages<TData>(pages: NonNullable<RestRoute<TData>["allPages"]>, runPage: (after: string | null) => Promise<TData>): Promise<TData> {
  const read = [await runPage(null)];
  for (let after = pages.after(read[0]); after !== null; after = pages.after(read.at(-1)!)) read.push(await runPage(after));
  return read.length === 1 ? read[0] : (pages.merge(read) as TData);
}

/**
 * Ajv's type coercion turns `Infinity`, `-Infinity` and `1e999` in a path or query into an
 * infinite number that passes `type: integer` and its bounds (bodies need no coercion, and Ajv's
 * strict numbers refuse them there). No parameter of the contract takes one, so they are refused
 * like any other invalid value instead of failing in the operation.
 */
function rejectNonFiniteNumbers(request: FastifyRequest) {
  const problems: FieldProblem[] = [];
  const walk = (value: unknown, field: string) => {
    if (typeof value === "number" && !Number.isFinite(value)) problems.push({ field, rule: "finite", message: "must be a finite number" });
    else if (Array.isArray(value)) value.forEach((item) => walk(item, field));
    else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) walk(item, field ? `${field}.${key}` : key);
  };
  for (const part of [request.params, request.query]) walk(part, "");
  if (problems.length) throw restRejected("VALIDATION_FAILED", "The request is not valid", problems);
}

/**
 * The first lines are read before the status is sent, so a refused request (400, 403) still gets
 * the JSON error body; a failure later can only cut the transfer short, which clients see as an
 * incomplete response rather than a silently shorter file.
 */
async function streamCsv(csv: CsvExport, request: FastifyRequest, reply: FastifyReply, run: RunOperation) {
  const lines = csv.lines(request, run)[Symbol.asyncIterator]();
  const first = await lines.next();
  async function* rest() {
    if (!first.done) yield first.value;
    for (let next = await lines.next(); !next.done; next = await lines.next()) yield next.value;
  }
  return reply
    .type(`${CSV_TYPE}; charset=utf-8`)
    .header("content-disposition", `attachment; filename="${csv.filename(request)}"`)
    .send(Readable.from(rest()));
}

/**
 * The request as an absolute link under the configured public address (a path prefix of
 * PUBLIC_URL kept, for a proxy that strips it); the caller's Host and forwarded headers play no part.
 */
export function selfLink(request: FastifyRequest): URL {
  const { pathname, search } = new URL(request.url, "http://request.invalid");
  const link = new URL(request.publicUrl);
  link.pathname = `${link.pathname.replace(/\/$/, "")}${pathname}`;
  link.search = search;
  return link;
}

/** The {pageNumber, resultsPerPage, totalResults, items} page the list operations answer with. */
export interface PageOf<T> {
  pageNumber: number;
  resultsPerPage: number;
  totalResults: number;
  items: T[];
}
