import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtServiceCommand } from "../support/built-service.js";
import { freePort, ready, startProcess, stopAndWait } from "../support/child-process.js";

interface OtlpAttribute {
  key: string;
  value: { intValue?: string | number; stringValue?: string };
}

interface OtlpJson {
  resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: { name: string; traceId: string; attributes: OtlpAttribute[] }[] }[] }[];
}

/**
 * The process as the production command runs it (the compiled build), with tracing turned on by the standard variables only: spans
 * go to the OTLP endpoint named, labelled as the variables say, and a SIGTERM sends the ones still
 * buffered before the process exits 0. On the embedded database, or on PostgreSQL in the suite's
 * PostgreSQL run.
 */
describe("the service started with OTEL_* variables", () => {
  const batches: OtlpJson[] = [];
  let collector: Server;
  let endpoint: string;
  beforeAll(async () => {
    collector = createServer((request, response) => {
      let body = "";
      request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      request.on("end", () => {
        if (request.url === "/v1/traces") batches.push(JSON.parse(body) as OtlpJson);
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    endpoint = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => collector?.close(resolve)));

  it("exports its spans as OTLP to the endpoint named, and sends those still buffered when SIGTERM stops it, exiting 0", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const running = startProcess({
      // The suite's database on PostgreSQL: no worker loops, which would run other files' jobs.
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL, WEB_CONCURRENCY: "1" } : { DATA_DIR: "memory" }),
      WORKER_LOOPS: "false",
      // As every test stack: failed sign-ins of other files from 127.0.0.1 must not throttle this one.
      SIGN_IN_MAX_FAILURES_PER_ADDRESS: "1000000",
      SEED_DEMO: "false",
      PORT: String(port),
      PUBLIC_URL: base,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "activities-e2e",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=e2e,team=bookings%20and%20more",
      // A batch would wait a minute: only the stop can send this one.
      OTEL_BSP_SCHEDULE_DELAY: "60000",
    }, [], await builtServiceCommand());
    await ready(base);
    // A sign-in that fails: the token endpoint reads and writes the database.
    const answered = await fetch(`${base}/auth/realms/activities/protocol/openid-connect/token`, {
      method: "POST",
      body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username: "nobody-e2e", password: "wrong password 1" }),
    });
    expect(answered.status).toBe(400);
    const traceId = answered.headers.get("x-request-id")!;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(batches).toEqual([]);
    expect(await stopAndWait(running)).toBe(0);

    const spans = batches.flatMap((batch) => batch.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ ...span, resource: resource.resource })))));
    const ofRequest = spans.filter((span) => span.traceId.toLowerCase() === traceId);
    const request = ofRequest.find((span) => span.name === "POST /auth/realms/activities/protocol/openid-connect/token");
    expect(request, running.output()).toBeDefined();
    expect(ofRequest.filter((span) => span.attributes.some((attribute) => attribute.key === "db.system" && attribute.value.stringValue === "postgresql")).length).toBeGreaterThan(0);
    const resource = Object.fromEntries(request!.resource.attributes.map((attribute) => [attribute.key, attribute.value.stringValue]));
    expect(resource).toMatchObject({ "service.name": "activities-e2e", "deployment.environment.name": "e2e", team: "bookings and more", "telemetry.sdk.language": "nodejs" });
    // Probes are not traced: an orchestrator's would bury the requests.
    expect(spans.filter((span) => span.name.includes("/health"))).toEqual([]);
  }, 120_000);
});
