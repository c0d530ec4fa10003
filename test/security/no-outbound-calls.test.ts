import dc from "node:diagnostics_channel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../drizzle/database.js";
import { startStack, type Stack } from "../support/stack.js";

/**
 * Starting the service calls out to nothing it was not configured to: no cloud metadata probes,
 * no usage reporting to a vendor. @apollo/gateway does both by default (anonymous metrics to
 * Apollo, labelled by AWS, GCP, Azure and Alibaba metadata lookups), which a production network
 * sees as requests to 169.254.169.254 and which leak that the service runs there.
 */
describe("outbound calls at start", () => {
  const outbound: string[] = [];
  const onHttp = (message: unknown) => {
    const { request } = message as { request: { host?: string; path?: string } };
    outbound.push(`http ${request.host ?? ""}${request.path ?? ""}`);
  };
  const onUndici = (message: unknown) => {
    const { request } = message as { request: { origin?: string; path?: string } };
    outbound.push(`fetch ${request.origin ?? ""}${request.path ?? ""}`);
  };
  let database: Database;
  let stack: Stack;

  beforeAll(async () => {
    // Another stack in this worker may have set it already: this start must set it itself.
    delete process.env.APOLLO_TELEMETRY_DISABLED;
    dc.subscribe("http.client.request.start", onHttp);
    dc.subscribe("undici:request:create", onUndici);
    database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: "memory" });
    stack = await startStack({ database, env: { WORKER_LOOPS: "false" } });
    // The metadata probes start while the gateway is built and go out within a second.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  }, 60_000);
  afterAll(async () => {
    dc.unsubscribe("http.client.request.start", onHttp);
    dc.unsubscribe("undici:request:create", onUndici);
    await stack?.close();
    await database?.close();
  });

  it("makes no request to any host but its own while starting", () => {
    const foreign = outbound.filter((call) => !call.includes("127.0.0.1") && !call.includes("localhost"));
    expect(foreign).toEqual([]);
  });
});
