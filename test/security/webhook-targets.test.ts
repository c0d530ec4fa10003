import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../core/config.js";
import { endpointProblems } from "../../subgraphs/common/webhooks/webhook-endpoints.js";
import { guardedLookup } from "../../subgraphs/common/webhooks/webhook-delivery.js";
import { consumer } from "../support/booking.js";
import { graphql, useStack } from "../support/stack.js";

/** Webhook URLs cannot point the service at its own network (SSRF), by name or by what a name resolves to. */
describe("webhook targets", () => {
  const ctx = useStack();

  it("refuses loopback, private, link-local and local names at registration, naming url", async () => {
    const buyer = await consumer(ctx.stack);
    const targets = [
      "http://127.0.0.1:8080/hook",
      "http://localhost/hook",
      "http://localhost./hook",
      "http://LOCALHOST/hook",
      "http://10.1.2.3/hook",
      "http://172.16.0.1/hook",
      "http://192.168.1.1/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://2130706433/hook",
      "http://metadata.internal/hook",
    ];
    for (const url of targets) {
      const answer = await graphql(`${ctx.stack.url}/graphql`, buyer.token, `mutation($u: String!) { createWebhookEndpoint(input: { url: $u, eventTypes: [BOOKING_STATUS_CHANGED] }) { secret } }`, { u: url });
      expect(answer.body.errors?.[0].extensions, url).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: "url", rule: "address" }] });
    }
    const rest = await buyer.rest.post("/api/webhooks/endpoints", { url: "http://169.254.169.254/", eventTypes: ["booking.status_changed"] });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: "VALIDATION_FAILED", details: [{ field: "url", rule: "address" }] });
  });

  it("refuses at delivery a name that resolves to an internal address (a public name can be pointed anywhere)", async () => {
    const refused = await new Promise<Error | null>((resolve) => guardedLookup(false)("localhost", {}, (error) => resolve(error)));
    expect(refused?.message).toMatch(/resolves to (127\.0\.0\.1|::1), an internal address/);
    const allowed = await new Promise<Error | null>((resolve) => guardedLookup(true)("localhost", {}, (error) => resolve(error)));
    expect(allowed).toBeNull();
  });

  it("asks for https in production, and never allows private targets there", () => {
    expect(endpointProblems({ url: "http://hooks.example.org/x", eventTypes: ["booking.status_changed"] }, { allowPrivate: false, environment: "production" })).toEqual([
      expect.objectContaining({ field: "url", rule: "format" }),
    ]);
    expect(() => loadConfig({ ENVIRONMENT: "production", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" })).toThrow(ConfigError);
  });
});
