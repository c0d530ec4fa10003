import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../core/config.js";
import { createLogger } from "../../core/logger.js";
import type { Resolver } from "../../core/outbound-address.js";
import { webhookAttempts, webhookMessages } from "../../drizzle/schema.js";
import { registerOctoEngine } from "../../subgraphs/catalogue/booking-engine/octo-engine.service.js";
import { OctoEngines } from "../../subgraphs/common/octo/octo.engines.js";
import { deliverDueWebhooks } from "../../subgraphs/common/webhooks/webhook-delivery.service.js";
import { endpointProblems } from "../../subgraphs/common/webhooks/webhook-endpoint.rules.js";
import { consumer } from "../support/booking.js";
import { graphql, useStack } from "../support/stack.js";

/** Public unicast: webhook endpoints and OCTO suppliers may be there, in any spelling the URL parser keeps. */
const PUBLIC_HOSTS = ["8.8.8.8", "1.1.1.1", "140.82.112.3", "[2606:4700:4700::1111]", "[::ffff:8.8.8.8]", "[64:ff9b::808:808]", "hooks.example.com"];

/** The service's own network, reserved ranges and the IPv6 forms that embed them. */
const REFUSED_HOSTS = [
  "127.0.0.1:8080",
  "localhost",
  "localhost.",
  "LOCALHOST",
  "2130706433",
  "0x7f.1",
  "10.1.2.3",
  "100.64.0.1",
  "172.16.0.1",
  "192.168.1.1",
  "169.254.169.254",
  "0.0.0.0",
  "198.18.0.1",
  "224.0.0.1",
  "[::1]",
  "[::]",
  "[::ffff:127.0.0.1]",
  "[::ffff:a9fe:a9fe]",
  "[::7f00:1]",
  "[64:ff9b::a9fe:a9fe]",
  "[64:ff9b:1::a00:1]",
  "[2002:7f00:1::]",
  "[2001:0:808:808::80ff:fffe]",
  "[fc00::1]",
  "[fe80::1]",
  "[fec0::1]",
  "[ff02::1]",
  "metadata.google.internal",
  "printer.local",
];

/**
 * One outbound address policy for every call the service makes to an address a caller chose
 * (webhook endpoints, OCTO supplier systems), in production settings and without
 * WEBHOOK_ALLOW_PRIVATE_TARGETS: public unicast passes, everything else is refused at registration
 * and again where the connection is made. Nothing here sends traffic beyond loopback: names are
 * answered by an injected resolver, and a registration that passes stops before any call.
 */
describe("outbound targets in production", () => {
  // A database of its own: its worker must not take another file's webhook messages, nor they its.
  const ctx = useStack({ ownDatabase: true, env: { ENVIRONMENT: "production", ENGINE_SECRETS_KEY: randomBytes(32).toString("base64"), WORKER_LOOPS: "false" } });

  const createEndpoint = (token: string, url: string) =>
    graphql(`${ctx.stack.url}/graphql`, token, `mutation($u: String!) { createWebhookEndpoint(input: { url: $u, eventTypes: [BOOKING_STATUS_CHANGED] }) { webhookEndpoint { id legacyResourceId url } userErrors { code field rule message } } }`, { u: url });

  it("registers webhook endpoints on public addresses, over GraphQL and REST", async () => {
    const buyer = await consumer(ctx.stack);
    for (const host of PUBLIC_HOSTS.slice(0, 5)) {
      const answer = await createEndpoint(buyer.token, `https://${host}/hooks`);
      expect(answer.body.errors, host).toBeUndefined();
      expect(answer.body.data!.createWebhookEndpoint.userErrors, host).toEqual([]);
      expect(answer.body.data!.createWebhookEndpoint.webhookEndpoint.url).toBe(`https://${host}/hooks`);
    }
    const other = await consumer(ctx.stack);
    for (const host of PUBLIC_HOSTS.slice(5)) {
      const rest = await other.rest.post("/api/webhooks/endpoints", { url: `https://${host}/hooks`, eventTypes: ["booking.status_changed"] });
      expect({ host, status: rest.status }).toEqual({ host, status: 201 });
    }
  });

  it("refuses every other address at registration and at update, naming url and the range", async () => {
    const buyer = await consumer(ctx.stack);
    for (const host of REFUSED_HOSTS) {
      const answer = await createEndpoint(buyer.token, `https://${host}/hooks`);
      expect(answer.body.data!.createWebhookEndpoint, host).toMatchObject({
        webhookEndpoint: null,
        userErrors: [{ code: "VALIDATION_FAILED", field: ["input", "url"], rule: "address", message: expect.stringMatching(/must name a public address: .*(not a public address|local name)/) }],
      });
    }
    const rest = await buyer.rest.post("/api/webhooks/endpoints", { url: "https://[64:ff9b::a9fe:a9fe]/latest/meta-data", eventTypes: ["booking.status_changed"] });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: "VALIDATION_FAILED", details: [{ field: "url", rule: "address" }] });

    const created = await createEndpoint(buyer.token, "https://8.8.8.8/hooks");
    const id = created.body.data!.createWebhookEndpoint.webhookEndpoint.id;
    const moved = await graphql(`${ctx.stack.url}/graphql`, buyer.token, `mutation($id: ID!) { updateWebhookEndpoint(input: { webhookEndpointId: $id, url: "https://[::7f00:1]/hooks" }) { webhookEndpoint { url } userErrors { code field rule } } }`, { id });
    expect(moved.body.data!.updateWebhookEndpoint).toEqual({ webhookEndpoint: null, userErrors: [{ code: "VALIDATION_FAILED", field: ["input", "url"], rule: "address" }] });
  });

  it("judges a delivery by what the endpoint's name resolves to at that moment", async () => {
    const buyer = await consumer(ctx.stack);
    const created = await createEndpoint(buyer.token, "https://hooks.example.com/hooks");
    expect(created.body.errors).toBeUndefined();
    const endpointId = created.body.data!.createWebhookEndpoint.webhookEndpoint.legacyResourceId;
    const messageId = randomUUID();
    await ctx.database.db.insert(webhookMessages).values({ id: messageId, endpointId, eventType: "booking.status_changed", orderingKey: randomUUID(), payload: { type: "booking.status_changed" }, createdAt: new Date(), nextAttemptAt: new Date() });

    // The name was public at registration; now it points at the cloud metadata service through NAT64.
    const asked: string[] = [];
    const resolve: Resolver = (hostname, callback) => {
      asked.push(hostname);
      callback(null, [{ address: "64:ff9b::a9fe:a9fe", family: 6 }]);
    };
    const made = await deliverDueWebhooks({ database: ctx.database, secrets: ctx.stack.service.octo.secrets, logger: createLogger("silent"), now: () => new Date(), outbound: { allowPrivate: false, resolve }, timeoutMs: 2_000 });
    expect(made).toBe(1);
    expect(asked).toEqual(["hooks.example.com"]);
    const [message] = await ctx.database.db.select().from(webhookMessages).where(eq(webhookMessages.id, messageId));
    expect(message).toMatchObject({ status: "PENDING", attempts: 1, lastResponseStatus: null, lastError: expect.stringMatching(/hooks\.example\.com resolves to 64:ff9b::a9fe:a9fe, not a public address \(NAT64 169\.254\.169\.254 \(linkLocal\)\)/) });
    const attempts = await ctx.database.db.select().from(webhookAttempts).where(eq(webhookAttempts.messageId, messageId));
    expect(attempts).toMatchObject([{ outcome: "FAILED", error: expect.stringMatching(/not a public address/) }]);
  });

  const engineName = () => `PROD_${randomUUID().slice(0, 8).toUpperCase()}`;
  const putEngine = (token: string, baseUrl: string) =>
    fetch(`${ctx.stack.url}/api/booking-engines/octo/${engineName()}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ baseUrl, apiKey: `octo-key-${randomUUID()}`, country: "FR" }),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as { code: string; details?: { field: string; rule: string }[] } }));

  it("refuses OCTO supplier systems outside public unicast at registration, before any call", async () => {
    const platform = await ctx.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
    for (const host of REFUSED_HOSTS) {
      const refused = await putEngine(platform, `https://${host}/octo`);
      expect({ host, status: refused.status, code: refused.body.code }).toEqual({ host, status: 400, code: "VALIDATION_FAILED" });
      expect(refused.body.details).toContainEqual(expect.objectContaining({ field: "baseUrl", rule: "address" }));
    }
  });

  it("refuses an OCTO supplier whose name resolves to a private address when it is called, and calls a public one", async () => {
    const database = ctx.database;
    const resolve: Resolver = (hostname, callback) =>
      hostname === "supplier.example.com" ? callback(null, [{ address: "10.20.30.40", family: 4 }]) : callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []);
    const octo = new OctoEngines({ database, logger: createLogger("silent"), clock: { now: () => new Date() }, environment: "production", secretsKey: randomBytes(32), resolve, client: { retries: 0 } });
    const registration = { name: engineName(), baseUrl: "https://supplier.example.com/octo", apiKey: "key", country: "FR" };
    const refused = await registerOctoEngine(database, octo, registration, new Date()).catch((error: { error?: { extensions?: unknown } }) => error.error?.extensions);
    expect(refused).toMatchObject({ reason: "VALIDATION_FAILED", problems: [{ field: "baseUrl", rule: "address", message: expect.stringMatching(/supplier\.example\.com resolves to 10\.20\.30\.40, not a public address \(private\)/) }] });
  });

  it("lets public OCTO supplier addresses through validation (the next step, sealing the key, refuses without ENGINE_SECRETS_KEY before any call)", async () => {
    const keyless = new OctoEngines({ database: ctx.database, logger: createLogger("silent"), clock: { now: () => new Date() }, environment: "production", secretsKey: undefined });
    for (const host of PUBLIC_HOSTS) {
      const registration = { name: engineName(), baseUrl: `https://${host}/octo`, apiKey: "octo-key", country: "FR" };
      const refused = await registerOctoEngine(ctx.database, keyless, registration, new Date()).catch((error: { error?: { extensions?: unknown } }) => error.error?.extensions);
      expect({ host, refused }, host).toMatchObject({ host, refused: { reason: "ENGINE_SECRETS_KEY_MISSING" } });
    }
  });

  it("asks for https in production, and never allows private targets there", () => {
    expect(endpointProblems({ url: "http://hooks.example.org/x", eventTypes: ["booking.status_changed"] }, { allowPrivate: false, environment: "production" })).toEqual([
      expect.objectContaining({ field: "url", rule: "format" }),
    ]);
    expect(() => loadConfig({ ENVIRONMENT: "production", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" })).toThrow(ConfigError);
  });
});
