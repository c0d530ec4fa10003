import { toGlobalId } from "../../core/global-id.js";
import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { octoConnections, bookingEngines } from "../../drizzle/schema.js";
import { runOperatorCommand } from "../../server/operator-cli.js";
import { createOctoSupplier, type OctoSupplier } from "../../octo-supplier/octo-supplier.js";
import { getJson, graphql, useStack } from "../support/stack.js";

const SUPPLIER_KEY = `octo-key-${randomUUID()}`;
const SECRETS_KEY = randomBytes(32).toString("hex");

/**
 * A supplier system speaking OCTO becomes a booking engine: REST (PUT /api/booking-engines/octo/{name}),
 * GraphQL (registerOctoEngine) and the operator CLI. The system is asked before anything is saved;
 * its key is sealed, never shown and never logged.
 */
describe("registering an OCTO engine", () => {
  const logLines: string[] = [];
  const ctx = useStack({ env: { ENGINE_SECRETS_KEY: SECRETS_KEY }, logLines });
  let supplier: OctoSupplier;
  let supplierUrl: string;
  /** A supplier that offers no questions. */
  let plain: OctoSupplier;
  let plainUrl: string;
  let platform: string;

  beforeAll(async () => {
    supplier = await createOctoSupplier({ apiKey: SUPPLIER_KEY });
    supplierUrl = await supplier.listen();
    plain = await createOctoSupplier({ apiKey: SUPPLIER_KEY, capabilities: ["octo/content", "octo/pricing"] });
    plainUrl = await plain.listen();
    platform = await ctx.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
  });
  afterAll(async () => Promise.all([supplier?.close(), plain?.close()]));

  const engineName = () => `OCTO_${randomUUID().slice(0, 8).toUpperCase()}`;
  const put = async (name: string, body: unknown, token = platform) => {
    const response = await fetch(`${ctx.stack.url}/api/booking-engines/octo/${name}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) };
  };
  const engineRow = async (name: string) => (await ctx.database.db.select().from(bookingEngines).where(eq(bookingEngines.name, name)))[0];

  it("asks the supplier, saves the engine with the key sealed, and shows its settings but never the key", async () => {
    const name = engineName();
    const registered = await put(name, { baseUrl: `${supplierUrl}/`, apiKey: SUPPLIER_KEY, country: "FR" });
    expect(registered.status).toBe(200);
    // Without a list, every capability we use that the supplier offers.
    expect(registered.body).toMatchObject({
      name,
      kind: "OCTO",
      octo: { baseUrl: supplierUrl, capabilities: ["octo/pricing", "octo/content", "octo/questions"], octoSupplierId: "paris-discovery", octoSupplierName: "Paris Discovery (local OCTO supplier)", country: "FR" },
    });
    expect(registered.text).not.toContain(SUPPLIER_KEY);

    const [stored] = await ctx.database.db.select().from(octoConnections).where(eq(octoConnections.engineName, name));
    expect(stored.sealedApiKey).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(stored.sealedApiKey).not.toContain(SUPPLIER_KEY);
    expect(JSON.stringify(stored)).not.toContain(SUPPLIER_KEY);

    const listed = await getJson(`${ctx.stack.url}/api/booking-engines?kind=OCTO`, platform);
    expect(listed.body.items).toContainEqual({ id: registered.body.id, name, kind: "OCTO" });

    const operator = await ctx.stack.tokenFor("OPERATOR");
    const read = await graphql(`${ctx.stack.url}/graphql`, operator, `query($id: ID!) { bookingEngine(id: $id) { name kind octo { baseUrl capabilities countryCode lastImportedAt } } }`, { id: toGlobalId("BookingEngine", registered.body.id) });
    expect(read.body.data?.bookingEngine).toEqual({ name, kind: "OCTO", octo: { baseUrl: supplierUrl, capabilities: ["PRICING", "CONTENT", "QUESTIONS"], countryCode: "FR", lastImportedAt: null } });
    expect(JSON.stringify(read.body)).not.toContain(SUPPLIER_KEY);

    // The engine's client calls the supplier with the key it opened.
    const client = await ctx.stack.service.octo.clientFor(name);
    expect((await client!.supplier()).body.id).toBe("paris-discovery");
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join("\n")).not.toContain(SUPPLIER_KEY);
  });

  it("registers through GraphQL, and a second registration replaces URL, key and capabilities", async () => {
    const name = engineName();
    const mutation = `mutation($input: RegisterOctoEngineInput!) {
      registerOctoEngine(input: $input) { bookingEngine { id kind octo { capabilities registeredAt updatedAt } } userErrors { code field } }
    }`;
    const first = await graphql(`${ctx.stack.url}/graphql`, platform, mutation, { input: { name, baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, countryCode: "FR" } });
    const offeredByPlain = await graphql(`${ctx.stack.url}/graphql`, platform, mutation, { input: { name: engineName(), baseUrl: plainUrl, apiKey: SUPPLIER_KEY, countryCode: "FR" } });
    expect(offeredByPlain.body.data?.registerOctoEngine).toMatchObject({ bookingEngine: { octo: { capabilities: ["PRICING", "CONTENT"] } }, userErrors: [] });
    expect(first.body.data?.registerOctoEngine).toMatchObject({ bookingEngine: { kind: "OCTO", octo: { capabilities: ["PRICING", "CONTENT", "QUESTIONS"] } }, userErrors: [] });
    const firstEngine = first.body.data?.registerOctoEngine.bookingEngine;
    const sealedBefore = (await ctx.database.db.select().from(octoConnections).where(eq(octoConnections.engineName, name)))[0].sealedApiKey;

    const again = await graphql(`${ctx.stack.url}/graphql`, platform, mutation, { input: { name, baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, countryCode: "FR", capabilities: ["PRICING"] } });
    expect(again.body.data?.registerOctoEngine.bookingEngine).toMatchObject({ id: firstEngine.id, octo: { capabilities: ["PRICING"], registeredAt: firstEngine.octo.registeredAt } });
    const sealedAfter = (await ctx.database.db.select().from(octoConnections).where(eq(octoConnections.engineName, name)))[0].sealedApiKey;
    // Sealed afresh (a new nonce), under the same configured key.
    expect(sealedAfter).not.toBe(sealedBefore);
    expect(sealedAfter.split(".")[1]).toBe(sealedBefore.split(".")[1]);
  });

  it("answers the graph's refusals as userErrors on the input's fields, and saves nothing", async () => {
    const mutation = `mutation($input: RegisterOctoEngineInput!) {
      registerOctoEngine(input: $input) { bookingEngine { id } userErrors { code field rule errorCode } }
    }`;
    const cases: { input: Record<string, unknown>; code: string; field: string[] | null }[] = [
      { input: { baseUrl: supplierUrl, apiKey: "not-the-key", countryCode: "FR" }, code: "ENGINE_VERIFICATION_FAILED", field: ["input", "apiKey"] },
      { input: { baseUrl: plainUrl, apiKey: SUPPLIER_KEY, countryCode: "FR", capabilities: ["PRICING", "QUESTIONS"] }, code: "ENGINE_CAPABILITY_MISSING", field: ["input", "capabilities"] },
      { input: { baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, countryCode: "FR", capabilities: ["CONTENT"] }, code: "VALIDATION_FAILED", field: ["input", "capabilities"] },
      { input: { baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, countryCode: "XX" }, code: "VALIDATION_FAILED", field: ["input", "countryCode"] },
      { input: { baseUrl: "ftp://supplier.example", apiKey: SUPPLIER_KEY, countryCode: "FR" }, code: "VALIDATION_FAILED", field: ["input", "baseUrl"] },
    ];
    for (const { input, code, field } of cases) {
      const name = engineName();
      const answer = await graphql(`${ctx.stack.url}/graphql`, platform, mutation, { input: { name, ...input } });
      expect({ input, errors: answer.body.errors }).toEqual({ input, errors: undefined });
      const payload = answer.body.data?.registerOctoEngine;
      expect(payload.bookingEngine).toBeNull();
      expect(payload.userErrors).toContainEqual(expect.objectContaining({ code, field }));
      expect(await engineRow(name)).toBeUndefined();
    }
    // An inventory engine's name: a conflict, about no one field.
    const inventoryName = `INV_${randomUUID().slice(0, 6).toUpperCase()}`;
    await ctx.stack.createAccount("CONTENT_PARTNER", { bookingEngine: inventoryName });
    const conflict = await graphql(`${ctx.stack.url}/graphql`, platform, mutation, { input: { name: inventoryName, baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, countryCode: "FR" } });
    expect(conflict.body.data?.registerOctoEngine).toEqual({ bookingEngine: null, userErrors: [{ code: "ENGINE_KIND_CONFLICT", field: null, rule: null, errorCode: null }] });
    // The caller's role is not the input's fault: it stays an error of the operation.
    const operator = await ctx.stack.tokenFor("OPERATOR");
    const forbidden = await graphql(`${ctx.stack.url}/graphql`, operator, mutation, { input: { name: engineName(), baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, countryCode: "FR" } });
    expect(forbidden.body.errors?.[0].extensions?.code).toBe("FORBIDDEN");
  });

  it("refuses what will not work with a 400 naming the field, and saves nothing", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const cases: { body: Record<string, unknown>; name?: string; code: string; field: string }[] = [
      { body: { baseUrl: supplierUrl, apiKey: "not-the-key", country: "FR" }, code: "ENGINE_VERIFICATION_FAILED", field: "apiKey" },
      { body: { baseUrl: plainUrl, apiKey: SUPPLIER_KEY, country: "FR", capabilities: ["octo/pricing", "octo/questions"] }, code: "ENGINE_CAPABILITY_MISSING", field: "capabilities" },
      { body: { baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, country: "FR", capabilities: ["octo/content"] }, code: "VALIDATION_FAILED", field: "capabilities" },
      { body: { baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, country: "FR", capabilities: ["octo/cart"] }, code: "VALIDATION_FAILED", field: "capabilities[0]" },
      // Our own service answers JSON, but not OCTO.
      { body: { baseUrl: `${ctx.stack.url}/api`, apiKey: SUPPLIER_KEY, country: "FR" }, code: "ENGINE_VERIFICATION_FAILED", field: "baseUrl" },
      { body: { baseUrl: `http://127.0.0.1:${closedPort}`, apiKey: SUPPLIER_KEY, country: "FR" }, code: "ENGINE_VERIFICATION_FAILED", field: "baseUrl" },
      { body: { baseUrl: "ftp://supplier.example", apiKey: SUPPLIER_KEY, country: "FR" }, code: "VALIDATION_FAILED", field: "baseUrl" },
      { body: { baseUrl: `${supplierUrl}?key=1`, apiKey: SUPPLIER_KEY, country: "FR" }, code: "VALIDATION_FAILED", field: "baseUrl" },
      { body: { baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, country: "XX" }, code: "VALIDATION_FAILED", field: "country" },
      { body: { baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, country: "FR" }, name: "lower_case", code: "VALIDATION_FAILED", field: "name" },
      { body: { baseUrl: supplierUrl, country: "FR" }, code: "VALIDATION_FAILED", field: "apiKey" },
      { body: { baseUrl: supplierUrl, apiKey: "key\u0000with-nul", country: "FR" }, code: "VALIDATION_FAILED", field: "apiKey" },
      { body: { baseUrl: supplierUrl, apiKey: "key with space", country: "FR" }, code: "VALIDATION_FAILED", field: "apiKey" },
    ];
    for (const { body, name = engineName(), code, field } of cases) {
      const refused = await put(name, body);
      expect({ name, body, status: refused.status, code: refused.body.code }).toEqual({ name, body, status: 400, code });
      expect(refused.body.details?.map((detail: { field: string }) => detail.field) ?? [], JSON.stringify(refused.body)).toContain(field);
      expect(refused.text).not.toContain(SUPPLIER_KEY);
      expect(await engineRow(name)).toBeUndefined();
    }
    expect(logLines.join("\n")).not.toContain(SUPPLIER_KEY);
  });

  it("is for PLATFORM_CATALOG_MANAGEMENT only, shows settings to platform roles only, and keeps engine kinds apart", async () => {
    const partner = await ctx.stack.createAccount("CONTENT_PARTNER", { bookingEngine: `INV_${randomUUID().slice(0, 6).toUpperCase()}` });
    const partnerToken = (await ctx.stack.login(partner.username, partner.password)).access_token;
    const name = engineName();
    expect((await put(name, { baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, country: "FR" }, partnerToken)).status).toBe(403);
    expect((await put(name, { baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, country: "FR" }, await ctx.stack.tokenFor("OPERATOR"))).status).toBe(403);
    expect(await engineRow(name)).toBeUndefined();

    const registered = await put(name, { baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, country: "FR" });
    const consumer = await ctx.stack.tokenFor("CONSUMER");
    const read = await graphql(`${ctx.stack.url}/graphql`, consumer, `query($id: ID!) { bookingEngine(id: $id) { name octo { baseUrl } } }`, { id: toGlobalId("BookingEngine", registered.body.id) });
    expect(read.body.data?.bookingEngine).toEqual({ name, octo: null });
    expect(read.body.errors?.[0].extensions?.code).toBe("FORBIDDEN");

    // An inventory engine's name cannot become an OCTO engine: its products are sold by setups.
    const inventoryName = (await ctx.database.db.select().from(bookingEngines).where(eq(bookingEngines.kind, "INVENTORY")))[0].name;
    const conflict = await put(inventoryName, { baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, country: "FR" });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe("ENGINE_KIND_CONFLICT");
    expect((await engineRow(inventoryName)).kind).toBe("INVENTORY");
  });

  it("registers from the operator CLI with the key from OCTO_API_KEY only, never printing it", async () => {
    const out: string[] = [];
    const io = { out: (line: string) => out.push(line), err: (line: string) => out.push(line) };
    const env = { ...process.env, DATA_DIR: "memory", ENGINE_SECRETS_KEY: SECRETS_KEY, LOG_LEVEL: "silent" };
    const name = engineName();
    expect(await runOperatorCommand(["register-octo-engine", "--name", name, "--base-url", supplierUrl, "--country", "fr"], env, io)).toBe(2);
    expect(out.join("\n")).toContain("OCTO_API_KEY");
    expect(await runOperatorCommand(["register-octo-engine", "--name", name, "--base-url", supplierUrl, "--country", "fr"], { ...env, OCTO_API_KEY: "wrong" }, io)).toBe(1);
    expect(out.join("\n")).toContain("apiKey: refused by the supplier system");
    const code = await runOperatorCommand(["register-octo-engine", "--name", name, "--base-url", supplierUrl, "--country", "fr", "--capabilities", "octo/pricing"], { ...env, OCTO_API_KEY: SUPPLIER_KEY }, io);
    expect(code).toBe(0);
    expect(out.at(-1)).toBe(`Registered OCTO engine ${name} (id ${out.at(-1)!.match(/id (\d+)/)![1]}): Paris Discovery (local OCTO supplier) at ${supplierUrl}, capabilities octo/pricing.`);
    expect(out.join("\n")).not.toContain(SUPPLIER_KEY);
  });
});
