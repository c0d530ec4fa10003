import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rows, type Database } from "../../drizzle/database.js";
import { bookingEngines, bookingFlowAnnouncements, bookingSetups, organisations, productChanges, products, productTaxonomies, suppliers, webhookEndpoints, webhookMessages } from "../../drizzle/schema.js";
import { bookingSetupSchema } from "../../subgraphs/booking/engines/inventory/booking-setup.schema.js";
import { inventoryEngine } from "../../subgraphs/booking/engines/inventory/inventory.engine.js";
import type { ProductFacts } from "../../subgraphs/booking/catalogue.facts.js";
import { seedDemoCatalogue } from "../../seed/catalogue.js";
import { INVENTORY_ENGINE } from "../../seed/demo.js";
import { taxonomyRepository } from "../../subgraphs/catalogue/taxonomy/taxonomy.repository.js";

/** The demo catalogue runs in its own in-memory database, so that counts are exact whatever else runs. */
describe("demo catalogue", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory" });
    await taxonomyRepository.ensureSeed(database.db);
    const [engine] = await database.db.insert(bookingEngines).values({ name: INVENTORY_ENGINE }).returning();
    // The demo partner's organisation, listening for its engine's product changes.
    const [partner] = await database.db.insert(organisations).values({ name: "Seed Listener AG", countryCode: "CH", commercialModel: "AGENT", bookingEngineId: engine.id }).returning();
    const at = new Date("2026-11-22T08:00:00Z");
    await database.db
      .insert(webhookEndpoints)
      .values({ id: randomUUID(), organisationId: partner.id, url: "https://hooks.example.com/", eventTypes: ["product.changed"], sealedSecret: "unused", createdAt: at, updatedAt: at });
  });
  afterAll(async () => database?.close());

  it("seeds several suppliers and at least 200 varied, valid products, each with its NEW change and taxonomy", async () => {
    const result = await seedDemoCatalogue(database, new Date("2026-11-22T09:00:00Z"));
    expect(result.suppliers).toBeGreaterThanOrEqual(5);
    expect(result.products).toBeGreaterThanOrEqual(200);
    const [stats] = await rows<Record<string, number>>(
      database.db,
      sql`select count(*)::int as products,
                 count(distinct country_code)::int as countries,
                 count(distinct city_name)::int as cities,
                 count(distinct price_currency)::int as currencies,
                 count(distinct supplier_id)::int as suppliers,
                 min(min_price)::float as cheapest,
                 max(max_price)::float as dearest,
                 count(*) filter (where average_price is not null)::int as restaurants
          from products where deleted_at is null`,
    );
    expect(stats.products).toBe(result.products);
    expect(stats.countries).toBeGreaterThanOrEqual(15);
    expect(stats.cities).toBeGreaterThanOrEqual(25);
    expect(stats.currencies).toBeGreaterThanOrEqual(8);
    expect(stats.suppliers).toBe(result.suppliers);
    expect(stats.cheapest).toBeLessThan(30);
    expect(stats.dearest).toBeGreaterThan(500);
    expect(stats.restaurants).toBeGreaterThan(0);
    const [languages] = await rows<{ languages: number }>(database.db, sql`select count(distinct key)::int as languages from products, jsonb_object_keys(title) as key`);
    expect(languages.languages).toBeGreaterThanOrEqual(5);
    const [categories] = await rows<{ level1: number; level2: number }>(
      database.db,
      sql`select count(distinct n.uuid) filter (where n.level = 1)::int as level1, count(distinct n.uuid) filter (where n.level = 2)::int as level2
          from product_taxonomies pt join taxonomy_nodes n on n.uuid = pt.node_uuid`,
    );
    expect(categories.level1).toBeGreaterThanOrEqual(8);
    expect(categories.level2).toBeGreaterThanOrEqual(25);
    const [{ changes }] = await rows<{ changes: number }>(database.db, sql`select count(*)::int as changes from product_changes where change_type = 'NEW'`);
    expect(changes).toBe(result.products);
    const linked = await database.db.selectDistinct({ productId: productTaxonomies.productId }).from(productTaxonomies);
    expect(linked).toHaveLength(result.products);
    // Written through the catalogue's own creation: a partner listening hears of every new product, as of any other.
    const messages = await database.db.select({ payload: webhookMessages.payload }).from(webhookMessages).where(eq(webhookMessages.eventType, "product.changed"));
    expect(messages.map((m) => (m.payload.data as { changeType: string }).changeType)).toEqual(Array(result.products).fill("NEW"));
  });

  it("makes a good share of the demo products bookable, with varied setups that sell dates", async () => {
    const now = new Date("2026-11-22T09:00:00Z");
    // Runs after the test above seeded the demo catalogue.
    const setups = await database.db.select().from(bookingSetups);
    const total = (await database.db.select({ id: products.id }).from(products)).length;
    expect(setups.length).toBeGreaterThan(total / 2);
    // The catalogue shows what booking sells, written in the seed's transaction: nothing is left to tell it.
    const bookable = await database.db.select({ id: products.id }).from(products).where(eq(products.bookingFlow, true));
    expect(bookable.map((p) => p.id).sort()).toEqual(setups.map((s) => s.productId).sort());
    expect(await database.db.select().from(bookingFlowAnnouncements)).toEqual([]);
    const parsed = setups.map((row) => ({ productId: row.productId, setup: bookingSetupSchema.parse(row.setup) }));
    expect(new Set(parsed.map((p) => p.setup.units[0].unitPriceType))).toEqual(new Set(["PER_PERSON", "GROUP"]));
    expect(parsed.some((p) => p.setup.fixedFee > 0)).toBe(true);
    expect(parsed.some((p) => p.setup.options.some((o) => o.shownWhen))).toBe(true);
    expect(parsed.some((p) => !p.setup.startTimes)).toBe(true);
    expect(parsed.some((p) => (p.setup.startTimes?.length ?? 0) > 1)).toBe(true);
    expect(new Set(parsed.map((p) => p.setup.timeZone)).size).toBeGreaterThan(10);
    for (const { productId, setup } of parsed.slice(0, 20)) {
      // The engine reads the product's id and periods; the seed's own row gives both without a running graph.
      const [row] = await database.db.select().from(products).where(eq(products.id, productId));
      const facts = { id: row.id, availabilityPeriods: row.availabilityPeriods } as ProductFacts;
      const dates = await inventoryEngine.availableDates(database.db, facts, setup, "2026-12-01", "2026-12-14", now);
      expect(dates.length, `product ${productId}`).toBeGreaterThanOrEqual(10);
    }
  });

  it("does nothing on the next start", async () => {
    const before = await database.db.select({ id: products.id }).from(products);
    expect(await seedDemoCatalogue(database, new Date())).toEqual({ suppliers: 0, products: 0 });
    expect(await database.db.select({ id: products.id }).from(products)).toHaveLength(before.length);
    const live = await database.db.select().from(suppliers).where(isNull(suppliers.deletedAt));
    expect(live.every((s) => s.externalId.startsWith("DEMO-"))).toBe(true);
  });
});

// The command runs on an embedded database of its own whatever DATABASE_URL says, so the
// PostgreSQL run of the suite would repeat it unchanged; it runs with the embedded run only.
if (!process.env.DATABASE_URL) describe("npm run seed -- --products N", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "activities-generate-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const root = path.resolve(import.meta.dirname, "../..");
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, ["--import", "tsx", "seed/generate.ts", ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir },
    });

  it("adds exactly N valid products under new suppliers of the benchmark engine", async () => {
    const { stdout } = await run(["--products", "1200", "--suppliers", "3", "--engine", "SEED_TEST_ENGINE"]);
    expect(stdout).toMatch(/Done: 1200 products under 3 suppliers of SEED_TEST_ENGINE/);
    const database = await openDatabase({ dataDir });
    try {
      const [engine] = await database.db.select().from(bookingEngines).where(eq(bookingEngines.name, "SEED_TEST_ENGINE"));
      const generated = await database.db.select({ id: products.id, supplierId: products.supplierId }).from(products).where(eq(products.bookingEngineId, engine.id));
      expect(generated).toHaveLength(1200);
      expect(new Set(generated.map((p) => p.supplierId)).size).toBe(3);
      const news = await database.db.select({ id: productChanges.id }).from(productChanges).where(and(eq(productChanges.changeType, "NEW")));
      expect(news).toHaveLength(1200);
      // The planner's statistics were refreshed by the seed (a new table reads -1 or 0 until ANALYZE).
      const [stats] = await rows<{ reltuples: number }>(database.db, sql`select reltuples::float8 as reltuples from pg_class where relname = 'products'`);
      expect(stats.reltuples).toBeGreaterThanOrEqual(1200);
    } finally {
      await database.close();
    }
  }, 60_000);

  it("refuses a missing or bad count", async () => {
    await expect(run(["--products", "many"])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("--products must be a whole number") });
  });
});
