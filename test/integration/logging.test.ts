import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../core/logger.js";
import type { Database } from "../../drizzle/database.js";
import { createService, type Service } from "../../server/service.js";
import { openTestDatabase, testConfig } from "../support/stack.js";

/** Structured logs: one JSON line per event, a request id on every request line, no secrets. */
describe("request logs", () => {
  const lines: Record<string, unknown>[] = [];
  let database: Database;
  let service: Service;

  beforeAll(async () => {
    database = await openTestDatabase();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    service = await createService(testConfig({ LOG_LEVEL: "info" }), { database, logger: createLogger("info", sink) });
    await service.listen();
  });
  afterAll(async () => {
    await service?.close();
    await database?.close();
  });

  it("logs each request with its request id and without query-string secrets or tokens", async () => {
    const response = await fetch(`${service.url}/auth/realms/activities/password-setup?token=super-secret-link-token`, {
      headers: { "x-request-id": "log-test-1", authorization: "Bearer secret-bearer" },
    });
    await response.text();
    await new Promise((r) => setTimeout(r, 50));
    const incoming = lines.find((l) => l.reqId === "log-test-1" && l.msg === "incoming request");
    expect(incoming).toMatchObject({ service: "activities", req: { method: "GET", url: "/auth/realms/activities/password-setup?token=[redacted]" } });
    expect(lines.find((l) => l.reqId === "log-test-1" && l.msg === "request completed")).toMatchObject({ res: { statusCode: 404 } });
    const everything = JSON.stringify(lines);
    expect(everything).not.toContain("super-secret-link-token");
    expect(everything).not.toContain("secret-bearer");
  });
});
