import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createLogger } from "../../core/logger.js";
import { activeTracer } from "../../core/tracing.js";
import { startTracing, type Tracing } from "../../core/tracing-sdk.js";
import { nodeRequestTimeouts } from "../../server/connection-guard.js";
import { head, openConnection, type RawConnection } from "../support/raw-http.js";
import { testConfig, useStack, type Stack } from "../support/stack.js";

/**
 * Slow clients (issue: "slow request bodies never time out"): a request body sent a byte at a
 * time held a connection for minutes, and 21,800 of them, without a token, took every descriptor.
 * A request head must arrive within HTTP_HEADERS_TIMEOUT_SECONDS, the whole request within
 * HTTP_REQUEST_TIMEOUT_SECONDS, and an idle keep-alive connection closes after
 * HTTP_KEEP_ALIVE_TIMEOUT_SECONDS; what arrives in time is answered as before.
 */
const timeouts = { HTTP_HEADERS_TIMEOUT_SECONDS: "1", HTTP_REQUEST_TIMEOUT_SECONDS: "2", HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "1", WORKER_LOOPS: "false" };

const TOKEN_PATH = "/auth/realms/activities/protocol/openid-connect/token";

/** A request that announces a 100,000-byte body and sends it a byte every 150 ms. */
async function slowBody(url: string, path: string, token?: string): Promise<{ connection: RawConnection; sent: () => number }> {
  const connection = await openConnection(url);
  const type = path === TOKEN_PATH ? "application/x-www-form-urlencoded" : "application/json";
  connection.write(head("POST", path, { "content-type": type, "content-length": 100_000, ...(token ? { authorization: `Bearer ${token}` } : {}) }));
  const { sent } = connection.trickle("x".repeat(100_000), 150);
  return { connection, sent };
}

const requestTimedOut = { status: 408, code: "REQUEST_TIMEOUT", message: "The request was not received in time", requestId: expect.any(String) };

function slowClientTests(t: { stack: Stack }) {
  it("cuts a request body that trickles in past the request timeout, with 408, on the token endpoint, /graphql and an unknown path", async ({ expect }) => {
    const token = await t.stack.tokenFor("CONSUMER");
    const slow = await Promise.all([slowBody(t.stack.url, TOKEN_PATH), slowBody(t.stack.url, "/graphql", token), slowBody(t.stack.url, "/no/such/path")]);
    for (const { connection, sent } of slow) {
      const answers = await connection.closed;
      expect(answers.map((answer) => answer.status)).toEqual([408]);
      expect(JSON.parse(answers[0].body)).toEqual(requestTimedOut);
      expect(answers[0].headers.connection).toBe("close");
      // Closed by the service while the client was still sending.
      expect(sent()).toBeLessThan(100_000);
    }
  });

  it("closes the connection of an answer sent before the body arrived (401 without a token), rather than wait for the rest", async ({ expect }) => {
    const { connection, sent } = await slowBody(t.stack.url, "/graphql");
    const answers = await connection.closed;
    expect(answers.map((answer) => answer.status)).toEqual([401]);
    expect(answers[0].headers.connection).toBe("close");
    expect(JSON.parse(answers[0].body)).toMatchObject({ errors: [{ extensions: { code: "UNAUTHENTICATED" } }] });
    expect(sent()).toBeLessThan(100_000);
  });

  it("answers a body that arrives in pieces within the request timeout", async ({ expect }) => {
    const { username, password } = await t.stack.createAccount("CONSUMER");
    const body = new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password }).toString();
    const connection = await openConnection(t.stack.url);
    connection.write(head("POST", TOKEN_PATH, { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) }));
    const third = Math.ceil(body.length / 3);
    for (let piece = 0; piece < 3; piece++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      connection.write(body.slice(piece * third, (piece + 1) * third));
    }
    await expect.poll(() => connection.answers().length, { timeout: 10_000 }).toBe(1);
    expect(connection.answers()[0].status).toBe(200);
    expect(JSON.parse(connection.answers()[0].body)).toMatchObject({ token_type: "Bearer", access_token: expect.any(String) });
    connection.close();
  });

  it("cuts a request head that trickles in past the headers timeout, and a connection that sends nothing", async ({ expect }) => {
    const slowHead = await openConnection(t.stack.url);
    slowHead.write("GET /health/live HTTP/1.1\r\nHost: localhost\r\n");
    const { sent } = slowHead.trickle("X-Padding: 0\r\n".repeat(1000), 100);
    const silent = await openConnection(t.stack.url);
    for (const connection of [slowHead, silent]) {
      const answers = await connection.closed;
      expect(answers.map((answer) => answer.status)).toEqual([408]);
      expect(JSON.parse(answers[0].body)).toEqual(requestTimedOut);
    }
    expect(sent()).toBeLessThan(14_000);
  });

  it("answers a head that arrives in pieces within the headers timeout", async ({ expect }) => {
    const connection = await openConnection(t.stack.url);
    const request = head("GET", "/health/live");
    connection.write(request.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 300));
    connection.write(request.slice(10));
    await expect.poll(() => connection.answers().length, { timeout: 10_000 }).toBe(1);
    expect(connection.answers()[0]).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    connection.close();
  });

  it("keeps a keep-alive connection for a request sent in time, and closes it once idle past the keep-alive timeout", async ({ expect }) => {
    const connection = await openConnection(t.stack.url);
    connection.write(head("GET", "/health/live"));
    await expect.poll(() => connection.answers().length, { timeout: 10_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    connection.write(head("GET", "/health/live"));
    await expect.poll(() => connection.answers().length, { timeout: 10_000 }).toBe(2);
    expect(connection.answers()[1].headers.connection).toBe("keep-alive");
    // Then nothing: the service closes it, without an answer of its own.
    const answers = await connection.closed;
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
  });

  it("leaves a WebSocket open past every timeout: an upgraded connection is no longer a slow request", async ({ expect }) => {
    const token = await t.stack.tokenFor("CONSUMER");
    const socket = new WebSocket(`${t.stack.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
    const messages: { type: string }[] = [];
    socket.on("message", (data) => messages.push(JSON.parse(String(data))));
    let closedAt: number | undefined;
    socket.on("close", () => (closedAt = Date.now()));
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    socket.send(JSON.stringify({ type: "connection_init", payload: { Authorization: `Bearer ${token}` } }));
    await expect.poll(() => messages.map((message) => message.type)).toEqual(["connection_ack"]);
    // Longer than the request timeout and two of Node's checks after it.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    socket.send(JSON.stringify({ type: "ping" }));
    await expect.poll(() => messages.map((message) => message.type)).toEqual(["connection_ack", "pong"]);
    expect(closedAt).toBeUndefined();
    socket.close();
  });
}

// Each test waits seconds on the service's timeouts, idle: they wait side by side, on connections of their own.
describe.concurrent("slow clients", () => {
  const t = useStack({ env: timeouts });
  slowClientTests(t);

  it("has Node cut a head or request within its configured timeout, although Node looks for expired ones only once an interval", () => {
    for (const limits of [
      { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 },
      { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 },
      { headersTimeoutMs: 100, requestTimeoutMs: 100 },
    ]) {
      const node = nodeRequestTimeouts(limits);
      // The latest cut is one interval after the timeout Node was given.
      expect(node.headersTimeout + node.connectionsCheckingInterval).toBeLessThanOrEqual(limits.headersTimeoutMs);
      expect(node.requestTimeout + node.connectionsCheckingInterval).toBeLessThanOrEqual(limits.requestTimeoutMs);
      // And never early by more than that interval, which is short against the timeout.
      expect(node.headersTimeout).toBeGreaterThanOrEqual(limits.headersTimeoutMs * 0.75);
      expect(node.requestTimeout).toBeGreaterThanOrEqual(limits.requestTimeoutMs * 0.75);
      expect(node.headersTimeout).toBeLessThanOrEqual(node.requestTimeout);
    }
  });
});

/**
 * With tracing on the service's HTTP server is made around the tracing handler: the same
 * timeouts must hold there.
 */
describe.concurrent("slow clients, with tracing on", () => {
  let tracing: Tracing;
  beforeAll(async () => {
    const settings = testConfig({ OTEL_TRACES_EXPORTER: "console" }).tracing!;
    tracing = await startTracing({ ...settings, exporters: [] }, { logger: createLogger("warn"), spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] });
  });
  afterAll(async () => tracing?.shutdown(5_000));
  const t = useStack({ env: timeouts });

  it("traces requests (the request id is the trace id)", async () => {
    expect(activeTracer()).toBeDefined();
    const response = await fetch(`${t.stack.url}/no/such/path`);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f]{32}$/);
  });
  slowClientTests(t);
});
