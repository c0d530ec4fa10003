import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../drizzle/database.js";
import { products, productTaxonomies } from "../../drizzle/schema.js";
import { contentPartner, productRequest, restClient, signIn, supplierRequest, type RestClient } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

/**
 * Search reads a product's taxonomy nodes and English sort key from the product's own row
 * (migration 0015), so that an index holds them; the links in product_taxonomies stay the truth.
 * These prove the copies cannot drift from it, whoever writes the links.
 */
describe("search's own columns of a product", () => {
  const t = useStack();
  let partner: Awaited<ReturnType<typeof contentPartner>>;
  let consumer: RestClient;
  let supplierId: number;

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const account = await t.stack.createAccount("CONSUMER", { country: "FR" });
    consumer = restClient(t.stack, await signIn(t.stack, account.username, account.password));
  });

  const linked = async (productId: number) =>
    (await t.database.db.select({ node: productTaxonomies.nodeUuid }).from(productTaxonomies).where(eq(productTaxonomies.productId, productId))).map((row) => row.node).sort();
  const copied = async (productId: number) => ((await t.database.db.select({ nodes: products.taxonomyUuids }).from(products).where(eq(products.id, productId)))[0].nodes ?? []).slice().sort();
  const found = async (slug: string) =>
    (await consumer.get(`/api/consumer/products?Search=${encodeURIComponent(`taxonomy:${slug} AND bookingEngine:${partner.engineName}`)}`)).body.items.map((item: { id: number }) => item.id);

  it("keeps a product's taxonomy nodes equal to its links through creation, replacement and a direct delete", async () => {
    const museums = [{ level: 1, code: "tickets-attractions" }, { level: 2, code: "museums" }];
    const created = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ countryCode: "FR", categories: museums }))).body;
    expect(await linked(created.id)).toHaveLength(2);
    expect(await copied(created.id)).toEqual(await linked(created.id));
    expect(await found("activities-tickets-and-attractions-museums")).toEqual([created.id]);

    const walks = [{ level: 1, code: "tours" }, { level: 2, code: "walking-tours" }];
    const replaced = await partner.rest.put(`/api/supplier/${supplierId}/product/${created.id}`, { externalId: created.externalId, title: { en: "Old town walk" }, countryCode: "FR", categories: walks });
    expect(replaced.status).toBe(200);
    expect(await copied(created.id)).toEqual(await linked(created.id));
    expect(await found("activities-tickets-and-attractions-museums")).toEqual([]);
    expect(await found("activities-tours-walking-tours")).toEqual([created.id]);

    // Links removed by hand (a fix run in psql) are followed too: the triggers, not the services, keep the copy.
    await t.database.db.delete(productTaxonomies).where(eq(productTaxonomies.productId, created.id));
    expect(await copied(created.id)).toEqual([]);
    expect(await found("activities-tours-walking-tours")).toEqual([]);
  });

  it("sorts English titles by the stored key exactly as by the title itself", async () => {
    const titles = [{ en: "Zoo by night" }, { fr: "Abbaye du Mont" }, { en: "ballooning at dawn", de: "Ballonfahrt" }];
    const ids: number[] = [];
    for (const title of titles) ids.push((await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ countryCode: "FR", title }))).body.id);
    const keys = await rows<{ stored: string; computed: string }>(
      t.database.db,
      sql`select title_sort_en as stored, lower(coalesce(title->>'en', title->>'en', title_text)) as computed from products where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
    );
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key.stored).toBe(key.computed);
    const page = await consumer.get(`/api/consumer/products?Search=${encodeURIComponent(`bookingEngine:${partner.engineName} AND countryCode:FR`)}&resultsPerPage=50`);
    const order = page.body.items.map((item: { id: number }) => item.id).filter((id: number) => ids.includes(id));
    // "abbaye…" (no English title: all titles), "ballooning…", "zoo…".
    expect(order).toEqual([ids[1], ids[2], ids[0]]);
  });
});
