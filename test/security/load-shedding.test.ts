import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { useStack } from "../support/stack.js";

/**
 * Load shedding: while the event loop stays behind (its mean delay over the last second above
 * LOAD_SHED_EVENT_LOOP_DELAY_MS), requests are refused with 503 and Retry-After before any work
 * is done for them, so that the process catches up instead of drowning; the probes and the
 * metrics still answer, and once the loop has caught up requests are served again.
 */
describe("load shedding", () => {
  const t = useStack({ env: { LOAD_SHED_EVENT_LOOP_DELAY_MS: "100", WORKER_LOOPS: "false" } });

  let busy: NodeJS.Timeout | undefined;
  afterEach(() => clearInterval(busy));
  /** The service shares this process's event loop: keep it behind, 150 ms of work at a time with the loop turning in between. */
  const fallBehind = () => {
    busy = setInterval(() => {
      const until = performance.now() + 150;
      while (performance.now() < until);
    }, 1);
  };

  it("refuses API requests with 503 OVERLOADED and Retry-After while the event loop is behind, answers /health/live, and serves again once it has caught up", async () => {
    const token = await t.stack.tokenFor("CONSUMER");
    const me = () => fetch(`${t.stack.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    // Not behind: served.
    expect((await me()).status).toBe(200);

    fallBehind();
    await expect.poll(async () => (await me()).status, { timeout: 20_000, interval: 200 }).toBe(503);
    const shed = await me();
    expect(shed.status).toBe(503);
    expect(shed.headers.get("retry-after")).toBe("2");
    expect(await shed.json()).toEqual({ status: 503, code: "OVERLOADED", message: "The service is overloaded; retry shortly", requestId: shed.headers.get("x-request-id") });

    const graphql = await fetch(`${t.stack.url}/graphql`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ query: "{ me { username } }" }) });
    expect(graphql.status).toBe(503);
    expect(await graphql.json()).toEqual({ errors: [{ message: "The service is overloaded; retry shortly", extensions: { code: "OVERLOADED" } }] });
    // A sign-in is shed too: it is work (a password hash).
    expect((await fetch(t.stack.tokenUrl, { method: "POST", body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username: "x", password: "y" }) })).status).toBe(503);

    // The probes answer what they always do, so an orchestrator does not restart a busy process.
    const live = await fetch(`${t.stack.url}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    expect((await fetch(`${t.stack.url}/health/ready`)).status).toBe(200);
    const metrics = await (await fetch(`${t.stack.url}/metrics`)).text();
    expect(metrics).toMatch(/^activities_http_refusals_total\{reason="event_loop_delay",pid="\d+"\} [1-9]\d*$/m);

    // A WebSocket is new work too.
    const upgrade = await new Promise<number | undefined>((resolve) => {
      const socket = new WebSocket(`${t.stack.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
      socket.once("unexpected-response", (_request, response) => resolve(response.statusCode));
      socket.once("open", () => {
        socket.terminate();
        resolve(101);
      });
    });
    expect(upgrade).toBe(503);

    clearInterval(busy);
    await expect.poll(async () => (await me()).status, { timeout: 20_000, interval: 200 }).toBe(200);
  });
});
