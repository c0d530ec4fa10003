import dc from "node:diagnostics_channel";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../core/logger.js";
import { startTracing, type Tracing } from "../../core/tracing-sdk.js";
import { openDatabase, type Database } from "../../drizzle/database.js";
import { startStack, testConfig, type Stack } from "../support/stack.js";

/**
 * Starting the service calls out to nothing it was not configured to: no cloud metadata probes,
 * no usage reporting to a vendor. @apollo/gateway does both by default (anonymous metrics to
 * Apollo, labelled by AWS, GCP, Azure and Alibaba metadata lookups), which a production network
 * sees as requests to 169.254.169.254 and which leak that the service runs there. OpenTelemetry's
 * resource detectors for those clouds probe the same addresses: with tracing on, none runs, and
 * spans go to the configured collector only.
 */
/** Records every HTTP request this process makes (node:http and fetch) while the describe block runs. */
function watchOutbound(): { foreign(): string[] } {
  const outbound: string[] = [];
  const onHttp = (message: unknown) => {
    const { request } = message as { request: { host?: string; path?: string } };
    outbound.push(`http ${request.host ?? ""}${request.path ?? ""}`);
  };
  const onUndici = (message: unknown) => {
    const { request } = message as { request: { origin?: string; path?: string } };
    outbound.push(`fetch ${request.origin ?? ""}${request.path ?? ""}`);
  };
  beforeAll(() => {
    // Another stack in this worker may have set it already: this start must set it itself.
    delete process.env.APOLLO_TELEMETRY_DISABLED;
    dc.subscribe("http.client.request.start", onHttp);
    dc.subscribe("undici:request:create", onUndici);
  });
  afterAll(() => {
    dc.unsubscribe("http.client.request.start", onHttp);
    dc.unsubscribe("undici:request:create", onUndici);
  });
  return { foreign: () => outbound.filter((call) => !call.includes("127.0.0.1") && !call.includes("localhost")) };
}

/** A service started as a test starts one, left a moment for anything it would send at start to go out. */
function startedService(): { stack: Stack } {
  const handle = {} as { stack: Stack; database: Database };
  beforeAll(async () => {
    handle.database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: "memory" });
    handle.stack = await startStack({ database: handle.database, env: { WORKER_LOOPS: "false" } });
    // The metadata probes start while the gateway is built and go out within a second.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  }, 60_000);
  afterAll(async () => {
    await handle.stack?.close();
    await handle.database?.close();
  });
  return handle;
}

describe("outbound calls at start", () => {
  const outbound = watchOutbound();
  startedService();

  it("makes no request to any host but its own while starting", () => {
    expect(outbound.foreign()).toEqual([]);
  });
});

describe("outbound calls at start with tracing on, exporting to a collector", () => {
  const outbound = watchOutbound();
  const exported: { path: string; type: string }[] = [];
  let collector: Server;
  let tracing: Tracing | undefined;
  beforeAll(async () => {
    collector = createServer((request, response) => {
      exported.push({ path: request.url ?? "", type: request.headers["content-type"] ?? "" });
      request.resume().on("end", () => response.writeHead(200, { "content-type": "application/x-protobuf" }).end());
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    const { port } = collector.address() as { port: number };
    // As an operator sets it: the collector's address, everything else the defaults.
    const settings = testConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` }).tracing!;
    tracing = await startTracing(settings, { logger: createLogger("warn") });
  });
  afterAll(async () => {
    await tracing?.shutdown(5_000);
    await new Promise((resolve) => collector?.close(resolve));
  });
  const service = startedService();

  it("makes no request to any host but its own while starting: no resource detector probes a cloud's metadata", () => {
    expect(outbound.foreign()).toEqual([]);
  });

  it("sends its spans to the configured collector only, as OTLP protobuf", async () => {
    expect((await fetch(`${service.stack.url}/api/me`)).status).toBe(401);
    // A stop sends what the batch still holds.
    await tracing!.shutdown(5_000);
    tracing = undefined;
    expect(exported).toContainEqual({ path: "/v1/traces", type: "application/x-protobuf" });
    expect(outbound.foreign()).toEqual([]);
  });
});
