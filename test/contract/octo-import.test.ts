import { randomUUID } from "node:crypto";
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productChanges, products } from "../../drizzle/schema.js";
import { createOctoSupplier, type OctoSupplier } from "../../octo-supplier/octo-supplier.js";
import { toGlobalId } from "../../core/global-id.js";
import { getJson, graphql, useStack } from "../support/stack.js";
import { familySetup } from "../support/booking.js";
import { parseBookingSetup } from "../../subgraphs/booking/engines/inventory/booking-setup.schema.js";
import { typedSetupOf } from "../../subgraphs/booking/booking-setup/booking-setup.document.js";

const SUPPLIER_KEY = `octo-key-${randomUUID()}`;

/**
 * An OCTO engine's supplier and products become ours: on demand (REST and GraphQL) and on the
 * worker's schedule, through the catalogue's own rules and change log; what disappears upstream
 * is deprecated, and what did not change is not written.
 */
describe("importing an OCTO engine's content", () => {
  const ctx = useStack();
  let supplier: OctoSupplier;
  let supplierUrl: string;
  let platform: string;
  let engine: string;

  beforeAll(async () => {
    supplier = await createOctoSupplier({ apiKey: SUPPLIER_KEY });
    supplierUrl = await supplier.listen();
    platform = await ctx.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
    engine = `OCTO_IMPORT_${randomUUID().slice(0, 6).toUpperCase()}`;
    const registered = await fetch(`${ctx.stack.url}/api/booking-engines/octo/${engine}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${platform}`, "content-type": "application/json" },
      body: JSON.stringify({ baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, country: "FR" }),
    });
    expect(registered.status).toBe(200);
  });
  afterAll(async () => supplier?.close());

  const runImport = async (token = platform, name = engine) => {
    const response = await fetch(`${ctx.stack.url}/api/booking-engines/octo/${name}/import`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const productsOf = async (supplierId: number) => (await getJson(`${ctx.stack.url}/api/supplier/${supplierId}/products`, platform)).body as Record<string, any>[];
  const changesOf = async (productIds: number[]) =>
    (await ctx.database.db.select().from(productChanges).where(inArray(productChanges.productId, productIds)).orderBy(asc(productChanges.id))).map((change) => `${change.productId}:${change.changeType}`);

  it("creates the supplier and its products with every language's texts, logging each as NEW", async () => {
    const first = await runImport();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ engine, supplierCreated: true, supplierUpdated: false, created: 3, updated: 0, unchanged: 0, deprecated: 0, refused: [] });

    const supplierRecord = (await getJson(`${ctx.stack.url}/api/supplier/${first.body.supplierId}`, platform)).body;
    expect(supplierRecord).toMatchObject({ externalId: "paris-discovery", name: "Paris Discovery (local OCTO supplier)", country: "FR", channel: "octo" });

    const imported = await productsOf(first.body.supplierId);
    const louvre = imported.find((product) => product.externalId === "louvre-highlights")!;
    // The lowest and highest unit price of any option, in euros (OCTO quotes cents).
    const retail = supplier.state.products.find((product) => product.id === "louvre-highlights")!.options.flatMap((option) => option.units.map((unit) => unit.retail / 100));
    expect(louvre).toMatchObject({
      title: { en: "Louvre highlights guided tour", fr: "Visite guidée des chefs-d'œuvre du Louvre" },
      availabilityType: "START_TIME",
      priceCurrency: "EUR",
      minPrice: Math.min(...retail),
      maxPrice: Math.max(...retail),
      country: { code: "FR" },
      cityName: "Paris",
      bookingEngine: engine,
    });
    expect(Object.keys(louvre.title).sort()).toEqual(["de", "en", "fr"]);
    expect(imported.find((product) => product.externalId === "seine-day-pass")).toMatchObject({ availabilityType: "OPENING_HOURS", duration: "PT8H" });
    // Priced per booking (its option's price, no unit prices) and lasting durationAmount 2, durationUnit hour.
    expect(imported.find((product) => product.externalId === "seine-private-cruise")).toMatchObject({
      pricingUnit: "GROUP",
      minPrice: 390,
      maxPrice: 390,
      priceCurrency: "EUR",
      duration: "PT2H",
      minParticipants: 2,
      maxParticipants: 8,
    });
    const cruise = imported.find((product) => product.externalId === "seine-private-cruise")!;
    expect(Object.values(cruise.onlineBookable as Record<string, boolean>).every((bookable) => bookable === true)).toBe(true);
    expect(await changesOf(imported.map((product) => product.id))).toEqual(imported.map((product) => `${product.id}:NEW`));
    // Every call to the supplier is timed by engine, call kind and outcome.
    const calls = await ctx.stack.service.metrics.registry.getSingleMetricAsString("activities_engine_call_duration_seconds");
    const counted = calls.split("\n").find((line) => line.startsWith("activities_engine_call_duration_seconds_count{") && [`engine="${engine}"`, 'path="GET /products"', 'outcome="ok"'].every((label) => line.includes(label)));
    expect(Number(counted?.split(" ").at(-1))).toBeGreaterThan(0);
  });

  it("writes nothing when nothing changed, updates what changed, and deprecates what disappeared, then brings it back", async () => {
    const baseline = await runImport();
    expect(baseline.body).toMatchObject({ supplierCreated: false, supplierUpdated: false, created: 0, updated: 0, unchanged: 3, deprecated: 0 });
    const ids = (await productsOf(baseline.body.supplierId)).map((product) => product.id);
    const before = await changesOf(ids);
    const dates = await ctx.database.db.select({ id: products.id, updateDate: products.updateDate }).from(products).where(inArray(products.id, ids));

    const again = await runImport();
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(await changesOf(ids)).toEqual(before);
    expect(await ctx.database.db.select({ id: products.id, updateDate: products.updateDate }).from(products).where(inArray(products.id, ids))).toEqual(dates);

    // Upstream: the Louvre tour is renamed in French, the river pass withdrawn.
    const louvre = supplier.state.products.find((product) => product.id === "louvre-highlights")!;
    louvre.title.fr = "Le Louvre en deux heures";
    const withdrawn = supplier.state.products.splice(supplier.state.products.findIndex((product) => product.id === "seine-day-pass"), 1)[0];
    const changed = await runImport();
    expect(changed.body).toMatchObject({ created: 0, updated: 1, unchanged: 1, deprecated: 1, undeprecated: 0 });
    const after = await productsOf(baseline.body.supplierId);
    const louvreId = after.find((product) => product.externalId === "louvre-highlights")!.id;
    const seine = after.find((product) => product.externalId === "seine-day-pass")!;
    expect(after.find((product) => product.id === louvreId)!.title.fr).toBe("Le Louvre en deux heures");
    expect(seine.deprecated).toBe(true);
    expect((await changesOf(ids)).slice(before.length).sort()).toEqual([`${louvreId}:UPDATED`, `${seine.id}:DEPRECATED`].sort());

    supplier.state.products.push(withdrawn);
    const back = await runImport();
    expect(back.body).toMatchObject({ created: 0, updated: 0, unchanged: 3, deprecated: 0, undeprecated: 1 });
    expect((await productsOf(baseline.body.supplierId)).find((product) => product.id === seine.id)!.deprecated).toBe(false);
    expect((await changesOf([seine.id])).at(-1)).toBe(`${seine.id}:UNDEPRECATED`);
  });

  it("lets the engine's content partners manage the imported supplier as any other", async () => {
    const { body } = await runImport();
    const partner = await ctx.stack.createAccount("CONTENT_PARTNER", { bookingEngine: engine });
    const token = (await ctx.stack.login(partner.username, partner.password)).access_token;
    const read = await getJson(`${ctx.stack.url}/api/supplier/${body.supplierId}`, token);
    expect(read).toMatchObject({ status: 200, body: { externalId: "paris-discovery" } });
    const listed = await getJson(`${ctx.stack.url}/api/supplier/${body.supplierId}/products`, token);
    expect(listed.body.map((product: { externalId: string }) => product.externalId).sort()).toEqual(["louvre-highlights", "seine-day-pass", "seine-private-cruise"]);
    const other = await ctx.stack.createAccount("CONTENT_PARTNER", { bookingEngine: `INV_${randomUUID().slice(0, 6).toUpperCase()}` });
    const outsider = (await ctx.stack.login(other.username, other.password)).access_token;
    expect((await getJson(`${ctx.stack.url}/api/supplier/${body.supplierId}`, outsider)).status).toBe(404);
  });

  it("leaves alone a product a partner added by hand under the imported supplier", async () => {
    const { body } = await runImport();
    const mutation = `mutation($input: CreateProductInput!) { createProduct(input: $input) { product { legacyResourceId } userErrors { code } } }`;
    const created = await graphql(`${ctx.stack.url}/graphql`, platform, mutation, {
      input: { supplierId: toGlobalId("Supplier", body.supplierId), externalId: `manual-${randomUUID().slice(0, 6)}`, title: [{ language: "en", text: "Evening walk" }], bookingEngine: engine },
    });
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data!.createProduct.userErrors).toEqual([]);
    const manualId = created.body.data!.createProduct.product.legacyResourceId as number;
    expect((await runImport()).body).toMatchObject({ deprecated: 0 });
    expect((await ctx.database.db.select({ deprecated: products.deprecated }).from(products).where(eq(products.id, manualId)))[0].deprecated).toBe(false);
  });

  it("is for PLATFORM_CATALOG_MANAGEMENT; answers 404, ENGINE_NOT_OCTO, a supplier's failure and a running import with their codes", async () => {
    expect((await runImport(await ctx.stack.tokenFor("CONSUMER"))).status).toBe(403);
    expect((await runImport(await ctx.stack.tokenFor("OPERATOR"))).status).toBe(403);
    expect((await runImport(platform, "NO_SUCH_ENGINE")).status).toBe(404);
    const engineName = `INV_${randomUUID().slice(0, 6).toUpperCase()}`;
    await ctx.stack.createAccount("CONTENT_PARTNER", { bookingEngine: engineName });
    expect(await runImport(platform, engineName)).toMatchObject({ status: 400, body: { code: "ENGINE_NOT_OCTO" } });

    supplier.faults.rules.push({ route: "GET /products", kind: "error", times: 10 });
    const failed = await runImport();
    supplier.faults.rules.length = 0;
    // 503 as at a booking step: the supplier is unreachable, not the request wrong (core/refusals.ts).
    expect(failed).toMatchObject({ status: 503, body: { code: "ENGINE_UNAVAILABLE" } });
    // A failed import released its claim: the next one runs.
    expect((await runImport()).status).toBe(200);

    // Another import of the engine in flight (held up by the supplier) makes this one wait its turn.
    supplier.faults.latencyMs = 600;
    const slow = runImport();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const concurrent = await runImport();
    supplier.faults.latencyMs = 0;
    expect(concurrent).toMatchObject({ status: 409, body: { code: "IMPORT_RUNNING" } });
    expect((await slow).status).toBe(200);
  });

  it("imports through the graph by the engine's global id or name, and answers refusals as userErrors on the input", async () => {
    const mutation = `mutation($input: ImportOctoEngineInput!) {
      importOctoEngine(input: $input) {
        octoImport { bookingEngine { id name octo { lastImportedAt } } supplier { id externalId } isSupplierCreated unchangedProductCount refusedProducts { externalId } }
        userErrors { code field rule }
      }
    }`;
    const run = async (input: Record<string, unknown>, token = platform) => (await graphql(`${ctx.stack.url}/graphql`, token, mutation, { input })).body;
    const byName = await run({ bookingEngineName: engine });
    expect(byName.errors).toBeUndefined();
    const done = byName.data!.importOctoEngine.octoImport;
    expect(done).toMatchObject({ bookingEngine: { name: engine }, supplier: { externalId: "paris-discovery" }, isSupplierCreated: expect.any(Boolean), refusedProducts: [] });
    expect(Date.parse(done.bookingEngine.octo.lastImportedAt)).toBeGreaterThan(Date.now() - 60_000);
    const byId = await run({ bookingEngineId: done.bookingEngine.id });
    expect(byId.data!.importOctoEngine).toMatchObject({ octoImport: { bookingEngine: { name: engine }, supplier: { id: done.supplier.id } }, userErrors: [] });

    const refusals: [Record<string, unknown>, unknown][] = [
      [{}, { code: "VALIDATION_FAILED", field: ["input", "bookingEngineId"], rule: "exclusive" }],
      [{ bookingEngineId: done.bookingEngine.id, bookingEngineName: engine }, { code: "VALIDATION_FAILED", field: ["input", "bookingEngineId"], rule: "exclusive" }],
      [{ bookingEngineName: "NO_SUCH_ENGINE" }, { code: "NOT_FOUND", field: ["input", "bookingEngineName"], rule: null }],
      // An organisation's id names no engine.
      [{ bookingEngineId: toGlobalId("Organisation", 1) }, { code: "NOT_FOUND", field: ["input", "bookingEngineId"], rule: null }],
    ];
    for (const [input, userError] of refusals) {
      const { data, errors } = await run(input);
      expect({ input, data, errors }).toEqual({ input, data: { importOctoEngine: { octoImport: null, userErrors: [userError] } }, errors: undefined });
    }
    // The caller's role and the supplier's failure are not the input's: they stay errors.
    expect((await run({ bookingEngineName: engine }, await ctx.stack.tokenFor("OPERATOR"))).errors?.[0].extensions?.code).toBe("FORBIDDEN");
    supplier.faults.rules.push({ route: "GET /supplier", kind: "error", times: 10 });
    const failed = await run({ bookingEngineName: engine });
    supplier.faults.rules.length = 0;
    expect(failed.errors?.[0].extensions).toMatchObject({ code: "SERVICE_UNAVAILABLE", reason: "ENGINE_UNAVAILABLE" });
  });

  it("sells an OCTO product through the supplier's system only: no inventory setup, online bookable, dates from the supplier", async () => {
    const { body } = await runImport();
    const louvre = (await productsOf(body.supplierId)).find((product) => product.externalId === "louvre-highlights")!;
    const setup = await fetch(`${ctx.stack.url}/api/supplier/${body.supplierId}/product/${louvre.id}/booking-setup`, {
      method: "PUT",
      headers: { authorization: `Bearer ${platform}`, "content-type": "application/json" },
      body: JSON.stringify({ timeZone: "Europe/Paris", startTimes: ["09:00"], capacityPerSlot: 10 }),
    });
    expect(setup.status).toBe(400);
    expect(((await setup.json()) as { code: string }).code).toBe("SETUP_NOT_FOR_ENGINE");
    // Every unit has a retail price in a currency we convert: the flow sells it, so the catalogue says so.
    expect(Object.values(louvre.onlineBookable as Record<string, boolean>).every((bookable) => bookable === true)).toBe(true);
    const consumer = await ctx.stack.tokenFor("CONSUMER");
    const date = new Date(Date.now() + 20 * 86400_000).toISOString().slice(0, 10);
    const dates = await getJson(`${ctx.stack.url}/booking-flow/v1/products/${louvre.id}/availabilities?startDate=${date}&endDate=${date}`, consumer);
    expect(dates.body).toEqual({ availabilityDates: [date] });
  });

  it("says through the graph that an OCTO product takes no setup: its engine kind, and SETUP_NOT_FOR_ENGINE for a valid setup too", async () => {
    const { body } = await runImport();
    const louvre = (await productsOf(body.supplierId)).find((product) => product.externalId === "louvre-highlights")!;
    const productId = toGlobalId("Product", louvre.id);
    const read = await graphql(`${ctx.stack.url}/graphql`, platform, `query ($productId: ID!) { productBookingSetup(productId: $productId) { bookingEngineKind } }`, { productId });
    expect(read.body.data).toEqual({ productBookingSetup: { bookingEngineKind: "OCTO" } });
    const setup = parseBookingSetup(familySetup()).setup!;
    const set = await graphql(
      `${ctx.stack.url}/graphql`,
      platform,
      `mutation ($input: SetProductBookingSetupInput!) { setProductBookingSetup(input: $input) { productBookingSetup { setup { timeZone } } userErrors { code field } } }`,
      { input: { productId, setup: typedSetupOf(setup) } },
    );
    expect(set.body.data).toEqual({ setProductBookingSetup: { productBookingSetup: null, userErrors: [{ code: "SETUP_NOT_FOR_ENGINE", field: null }] } });
    // REST's valid body takes the mutation's way to the same refusal.
    const rest = await fetch(`${ctx.stack.url}/api/supplier/${body.supplierId}/product/${louvre.id}/booking-setup`, {
      method: "PUT",
      headers: { authorization: `Bearer ${platform}`, "content-type": "application/json" },
      body: JSON.stringify(familySetup()),
    });
    expect(rest.status).toBe(400);
    expect(((await rest.json()) as { code: string }).code).toBe("SETUP_NOT_FOR_ENGINE");
  });

  it("runs on the worker's schedule for every OCTO engine, in the worker's own name", async () => {
    supplier.state.products.find((product) => product.id === "louvre-highlights")!.title.de = "Louvre kompakt";
    const summaries = await ctx.stack.service.worker!.importOctoEngines();
    const ours = summaries.find((summary) => summary.engine === engine);
    expect(ours?.error).toBeUndefined();
    expect(ours?.report).toMatchObject({ updatedProductCount: 1, createdProductCount: 0 });
  });
});
