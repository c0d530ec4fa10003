import { createHash } from "node:crypto";
import type { ApolloGateway } from "@apollo/gateway";
import type { ApolloServer, ApolloServerPlugin, GraphQLResponse } from "@apollo/server";
import type { GatewayGraphQLRequestContext } from "@apollo/server-gateway-interface";
import { getOperationAST, GraphQLError, parse, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { EDGE_REFUSALS, edgeError } from "../core/edge-refusals.js";
import { checkOperationText } from "../core/input-text.js";
import type { Logger } from "../core/logger.js";
import type { ServiceMetrics } from "../core/metrics.js";
import { onlyIntrospection } from "./client-introspection.js";
import type { EdgeContext } from "./edge-context.js";
import type { OperationRequest, OperationResult } from "./gateway.js";
import { checkOperationCostParts, parseOptionsFor, ValidatedDocuments, type OperationCost } from "./operation-limits.js";
import { admitOperationCost, type AdmittedCost } from "./cost-budget.js";

interface Admitted {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  queryHash: string;
}

/** A client's `POST /graphql` as the fast path reads it: the parsed JSON body and two headers. */
export interface ClientHttpRequest {
  body: unknown;
  contentType: string | undefined;
  accept: string | undefined;
}

/** What the edge sends back for a client's HTTP request, as Apollo Server would have. */
export interface ClientHttpAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

type AdmittedTexts = ValidatedDocuments<Admitted>;

/** Texts admitted to the direct path: 500 at most, none over 50,000 characters, 100,000 characters in all. */
const admittedTexts = (): AdmittedTexts => new ValidatedDocuments<Admitted>(500, 50_000);

/** Whose text an operation is: one of the edge's own (REST paths, subscription messages), or one a graphql-ws client sent. */
export type TextOrigin = "edge" | "client";

const keyOf = (request: OperationRequest) => (request.operationName ? `${request.operationName}\n${request.query}` : request.query);

/**
 * Client texts that answered a `POST /graphql` without errors through the whole pipeline, kept
 * apart from the edge's own texts so that clients sending many texts only ever push out each
 * other's. Admitted by the edge's Apollo Server plugin below, read by `answerClient`.
 */
export function clientTextAdmission() {
  const texts = admittedTexts();
  const plugin: ApolloServerPlugin<EdgeContext> = {
    async requestDidStart() {
      return {
        async willSendResponse({ request, response, document, operation, queryHash, errors }) {
          if (request.http?.method !== "POST" || typeof request.query !== "string" || !document || !operation || errors?.length) return;
          if (response.body.kind !== "single" || response.body.singleResult.errors?.length || response.http.status !== undefined) return;
          if (operation.operation === "subscription" || onlyIntrospection(operation.selectionSet, document)) return;
          texts.set(keyOf({ query: request.query, operationName: request.operationName }), { document, operation, queryHash });
        },
      };
    },
  };
  return { texts, plugin };
}

/** What the direct path needs of the edge. */
export interface DirectExecutionOptions {
  server: ApolloServer<EdgeContext>;
  gateway: ApolloGateway;
  apiSchema: () => GraphQLSchema;
  formatError: (formatted: GraphQLFormattedError, error: unknown, requestId?: string) => GraphQLFormattedError;
  logger: Logger;
  metrics?: ServiceMetrics;
  clientTexts: AdmittedTexts;
}

/** How the edge runs operations: `execute` for its own (and graphql-ws clients'), `answerClient` for a client's `POST /graphql`, with the counts of each path. */
export interface EdgeExecution {
  counts: { pipeline: number; direct: number };
  clientCounts: { direct: number };
  answerClient(http: ClientHttpRequest, contextValue: EdgeContext): Promise<ClientHttpAnswer | undefined>;
  execute<TData>(request: OperationRequest, contextValue: EdgeContext, origin?: TextOrigin): Promise<OperationResult<TData>>;
}

/**
 * The edge's way of running operations, as PERFORMANCE_SHORTCUTS_OFF sets it: with the direct
 * path, its client texts are admitted by `plugins` (the edge's Apollo Server's); without it, every
 * operation goes through Apollo Server's pipeline and no text is remembered.
 */
export function edgeExecution(direct: boolean): { plugins: ApolloServerPlugin<EdgeContext>[]; start(options: Omit<DirectExecutionOptions, "clientTexts">): EdgeExecution } {
  if (!direct) return { plugins: [], start: ({ server }) => pipelineExecution(server) };
  const clientTexts = clientTextAdmission();
  return { plugins: [clientTexts.plugin], start: (options) => directGatewayExecution({ ...options, clientTexts: clientTexts.texts }) };
}

/** Every operation through Apollo Server's pipeline: the path the direct one shortcuts, and the one it falls back to. */
export function pipelineExecution(server: ApolloServer<EdgeContext>): EdgeExecution {
  const counts = { pipeline: 0, direct: 0 };
  return {
    counts,
    clientCounts: { direct: 0 },
    answerClient: async () => undefined,
    execute: async (request, contextValue) => {
      counts.pipeline++;
      return singleResult(await server.executeOperation(request, { contextValue }));
    },
  };
}

function singleResult<TData>(response: GraphQLResponse<TData & Record<string, unknown>>): OperationResult<TData> {
  if (response.body.kind !== "single") throw new Error("incremental delivery is not used by internal operations");
  return response.body.singleResult as OperationResult<TData>;
}

/**
 * The operations the edge runs itself (each REST path's one operation, each subscription message)
 * repeat a few dozen texts, and each went through the edge's Apollo Server pipeline: hashing the
 * text, every plugin's hooks, error normalisation. A text's first run (with its operation name)
 * still goes through it, with every rule of the edge; once it has answered without errors it is
 * remembered, and later runs check what depends on their variables (text no database stores,
 * coercion, cost), time the operation as the metrics plugin does, and hand the gateway's executor
 * the request context Apollo Server would. Errors are formatted as Apollo Server formats them (a
 * code on every error, then the edge's `formatError`). Operations answered from the client schema
 * (introspection) are never remembered.
 *
 * Clients' `POST /graphql` requests take the same direct path (`answerClient`) for a text that
 * answered one of them without errors through the whole pipeline (`clientTextAdmission`), when the
 * request is one Apollo Server would answer with plain JSON: a JSON body of `query`, `variables`
 * and `operationName` only, accepting `application/json`. Whatever the checks on its variables
 * refuse goes back through the pipeline, so every refusal is Apollo Server's own answer; what runs
 * is answered with Apollo Server's status, content type and body. Besides the hooks it skips,
 * the pipeline itself cost a long answer's garbage collection: a page of 1,000 import records
 * through it took 3–4 ms more than the same operation through this path (bench/results/2026-11-27-paths.md).
 */
export function directGatewayExecution(options: DirectExecutionOptions): EdgeExecution {
  const direct = new DirectExecution(options);
  return {
    counts: direct.counts,
    clientCounts: direct.clientCounts,
    answerClient: (http, contextValue) => direct.answerClient(http, contextValue),
    execute: (request, contextValue, origin = "edge") => direct.execute(request, contextValue, origin),
  };
}

type AnswerHead = { status?: number; headers: Map<string, string> };

class DirectExecution {
  readonly counts = { pipeline: 0, direct: 0 };
  readonly clientCounts = { direct: 0 };
  // The edge's own texts (REST paths, subscription messages) and the texts graphql-ws clients
  // choose apart: a client sending many long texts only ever pushes out clients' texts.
  private readonly admittedBy: Record<TextOrigin, AdmittedTexts> = { edge: admittedTexts(), client: admittedTexts() };

  constructor(private readonly options: DirectExecutionOptions) {}

  execute<TData>(request: OperationRequest, contextValue: EdgeContext, origin: TextOrigin): Promise<OperationResult<TData>> {
    const admitted = this.admittedBy[origin];
    const entry = admitted.get(keyOf(request));
    return entry ? this.direct<TData>(entry, request, contextValue) : this.throughPipeline<TData>(request, contextValue, admitted);
  }

  /** Apollo Server's error formatting (errorNormalize.js): a code on every error, `extensions.http` moved to the answer's head. */
  private format(error: GraphQLError, requestId: string, head?: AnswerHead): GraphQLFormattedError {
    const extensions: Record<string, unknown> = { ...error.extensions, code: error.extensions.code ?? EDGE_REFUSALS.INTERNAL_SERVER_ERROR.code };
    if (isPartialHead(extensions.http)) {
      if (head && extensions.http.status) head.status = extensions.http.status;
      if (head && extensions.http.headers) for (const [name, value] of extensions.http.headers) head.headers.set(name, value);
      delete extensions.http;
    }
    try {
      return this.options.formatError({ ...error.toJSON(), extensions }, error, requestId);
    } catch {
      return edgeError("INTERNAL_SERVER_ERROR", "Internal server error").toJSON();
    }
  }

  private async throughPipeline<TData>(request: OperationRequest, contextValue: EdgeContext, admitted: AdmittedTexts): Promise<OperationResult<TData>> {
    this.counts.pipeline++;
    const result = singleResult<TData>(await this.options.server.executeOperation<TData & Record<string, unknown>>(request, { contextValue }));
    if (!result.errors?.length) {
      const document = parse(request.query, parseOptionsFor("edge"));
      const operation = getOperationAST(document, request.operationName);
      if (operation && operation.operation !== "subscription" && !onlyIntrospection(operation.selectionSet, document)) {
        admitted.set(keyOf(request), { document, operation, queryHash: createHash("sha256").update(request.query).digest("hex") });
      }
    }
    return result;
  }

  /** What depends on the variables: Apollo Server's pipeline checks the same in `didResolveOperation` (operation-limits.ts). Throws the refusal; returns the estimated cost. */
  private checkVariables(entry: Admitted, request: OperationRequest): OperationCost {
    checkOperationText(entry.document, request.variables);
    return checkOperationCostParts("edge", this.options.apiSchema(), entry.document, request.variables, request.operationName);
  }

  /** The gateway's executor on the request context Apollo Server would build. */
  private run(entry: Admitted, request: OperationRequest, contextValue: EdgeContext) {
    const requestContext = {
      request: { query: request.query, variables: request.variables, operationName: request.operationName },
      response: { http: { headers: new Headers(), status: undefined } },
      logger: this.options.logger,
      schema: this.options.apiSchema(),
      context: contextValue,
      queryHash: entry.queryHash,
      document: entry.document,
      source: request.query,
      operationName: entry.operation.name?.value ?? null,
      operation: entry.operation,
      metrics: {},
      requestIsBatched: false,
    } as unknown as GatewayGraphQLRequestContext<EdgeContext>;
    return this.options.gateway.executor(requestContext);
  }

  /** Timed as the metrics plugin times the pipeline's operations. */
  private observe(entry: Admitted, request: OperationRequest, started: number, failed: boolean) {
    const metrics = this.options.metrics;
    metrics?.graphqlDuration.observe(
      { operation: metrics.operationNames.of(entry.operation.name?.value ?? request.operationName ?? null), type: entry.operation.operation, outcome: failed ? "error" : "ok" },
      (performance.now() - started) / 1000,
    );
  }

  private async direct<TData>(entry: Admitted, request: OperationRequest, contextValue: EdgeContext): Promise<OperationResult<TData>> {
    this.counts.direct++;
    const started = performance.now();
    let result: OperationResult<TData>;
    try {
      const admitted = await admitOperationCost(contextValue, this.checkVariables(entry, request));
      const answer = await this.run(entry, request, contextValue);
      const cost = admitted?.settle(answer.data);
      result = { ...(answer as OperationResult<TData>), errors: answer.errors?.length ? answer.errors.map((error) => this.format(asGraphQLError(error), contextValue.requestId)) : undefined };
      if (!result.errors) delete result.errors;
      if (cost) result.extensions = { ...result.extensions, cost };
    } catch (error) {
      result = { errors: [this.format(asGraphQLError(error), contextValue.requestId)] };
    }
    this.observe(entry, request, started, Boolean(result.errors?.length));
    return result;
  }

  /**
   * A client's HTTP request on the direct path, or undefined when the pipeline must answer it
   * (a text not admitted, a request Apollo Server would answer otherwise than with plain JSON,
   * variables the checks refuse). The answer is Apollo Server's for the same request: its status
   * rules (an error's `extensions.http`, 400 when no data came back, 500 when the executor threw)
   * and `JSON.stringify(result) + "\n"` with the errors first.
   */
  async answerClient(http: ClientHttpRequest, contextValue: EdgeContext): Promise<ClientHttpAnswer | undefined> {
    const request = plainRequest(http);
    if (!request) return undefined;
    const entry = this.options.clientTexts.get(keyOf(request));
    if (!entry) return undefined;
    const started = performance.now();
    let requested: OperationCost;
    try {
      requested = this.checkVariables(entry, request);
    } catch {
      return undefined;
    }
    this.clientCounts.direct++;
    const head: AnswerHead = { headers: new Map() };
    let admitted: AdmittedCost | undefined;
    try {
      admitted = await admitOperationCost(contextValue, requested);
    } catch (error) {
      const refusal = asGraphQLError(error);
      const result = { errors: [this.format(refusal, contextValue.requestId, head)], extensions: refusal.extensions.cost ? { cost: refusal.extensions.cost } : undefined };
      return jsonAnswer(head.status ?? 429, head, result);
    }
    const result = await this.clientResult(entry, request, contextValue, admitted, head);
    this.observe(entry, request, started, Boolean(result.errors?.length));
    return jsonAnswer(head.status ?? 200, head, result);
  }

  /** The client's result as Apollo Server writes it, its status set on `head` where Apollo Server's rules would. */
  private async clientResult(entry: Admitted, request: OperationRequest, contextValue: EdgeContext, admitted: AdmittedCost | undefined, head: AnswerHead) {
    let result: { errors?: GraphQLFormattedError[]; data?: unknown; extensions?: Record<string, unknown> };
    try {
      const answer = await this.run(entry, request, contextValue);
      const errors = answer.errors?.length ? answer.errors.map((error) => this.format(asGraphQLError(error), contextValue.requestId, head)) : undefined;
      const cost = admitted?.settle(answer.data);
      result = { errors, data: answer.data, extensions: cost ? { ...answer.extensions, cost } : answer.extensions };
      if (errors && answer.data === undefined && !head.status) head.status = 400;
    } catch (error) {
      result = { errors: [this.format(asGraphQLError(error), contextValue.requestId, head)] };
      if (!head.status) head.status = 500;
    }
    return result;
  }
}

function jsonAnswer(status: number, head: AnswerHead, result: unknown): ClientHttpAnswer {
  head.headers.set("content-type", "application/json; charset=utf-8");
  return { status, headers: head.headers, body: JSON.stringify(result) + "\n" };
}

/**
 * The request as Apollo Server reads a POST body, when nothing about it calls for more than
 * plain JSON: no `extensions` (persisted queries), no batch, and an `Accept` that Apollo Server
 * would answer with `application/json` (absent, or only `application/json` and `*\/*` ranges
 * without weights). Anything else, including what Apollo Server refuses, is left to it.
 */
function plainRequest(http: ClientHttpRequest): OperationRequest | undefined {
  if (mediaType(http.contentType) !== "application/json" || !acceptsPlainJson(http.accept)) return undefined;
  const body = http.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const { query, variables, operationName, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length || typeof query !== "string") return undefined;
  if (variables != null && (typeof variables !== "object" || Array.isArray(variables))) return undefined;
  if (operationName != null && typeof operationName !== "string") return undefined;
  return { query, variables: (variables ?? undefined) as Record<string, unknown> | undefined, operationName: operationName ?? undefined };
}

const mediaType = (value: string | undefined) => value?.split(";")[0].trim().toLowerCase();

function acceptsPlainJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return accept === undefined;
  return accept.split(",").every((range) => {
    const [type, ...params] = range.split(";");
    const media = type.trim().toLowerCase();
    return (media === "application/json" || media === "*/*") && params.every((param) => !/^\s*q\s*=/i.test(param));
  });
}

function isPartialHead(value: unknown): value is { status?: number; headers?: Map<string, string> } {
  if (!value || typeof value !== "object") return false;
  const head = value as { status?: unknown; headers?: unknown };
  return (!("status" in head) || typeof head.status === "number") && (!("headers" in head) || head.headers instanceof Map);
}

function asGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  const original = error instanceof Error ? error : new Error(`Unexpected error value: ${String(error)}`);
  return new GraphQLError(original.message, { originalError: original });
}
