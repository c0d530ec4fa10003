import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { SpanKind } from "@opentelemetry/api";
import { hrTimeToNanoseconds } from "@opentelemetry/core";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../core/logger.js";
import { activeTracer } from "../../core/tracing.js";
import { startTracing, type Tracing } from "../../core/tracing-sdk.js";
import type { Database } from "../../drizzle/database.js";
import { webhookMessages } from "../../drizzle/schema.js";
import { createOctoSupplier, type OctoSupplier } from "../../octo-supplier/octo-supplier.js";
import { bookableAvailability, bookableProduct, consumer, familySetup, newRef, validAnswers } from "../support/booking.js";
import { freePort } from "../support/child-process.js";
import { graphql, openTestDatabase, startStack, testConfig, useStack, type Stack } from "../support/stack.js";

const inAMonth = () => new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const TRACE_ID = /^[0-9a-f]{32}$/;

/** The log lines of a stack as objects. */
const parsed = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, any>);

/**
 * OpenTelemetry traces (docs/operations.md, "Traces"): off unless the OTEL_* variables ask for
 * them; on, one REST request is one trace from the edge's HTTP span through the gateway's
 * operation and fetches to the subgraph and its SQL, in one process or across roles, and its id is
 * the request id the caller is answered with and every log line carries.
 */
describe("with tracing off (no OTEL_* variables)", () => {
  const logLines: string[] = [];
  const ctx = useStack({ logLines });

  it("starts no SDK, and answers with the caller's X-Request-Id or a fresh one, as without tracing", async () => {
    expect(testConfig().tracing).toBeUndefined();
    expect(activeTracer()).toBeUndefined();
    const token = await ctx.stack.tokenFor("CONSUMER");
    const kept = await fetch(`${ctx.stack.url}/api/me`, { headers: { authorization: `Bearer ${token}`, "x-request-id": "caller-off-1" } });
    expect(kept.status).toBe(200);
    expect(kept.headers.get("x-request-id")).toBe("caller-off-1");
    const fresh = await fetch(`${ctx.stack.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => parsed(logLines).filter((line) => line.reqId === "caller-off-1").length).toBeGreaterThanOrEqual(2);
    expect(parsed(logLines).filter((line) => "trace_id" in line)).toEqual([]);
  });
});

describe("with tracing on", () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  beforeAll(async () => {
    // The settings OTEL_TRACES_EXPORTER=console gives, with the spans kept in memory instead.
    const settings = testConfig({ OTEL_TRACES_EXPORTER: "console" }).tracing!;
    tracing = await startTracing({ ...settings, exporters: [] }, { logger: createLogger("warn"), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  });
  afterAll(async () => tracing?.shutdown(5_000));

  const spansOf = (traceId: string) => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
  /** The trace's spans once its root (the HTTP request's span, ended when the answer has gone) is in. */
  const traceOf = async (traceId: string, rootName: string) => {
    await expect.poll(() => spansOf(traceId).some((span) => span.name === rootName && !span.parentSpanContext)).toBe(true);
    return trace(spansOf(traceId));
  };

  describe("in one process", () => {
    const logLines: string[] = [];
    // Its own database: on PostgreSQL another file's worker could otherwise run this file's supplier confirmation.
    const ctx = useStack({ logLines, ownDatabase: true });

    it("makes one REST booking request one trace: its HTTP span, the gateway's operation, the subgraph fetch, the subgraph and its SQL", async () => {
      const { productId } = await bookableProduct(ctx.stack);
      const buyer = await consumer(ctx.stack);
      const availability = await bookableAvailability(buyer.rest, productId, inAMonth());
      const resellerRef = newRef();
      const created = await buyer.rest.send("POST", "/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef }, {});
      expect(created.status).toBe(201);

      const traceId = created.headers.get("x-request-id")!;
      expect(traceId).toMatch(TRACE_ID);
      const spans = await traceOf(traceId, "POST /booking-flow/v1/bookings");
      const root = spans.root();
      expect(root).toMatchObject({ kind: SpanKind.SERVER, attributes: { "http.route": "/booking-flow/v1/bookings", "http.request.method": "POST", "http.response.status_code": 201 } });
      // Every span of the request hangs from that one root.
      for (const span of spans.all) expect(spans.chain(span).at(-1)).toBe(root);

      const operation = spans.one("gateway.request");
      expect(operation.attributes).toMatchObject({ "graphql.operation.name": "RestCreateBooking", "graphql.operation.type": "mutation" });
      expect(spans.parent(operation)).toBe(root);
      const fetch = spans.all.find((span) => span.name === "gateway.fetch" && span.attributes.service === "booking")!;
      expect(spans.chain(fetch)).toContain(operation);
      const subgraph = spans.one("subgraph booking");
      expect(spans.parent(subgraph)).toBe(fetch);
      const insert = spans.one("INSERT bookings");
      expect(insert).toMatchObject({ kind: SpanKind.CLIENT, attributes: { "db.system": "postgresql", "db.system.name": "postgresql", "db.operation.name": "INSERT", "db.collection.name": "bookings" } });
      expect(insert.attributes["db.query.text"]).toMatch(/^insert into "bookings" .*\$1/);
      expect(spans.chain(insert).map((span) => span.name)).toEqual(expect.arrayContaining(["transaction", "subgraph booking", "gateway.fetch", "gateway.request"]));
      // The booking subgraph asks the catalogue for the product's facts: in process, beneath it.
      expect(spans.chain(spans.one("subgraph catalogue"))).toContain(subgraph);

      // Statements carry their placeholders, never the values; no span carries the caller's token.
      const everything = JSON.stringify(spans.all.map((span) => [span.name, span.attributes]));
      expect(everything).not.toContain(resellerRef);
      expect(everything).not.toContain(buyer.token);
      // The operation was not split over several traces. (Span times are [seconds, nanoseconds]
      // pairs: compared as arrays they compare as strings, and 98,000,000 ns sorts after 612,000,000.)
      const bookingInserts = exporter.getFinishedSpans().filter((span) => span.name === "INSERT bookings" && span.attributes["db.query.text"] === insert.attributes["db.query.text"]);
      expect(new Set(bookingInserts.filter((span) => hrTimeToNanoseconds(span.endTime) >= hrTimeToNanoseconds(root.startTime)).map((span) => span.spanContext().traceId))).toEqual(new Set([traceId]));

      // Its log lines carry the trace id, as trace_id and as the request id.
      await expect.poll(() => parsed(logLines).find((line) => line.msg === "request completed" && line.reqId === traceId)).toMatchObject({ trace_id: traceId, span_id: root.spanContext().spanId });
    });

    it("runs each supplier confirmation of the worker as a trace of its own, its statements in it", async () => {
      const { productId } = await bookableProduct(ctx.stack, familySetup({ confirmationDelaySeconds: 1 }));
      const buyer = await consumer(ctx.stack);
      const availability = await bookableAvailability(buyer.rest, productId, inAMonth());
      let booking = (await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() })).body;
      while (!booking.isQuestionStepComplete) booking = (await buyer.rest.put(`/booking-flow/v1/bookings/${booking.id}/questions`, validAnswers(booking))).body;
      const confirmed = await buyer.rest.send("POST", `/booking-flow/v1/bookings/${booking.id}/confirm`, undefined, {});
      expect(confirmed.status).toBe(200);

      const isJob = (span: ReadableSpan) => span.name === "booking job confirm" && span.attributes["activities.booking_id"] === booking.id;
      await expect.poll(() => exporter.getFinishedSpans().some(isJob), { timeout: 15_000 }).toBe(true);
      const job = exporter.getFinishedSpans().find(isJob)!;
      expect(job.parentSpanContext).toBeUndefined();
      expect(job.spanContext().traceId).not.toBe(confirmed.headers.get("x-request-id"));
      const spans = trace(spansOf(job.spanContext().traceId));
      expect(spans.root()).toBe(job);
      expect(spans.all.filter((span) => span.name === "UPDATE bookings").length).toBeGreaterThan(0);
    });

    it("gives a caller's request a trace of its own, linking the caller's traceparent and keeping its X-Request-Id findable", async () => {
      const callerTrace = randomBytes(16).toString("hex");
      const callerSpan = randomBytes(8).toString("hex");
      const token = await ctx.stack.tokenFor("CONSUMER");
      const response = await fetch(`${ctx.stack.url}/api/me?token=secret-${callerSpan}&view=full`, {
        headers: { authorization: `Bearer ${token}`, traceparent: `00-${callerTrace}-${callerSpan}-01`, "x-request-id": "caller-request-42", "user-agent": "integrator-client/3.1" },
      });
      expect(response.status).toBe(200);
      const traceId = response.headers.get("x-request-id")!;
      expect(traceId).toMatch(TRACE_ID);
      expect(traceId).not.toBe(callerTrace);
      const root = (await traceOf(traceId, "GET /api/me")).root();
      expect(root.parentSpanContext).toBeUndefined();
      expect(root.links.map((link) => [link.context.traceId, link.context.spanId])).toEqual([[callerTrace, callerSpan]]);
      expect(root.attributes["http.request.header.x-request-id"]).toEqual(["caller-request-42"]);
      // OpenTelemetry's HTTP server conventions, the query's secret values redacted.
      expect(root.attributes).toMatchObject({
        "http.request.method": "GET",
        "http.route": "/api/me",
        "http.response.status_code": 200,
        "url.path": "/api/me",
        "url.query": "token=REDACTED&view=full",
        "url.scheme": "http",
        "server.address": "127.0.0.1",
        "server.port": Number(new URL(ctx.stack.url).port),
        "client.address": "127.0.0.1",
        "network.peer.address": "127.0.0.1",
        "network.protocol.version": "1.1",
        "user_agent.original": "integrator-client/3.1",
      });
      expect(root.attributes["network.peer.port"]).toEqual(expect.any(Number));
      expect(JSON.stringify(root.attributes)).not.toContain(`secret-${callerSpan}`);
      expect(spansOf(callerTrace)).toEqual([]);
      await expect.poll(() => parsed(logLines).find((line) => line.msg === "incoming request" && line.reqId === traceId)).toMatchObject({ trace_id: traceId, req: { callerRequestId: "caller-request-42" } });
    });

    it("traces each call to an OCTO supplier with its path template, attempt and outcome, never its key, and sends the supplier no trace context", async () => {
      const key = `octo-key-${randomUUID()}`;
      const supplier: OctoSupplier = await createOctoSupplier({ apiKey: key });
      const supplierHeaders: Record<string, unknown>[] = [];
      supplier.app.addHook("onRequest", async (request) => void supplierHeaders.push(request.headers));
      try {
        const baseUrl = await supplier.listen();
        const platform = await ctx.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
        const engine = `OCTO_${randomUUID().slice(0, 8).toUpperCase()}`;
        const registered = await fetch(`${ctx.stack.url}/api/booking-engines/octo/${engine}`, {
          method: "PUT",
          headers: { authorization: `Bearer ${platform}`, "content-type": "application/json" },
          body: JSON.stringify({ baseUrl, apiKey: key, country: "FR" }),
        });
        expect(registered.status).toBe(200);
        const spans = await traceOf(registered.headers.get("x-request-id")!, "PUT /api/booking-engines/octo/:name");
        const calls = spans.all.filter((span) => span.name.startsWith("octo "));
        expect(calls.length).toBeGreaterThan(0);
        expect(calls.find((span) => span.name === "octo GET /supplier")).toMatchObject({
          kind: SpanKind.CLIENT,
          attributes: {
            "http.request.method": "GET",
            "url.template": "/supplier",
            "url.full": `${baseUrl}/supplier`,
            "url.scheme": "http",
            "activities.engine": engine,
            "activities.octo.attempt": 1,
            "activities.octo.outcome": "ok",
            "http.response.status_code": 200,
            "server.address": "127.0.0.1",
            "server.port": Number(new URL(baseUrl).port),
          },
        });
        for (const call of calls) expect(spans.chain(call).at(-1)).toBe(spans.root());
        expect(JSON.stringify(spans.all.map((span) => span.attributes))).not.toContain(key);
        expect(supplierHeaders.length).toBeGreaterThan(0);
        for (const headers of supplierHeaders) expect(headers).not.toHaveProperty("traceparent");
      } finally {
        await supplier.close();
      }
    });
  });

  describe("webhook deliveries", () => {
    // The worker's loops off: only the test delivers, to its own receiver.
    const ctx = useStack({ ownDatabase: true, env: { WORKER_LOOPS: "false", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } });

    it("traces each delivery as an HTTP client span of the conventions: method, URL, server, status, and error.type when it fails", async () => {
      let answer = 204;
      const receiver = createServer((request, response) => {
        request.resume();
        request.on("end", () => response.writeHead(answer).end());
      });
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      const port = (receiver.address() as AddressInfo).port;
      try {
        const buyer = await consumer(ctx.stack);
        const created = await graphql(`${ctx.stack.url}/graphql`, buyer.token, `mutation($u: String!) { createWebhookEndpoint(input: { url: $u, eventTypes: [BOOKING_STATUS_CHANGED] }) { webhookEndpoint { legacyResourceId } } }`, { u: `http://127.0.0.1:${port}/hooks?sig=abc&tenant=7` });
        const endpointId = created.body.data!.createWebhookEndpoint.webhookEndpoint.legacyResourceId;
        const deliverOne = async () => {
          const messageId = randomUUID();
          await ctx.database.db.insert(webhookMessages).values({ id: messageId, endpointId, eventType: "booking.status_changed", orderingKey: messageId, payload: { type: "booking.status_changed" }, createdAt: new Date(), nextAttemptAt: new Date() });
          await ctx.stack.service.worker!.deliverWebhooks();
          return exporter.getFinishedSpans().find((span) => span.name === "webhook delivery" && span.attributes["activities.webhook.message_id"] === messageId)!;
        };
        const delivered = await deliverOne();
        expect(delivered).toMatchObject({
          kind: SpanKind.CLIENT,
          attributes: {
            "http.request.method": "POST",
            "url.full": `http://127.0.0.1:${port}/hooks?sig=REDACTED&tenant=7`,
            "url.scheme": "http",
            "server.address": "127.0.0.1",
            "server.port": port,
            "http.response.status_code": 204,
            "activities.webhook.outcome": "delivered",
          },
        });
        expect(delivered.attributes).not.toHaveProperty("error.type");
        answer = 503;
        expect((await deliverOne()).attributes).toMatchObject({ "http.response.status_code": 503, "error.type": "503", "activities.webhook.outcome": "retried" });
      } finally {
        await new Promise<void>((resolve) => receiver.close(() => resolve()));
      }
    });
  });

  describe("with each subgraph its own role, as in a scale-out", () => {
    const stacks: Stack[] = [];
    let database: Database;
    let edge: Stack;
    let bookingUrl: string;
    beforeAll(async () => {
      database = await openTestDatabase();
      const ports = { catalogue: await freePort(), booking: await freePort(), reporting: await freePort(), edge: await freePort() };
      const url = (role: keyof typeof ports) => `http://127.0.0.1:${ports[role]}`;
      const shared = {
        // The roles share this file's database, handed to them; on PGlite the URL only satisfies
        // the rule that a single role runs on PostgreSQL.
        DATABASE_URL: process.env.DATABASE_URL ?? "postgres://roles-share-the-test-database/unused",
        PUBLIC_URL: url("edge"),
        CATALOGUE_URL: `${url("catalogue")}/graphql`,
      };
      for (const role of ["catalogue", "booking", "reporting"] as const) stacks.push(await startStack({ database, env: { ...shared, ROLE: role, PORT: String(ports[role]) } }));
      edge = await startStack({ database, env: { ...shared, ROLE: "edge", PORT: String(ports.edge), BOOKING_URL: `${url("booking")}/graphql`, REPORTING_URL: `${url("reporting")}/graphql` } });
      stacks.push(edge);
      bookingUrl = `${url("booking")}/graphql`;
    });
    afterAll(async () => {
      for (const stack of stacks.reverse()) await stack.close();
      await database?.close();
    });

    it("carries the trace to each subgraph's process in the traceparent header, and on from one subgraph to another", async () => {
      const { productId } = await bookableProduct(edge);
      const buyer = await consumer(edge);
      const availability = await bookableAvailability(buyer.rest, productId, inAMonth());
      const created = await buyer.rest.send("POST", "/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() }, {});
      expect(created.status).toBe(201);
      const traceId = created.headers.get("x-request-id")!;
      const spans = await traceOf(traceId, "POST /booking-flow/v1/bookings");
      await expect.poll(() => spansOf(traceId).filter((span) => span.name === "POST /graphql").length).toBeGreaterThanOrEqual(2);
      const all = trace(spansOf(traceId));
      const root = all.root();
      expect(spans.root()).toBe(root);

      // The gateway's call to the booking process, and that process's request continuing it.
      const call = all.all.find((span) => span.name === "subgraph booking" && span.kind === SpanKind.CLIENT)!;
      expect(all.parent(call)).toMatchObject({ name: "gateway.fetch", attributes: { service: "booking" } });
      const served = all.all.find((span) => span.kind === SpanKind.SERVER && span.parentSpanContext?.spanId === call.spanContext().spanId)!;
      expect(served).toMatchObject({ name: "POST /graphql", attributes: { "http.route": "/graphql", "http.response.status_code": 200 } });
      expect(served.parentSpanContext?.isRemote).toBe(true);
      expect(all.all.filter((span) => span.name === "INSERT bookings").map((insert) => all.chain(insert))).toEqual([expect.arrayContaining([served, call, root])]);

      // The booking process asks the catalogue process for the product's facts, in the same trace.
      const factsCall = all.all.find((span) => span.name === "subgraph catalogue" && span.kind === SpanKind.CLIENT && all.chain(span).includes(served))!;
      const factsServed = all.all.find((span) => span.kind === SpanKind.SERVER && span.parentSpanContext?.spanId === factsCall.spanContext().spanId);
      expect(factsServed).toMatchObject({ name: "POST /graphql", parentSpanContext: { isRemote: true } });
      for (const span of all.all) expect(all.chain(span).at(-1)).toBe(root);
    });

    it("takes a subgraph's trace context for tracing only: without the gateway's credential the request is still refused", async () => {
      const sentTrace = randomBytes(16).toString("hex");
      const token = await edge.tokenFor("CONSUMER");
      const refused = await fetch(bookingUrl, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}`, traceparent: `00-${sentTrace}-${randomBytes(8).toString("hex")}-01` },
        body: JSON.stringify({ query: "{ __typename }" }),
      });
      expect(refused.status).toBe(403);
      expect(refused.headers.get("x-request-id")).toBe(sentTrace);
      await expect.poll(() => spansOf(sentTrace).map((span) => [span.name, span.attributes["http.response.status_code"]])).toEqual([["POST /graphql", 403]]);
    });
  });
});

/** A trace's spans, walked by parent. */
function trace(spans: ReadableSpan[]) {
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  const parent = (span: ReadableSpan) => (span.parentSpanContext ? byId.get(span.parentSpanContext.spanId) : undefined);
  return {
    all: spans,
    parent,
    /** The span, its parent, its parent's parent… up to the root. */
    chain(span: ReadableSpan): ReadableSpan[] {
      const chain = [span];
      for (let up = parent(span); up; up = parent(up)) chain.push(up);
      return chain;
    },
    root(): ReadableSpan {
      const roots = spans.filter((span) => !parent(span));
      expect(roots.map((span) => span.name)).toHaveLength(1);
      return roots[0];
    },
    one(name: string): ReadableSpan {
      const named = spans.filter((span) => span.name === name);
      expect(named.map((span) => span.name)).toEqual([name]);
      return named[0];
    },
  };
}
