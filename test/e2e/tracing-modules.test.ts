import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtServiceCommand } from "../support/built-service.js";
import { freePort, ready, root, startProcess, stopAndWait } from "../support/child-process.js";

/** The modules of the OpenTelemetry SDK and exporters this service installs (@apollo/gateway's own copies live under it, not here). */
const sdkModules = ["sdk-trace-base", "context-async-hooks", "resources", "exporter-trace-otlp-http", "exporter-trace-otlp-proto"];
const installed = (name: string) => pathToFileURL(path.join(root, "node_modules", "@opentelemetry", name)).href + "/";
const tracingSdk = pathToFileURL(path.join(root, "dist", "core", "tracing-sdk.js")).href;

/**
 * What tracing costs a process that does not trace: nothing of the SDK is loaded. The production
 * command (the compiled build) with a recorder of every module the process imports (test/support/module-record.mjs),
 * started, made ready and stopped; with tracing on, only the exporter of the configured protocol is
 * loaded, and it exports.
 */
describe("the OpenTelemetry modules a process loads", () => {
  const folder = mkdtempSync(path.join(tmpdir(), "module-record-"));
  const received: { url?: string; contentType?: string }[] = [];
  let collector: Server;
  let endpoint: string;
  beforeAll(async () => {
    collector = createServer((request, response) => {
      received.push({ url: request.url, contentType: request.headers["content-type"] });
      request.resume().on("end", () => response.writeHead(200).end());
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    endpoint = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => collector?.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  /** The URLs of the modules a start, a sign-in and a stop resolved. */
  const modulesOfARun = async (name: string, otel: Record<string, string>): Promise<string[]> => {
    const record = path.join(folder, `${name}.txt`);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const built = await builtServiceCommand();
    const command = { file: built.file, args: ["--import", pathToFileURL(path.join(root, "test/support/module-record.mjs")).href, ...built.args] };
    const running = startProcess(
      {
        ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL, WEB_CONCURRENCY: "1" } : { DATA_DIR: "memory" }),
        WORKER_LOOPS: "false",
        SIGN_IN_MAX_FAILURES_PER_ADDRESS: "1000000",
        SEED_DEMO: "false",
        PORT: String(port),
        PUBLIC_URL: base,
        MODULE_RECORD: record,
        ...otel,
      },
      [],
      command,
    );
    await ready(base);
    const answered = await fetch(`${base}/auth/realms/activities/protocol/openid-connect/token`, {
      method: "POST",
      body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username: "nobody-modules", password: "wrong password 1" }),
    });
    expect(answered.status).toBe(400);
    expect(await stopAndWait(running), running.output()).toBe(0);
    return readFileSync(record, "utf8").split("\n").filter(Boolean);
  };

  it("without OTEL_* variables: neither core/tracing-sdk nor any module of the SDK or its exporters", async () => {
    const modules = await modulesOfARun("off", {});
    // The record saw the service's modules load, so what it lacks was not loaded.
    expect(modules.some((url) => url.startsWith(installed("api")))).toBe(true);
    expect(modules.some((url) => url.includes("/node_modules/@apollo/gateway/"))).toBe(true);
    expect(modules.filter((url) => url.startsWith(tracingSdk) || sdkModules.some((name) => url.startsWith(installed(name))))).toEqual([]);
  }, 120_000);

  it("with an OTLP endpoint and the default protocol (http/protobuf): the protobuf exporter only, and the spans reach the endpoint", async () => {
    received.length = 0;
    const modules = await modulesOfARun("protobuf", { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: "60000" });
    expect(modules.some((url) => url.startsWith(tracingSdk))).toBe(true);
    expect(modules.some((url) => url.startsWith(installed("exporter-trace-otlp-proto")))).toBe(true);
    expect(modules.filter((url) => url.startsWith(installed("exporter-trace-otlp-http")))).toEqual([]);
    expect(received.filter((request) => request.url === "/v1/traces" && request.contentType === "application/x-protobuf").length).toBeGreaterThan(0);
  }, 120_000);
});
