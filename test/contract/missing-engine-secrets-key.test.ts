import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../drizzle/database.js";
import { toGlobalId } from "../../core/global-id.js";
import { webhookEndpoints } from "../../drizzle/schema.js";
import { createOctoSupplier, type OctoSupplier } from "../../octo-supplier/octo-supplier.js";
import { consumer } from "../support/booking.js";
import { getJson, graphql, openTestDatabase, startStack, type Stack } from "../support/stack.js";

const createMutation = `mutation($u: String!) { createWebhookEndpoint(input: { url: $u, eventTypes: [BOOKING_STATUS_CHANGED] }) { secret webhookEndpoint { id } userErrors { code message field } } }`;
const rotateMutation = `mutation($id: ID!) { rotateWebhookEndpointSecret(input: { webhookEndpointId: $id }) { secret userErrors { code message field } } }`;

/**
 * Webhook endpoints keep a signing secret, sealed under ENGINE_SECRETS_KEY. A production service
 * started without it answers what OCTO registration answers: 409 ENGINE_SECRETS_KEY_MISSING,
 * documented, nothing saved; never a 500 (docs/spec-decisions.md, "A missing secret").
 */
describe("webhook secrets in production without ENGINE_SECRETS_KEY", () => {
  let database: Database;
  let sandbox: Stack;
  let production: Stack;
  let keyed: Stack;
  const productionLog: string[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    sandbox = await startStack({ database, env: { ENVIRONMENT: "sandbox" } });
    production = await startStack({ database, env: { ENVIRONMENT: "production" }, logLines: productionLog });
    keyed = await startStack({ database, env: { ENVIRONMENT: "production", ENGINE_SECRETS_KEY: randomBytes(32).toString("base64") } });
  });
  afterAll(async () => {
    await sandbox?.close();
    await production?.close();
    await keyed?.close();
    await database?.close();
  });

  const url = () => `https://hooks.example.com/${randomUUID()}`;

  it("says at start what cannot work, naming the variable", () => {
    expect(productionLog.map((line) => JSON.parse(line) as { level: number; msg: string })).toContainEqual(
      expect.objectContaining({ level: 40, msg: expect.stringMatching(/^ENGINE_SECRETS_KEY is not set: webhook endpoints cannot be created or given a new secret, and OCTO engines cannot be registered \(409 ENGINE_SECRETS_KEY_MISSING\)/) }),
    );
  });

  it("refuses to register an endpoint, over REST and GraphQL, and saves nothing", async () => {
    const buyer = await consumer(production);
    const rest = await buyer.rest.post("/api/webhooks/endpoints", { url: url(), eventTypes: ["booking.status_changed"] });
    expect(rest.status).toBe(409);
    expect(rest.body).toMatchObject({ code: "ENGINE_SECRETS_KEY_MISSING", message: expect.stringContaining("ENGINE_SECRETS_KEY is not set") });
    // The graph answers it as data: the caller can do nothing but tell the operator, but it is not the service failing.
    const graph = await graphql(`${production.url}/graphql`, buyer.token, createMutation, { u: url() });
    expect(graph.body.errors).toBeUndefined();
    expect(graph.body.data?.createWebhookEndpoint).toMatchObject({ secret: null, webhookEndpoint: null, userErrors: [{ code: "ENGINE_SECRETS_KEY_MISSING", message: expect.stringContaining("ENGINE_SECRETS_KEY is not set"), field: null }] });
    expect((await buyer.rest.get("/api/webhooks/endpoints")).body).toEqual([]);
  });

  it("refuses to rotate the secret of an endpoint the sandbox registered for the organisation, and keeps the secret it has", async () => {
    const organisation = `Webhook Org ${randomUUID().slice(0, 8)}`;
    const sandboxBuyer = await consumer(sandbox, organisation);
    const created = await sandboxBuyer.rest.post("/api/webhooks/endpoints", { url: url(), eventTypes: ["booking.status_changed"] });
    expect(created.status).toBe(201);
    const id = created.body.endpoint.id as string;
    const sealedBefore = (await database.db.select({ sealed: webhookEndpoints.sealedSecret }).from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0].sealed;

    const productionBuyer = await consumer(production, organisation);
    const rest = await productionBuyer.rest.post(`/api/webhooks/endpoints/${id}/secret`);
    expect(rest.status).toBe(409);
    expect(rest.body).toMatchObject({ code: "ENGINE_SECRETS_KEY_MISSING" });
    const graph = await graphql(`${production.url}/graphql`, productionBuyer.token, rotateMutation, { id: toGlobalId("WebhookEndpoint", id) });
    expect(graph.body.data?.rotateWebhookEndpointSecret).toMatchObject({ secret: null, userErrors: [{ code: "ENGINE_SECRETS_KEY_MISSING" }] });
    const sealedAfter = (await database.db.select({ sealed: webhookEndpoints.sealedSecret }).from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0].sealed;
    expect(sealedAfter).toBe(sealedBefore);
    // Another organisation's endpoint is still unknown, before any secret is asked for.
    expect((await (await consumer(production)).rest.post(`/api/webhooks/endpoints/${id}/secret`)).status).toBe(404);
  });

  it("registers endpoints and rotates their secrets once ENGINE_SECRETS_KEY is set", async () => {
    const buyer = await consumer(keyed);
    const created = await buyer.rest.post("/api/webhooks/endpoints", { url: url(), eventTypes: ["booking.status_changed"] });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const rotated = await buyer.rest.post(`/api/webhooks/endpoints/${created.body.endpoint.id}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const graph = await graphql(`${keyed.url}/graphql`, buyer.token, createMutation, { u: url() });
    expect(graph.body.errors).toBeUndefined();
    expect(graph.body.data?.createWebhookEndpoint.secret).toMatch(/^whsec_/);
  });
});

describe("an OCTO engine whose key production cannot open", () => {
  const apiKey = `octo-key-${randomUUID()}`;
  const engine = `OCTO_KEYLESS_${randomUUID().slice(0, 6).toUpperCase()}`;
  let database: Database;
  let sandbox: Stack;
  let production: Stack;
  let keyed: Stack;
  let supplier: OctoSupplier;
  let louvre: number;

  beforeAll(async () => {
    database = await openTestDatabase();
    sandbox = await startStack({ database, env: { ENVIRONMENT: "sandbox" } });
    production = await startStack({ database, env: { ENVIRONMENT: "production" } });
    keyed = await startStack({ database, env: { ENVIRONMENT: "production", ENGINE_SECRETS_KEY: randomBytes(32).toString("base64") } });
    supplier = await createOctoSupplier({ apiKey });
    const supplierUrl = await supplier.listen();
    // Registered by the sandbox, which seals the key with the key it keeps in the database.
    const platform = await sandbox.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
    const registered = await fetch(`${sandbox.url}/api/booking-engines/octo/${engine}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${platform}`, "content-type": "application/json" },
      body: JSON.stringify({ baseUrl: supplierUrl, apiKey, country: "FR" }),
    });
    expect(registered.status).toBe(200);
    const imported = await fetch(`${sandbox.url}/api/booking-engines/octo/${engine}/import`, { method: "POST", headers: { authorization: `Bearer ${platform}` } });
    const { supplierId } = (await imported.json()) as { supplierId: number };
    const products = (await getJson(`${sandbox.url}/api/supplier/${supplierId}/products`, platform)).body as { id: number; externalId: string }[];
    louvre = products.find((product) => product.externalId === "louvre-highlights")!.id;
  });
  afterAll(async () => {
    await sandbox?.close();
    await production?.close();
    await keyed?.close();
    await supplier?.close();
    await database?.close();
  });

  it("refuses to import it with 409 ENGINE_SECRETS_KEY_MISSING, without ENGINE_SECRETS_KEY or with another key", async () => {
    for (const stack of [production, keyed]) {
      const platform = await stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
      const response = await fetch(`${stack.url}/api/booking-engines/octo/${engine}/import`, { method: "POST", headers: { authorization: `Bearer ${platform}` } });
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({ code: "ENGINE_SECRETS_KEY_MISSING" });
    }
  });

  it("answers a booking step that asks the supplier as for a supplier that cannot be reached: 503 ENGINE_UNAVAILABLE", async () => {
    const buyer = await consumer(production);
    const date = new Date(Date.now() + 7 * 86400_000).toISOString().slice(0, 10);
    const options = await buyer.rest.get(`/booking-flow/v1/products/${louvre}/availabilities/${date}/options`);
    expect(options.status).toBe(503);
    expect(options.body).toMatchObject({ code: "ENGINE_UNAVAILABLE", message: expect.stringContaining("ENGINE_SECRETS_KEY is not set") });
  });
});
