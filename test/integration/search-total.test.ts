import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { parseSearch } from "../../subgraphs/catalogue/search/search.expression.js";
import { compileSearch } from "../../subgraphs/catalogue/search/search.sql.js";
import { productSearchRepository, visibleToConsumers, type SearchPageQuery } from "../../subgraphs/catalogue/search/product-search.repository.js";
import { countedTotal } from "../../subgraphs/catalogue/search/search.totals.js";
import { products } from "../../drizzle/schema.js";
import { contentPartner, productRequest, restClient, signIn, supplierRequest } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

/**
 * The search page's total (docs/spec-decisions.md, "Search totals"): counted up to a limit and
 * estimated above it, and the preferred country's matches paged before the others. The limit is
 * 10,000 in the service; these tests lower it so that a few products cross it.
 */
describe("search totals and the preferred country's pages", () => {
  // Kept totals are counted again whenever the catalogue changes: on PostgreSQL, where both test
  // workers share a database, this file needs one of its own for "reused" to mean anything.
  const t = useStack({ ownDatabase: Boolean(process.env.DATABASE_URL) });
  let engineName: string;
  let consumerToken: string;
  let partnerRest: Awaited<ReturnType<typeof contentPartner>>["rest"];
  let supplierId: number;
  const titles = ["Zeppelin ride over the lake", "Zeppelin ride at dawn", "Zeppelin ride for two", "Zeppelin ride with lunch", "Zeppelin ride by night"];
  const countries = ["DE", "FR", "DE", null, "FR"];

  beforeAll(async () => {
    const partner = await contentPartner(t.stack);
    engineName = partner.engineName;
    partnerRest = partner.rest;
    supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    for (const [i, title] of titles.entries()) {
      const response = await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ title: { en: title }, countryCode: countries[i] ?? undefined, rating: 4 + i / 10 }));
      expect(response.status).toBe(201);
    }
    const account = await t.stack.createAccount("CONSUMER", { country: "FR" });
    consumerToken = await signIn(t.stack, account.username, account.password);
  });

  const query = (overrides: Partial<SearchPageQuery>): SearchPageQuery => ({
    where: and(visibleToConsumers, compileSearch(parseSearch(`title:zeppelin AND bookingEngine:${engineName}`), { language: "en" }))!,
    sortingField: "title",
    descending: false,
    preferredCountry: "FR",
    language: "en",
    offset: 0,
    limit: 100,
    ...overrides,
  });
  const titlesOf = (rows: { title: Record<string, string> }[]) => rows.map((row) => row.title.en);

  it("counts up to the limit and answers an estimate, flagged, above it", async () => {
    const over = await productSearchRepository.page(t.database.db, query({ limit: 2, exactTotalLimit: 3 }));
    expect(over.rows).toHaveLength(2);
    expect(over.total?.estimated).toBe(true);
    expect(over.total?.count).toBeGreaterThanOrEqual(4);

    const under = await productSearchRepository.page(t.database.db, query({ limit: 2, exactTotalLimit: 10 }));
    expect(under).toMatchObject({ total: { count: 5, estimated: false } });
  });

  it("knows the total exactly from a page that is not full, whatever the limit", async () => {
    const last = await productSearchRepository.page(t.database.db, query({ offset: 4, limit: 2, exactTotalLimit: 3 }));
    expect(titlesOf(last.rows)).toHaveLength(1);
    expect(last).toMatchObject({ total: { count: 5, estimated: false } });
    const past = await productSearchRepository.page(t.database.db, query({ offset: 6, limit: 2, exactTotalLimit: 10 }));
    expect(past).toMatchObject({ rows: [], total: { count: 5, estimated: false } });
  });

  it("pages the preferred country first, then the others (no country among them), by title", async () => {
    const whole = titlesOf((await productSearchRepository.page(t.database.db, query({}))).rows);
    expect(whole).toEqual(["Zeppelin ride at dawn", "Zeppelin ride by night", "Zeppelin ride for two", "Zeppelin ride over the lake", "Zeppelin ride with lunch"]);
    for (const size of [1, 2, 3]) {
      const paged: string[] = [];
      for (let offset = 0; offset < titles.length; offset += size) paged.push(...titlesOf((await productSearchRepository.page(t.database.db, query({ offset, limit: size }))).rows));
      expect(paged, `pages of ${size}`).toEqual(whole);
    }
    const descending = titlesOf((await productSearchRepository.page(t.database.db, query({ sortingField: "rating", descending: true }))).rows);
    expect(descending).toEqual(["Zeppelin ride by night", "Zeppelin ride at dawn", "Zeppelin ride with lunch", "Zeppelin ride for two", "Zeppelin ride over the lake"]);
  });

  it("says through REST, for search and change detection, whether the total is an estimate", async () => {
    const consumer = restClient(t.stack, consumerToken);
    const page = await consumer.get(`/api/consumer/products?Search=${encodeURIComponent(`title:zeppelin AND bookingEngine:${engineName}`)}&resultsPerPage=2`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ pageNumber: 1, resultsPerPage: 2, totalResults: 5, totalResultsEstimated: false });
    const changes = await consumer.get(`/api/consumer/diff/products?Search=${encodeURIComponent(`title:zeppelin AND bookingEngine:${engineName}`)}&resultsPerPage=2`);
    expect(changes.body).toMatchObject({ totalResults: 5, totalResultsEstimated: false });
  });
  describe("a filter's total kept while the catalogue is unchanged (search.totals.ts)", () => {
    const filter = (expression: string) => and(visibleToConsumers, compileSearch(parseSearch(expression), { language: "en" }))!;

    it("counts once, then reuses the total until a change commits, and counts again at once after it", async () => {
      const where = filter(`title:airship AND bookingEngine:${engineName}`);
      const first = await countedTotal(t.database.db, where, 1_001);
      expect(first).toMatchObject({ counted: 0, reused: false });
      expect(await countedTotal(t.database.db, where, 1_001)).toMatchObject({ counted: 0, reused: true });

      const created = await partnerRest.post(`/api/supplier/${supplierId}/product`, productRequest({ title: { en: "Airship tour" } }));
      expect(created.status).toBe(201);
      expect(await countedTotal(t.database.db, where, 1_001)).toMatchObject({ counted: 1, reused: false });
      // Through REST, right after the write's answer: no wait for any notification.
      const consumer = restClient(t.stack, consumerToken);
      const search = `/api/consumer/products?Search=${encodeURIComponent(`title:airship AND bookingEngine:${engineName}`)}&resultsPerPage=1`;
      expect((await consumer.get(search)).body).toMatchObject({ totalResults: 1, totalResultsEstimated: false });
      await partnerRest.post(`/api/supplier/${supplierId}/product`, productRequest({ title: { en: "Airship flight" } }));
      expect((await consumer.get(search)).body).toMatchObject({ totalResults: 2, totalResultsEstimated: false });
      expect((await partnerRest.delete(`/api/supplier/${supplierId}/product/${created.body.id}`)).status).toBe(200);
      expect((await consumer.get(search)).body).toMatchObject({ totalResults: 1, totalResultsEstimated: false });
      // GraphQL's searchProducts runs the same count, kept the same way.
      const graphTotal = async () =>
        (await graphql(`${t.stack.url}/graphql`, consumerToken, `query ($s: String!) { searchProducts(query: $s, first: 1) { totalCount { count precision } } }`, { s: `title:airship AND bookingEngine:${engineName}` })).body.data!.searchProducts.totalCount;
      expect(await graphTotal()).toEqual({ count: 1, precision: "EXACT" });
      await partnerRest.post(`/api/supplier/${supplierId}/product`, productRequest({ title: { en: "Airship over the Alps" } }));
      expect(await graphTotal()).toEqual({ count: 2, precision: "EXACT" });
    });

    it("counts again when a table the filter reads besides products changes (a supplier's external id)", async () => {
      const supplier = await partnerRest.post("/api/supplier", supplierRequest());
      await partnerRest.post(`/api/supplier/${supplier.body.id}/product`, productRequest({ title: { en: "Balloon ride" } }));
      const where = filter(`supplierExternalId:${supplier.body.externalId}`);
      expect(await countedTotal(t.database.db, where, 1_001)).toMatchObject({ counted: 1, reused: false });
      expect(await countedTotal(t.database.db, where, 1_001)).toMatchObject({ counted: 1, reused: true });
      const renamed = await partnerRest.post(`/api/supplier/${supplier.body.id}`, supplierRequest({ externalId: `${supplier.body.externalId}-MOVED` }));
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      expect(await countedTotal(t.database.db, where, 1_001)).toMatchObject({ counted: 0, reused: false });
    });

    it("keeps a transaction's counts to itself, and a rolled-back change leaves the kept total standing", async () => {
      const where = filter(`title:zeppelin AND bookingEngine:${engineName}`);
      const before = await countedTotal(t.database.db, where, 1_001);
      await expect(
        t.database.db.transaction(async (tx) => {
          await tx.update(products).set({ deletedAt: new Date() }).where(and(visibleToConsumers, compileSearch(parseSearch(`title:zeppelin AND bookingEngine:${engineName}`), { language: "en" })));
          expect(await countedTotal(tx, where, 1_001)).toMatchObject({ counted: 0, reused: false });
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await countedTotal(t.database.db, where, 1_001)).toMatchObject({ counted: before.counted, reused: true });
    });

    // PGlite runs one transaction at a time, so no count can run beside an uncommitted change there.
    if (process.env.DATABASE_URL) {
      it("does not keep a total counted on another connection while a change was still uncommitted", async () => {
        const created = await partnerRest.post(`/api/supplier/${supplierId}/product`, productRequest({ title: { en: "Blimp ride" } }));
        const where = filter(`title:dirigible AND bookingEngine:${engineName}`);
        expect(await countedTotal(t.database.db, where, 1_001)).toMatchObject({ counted: 0 });
        await t.database.db.transaction(async (tx) => {
          await tx.update(products).set({ title: { en: "Dirigible ride" } }).where(eq(products.id, created.body.id));
          expect(await countedTotal(t.database.db, where, 1_001)).toMatchObject({ counted: 0 });
        });
        expect(await countedTotal(t.database.db, where, 1_001)).toMatchObject({ counted: 1, reused: false });
      });
    }

    it("counts separately for another cap", async () => {
      const where = filter(`title:zeppelin AND bookingEngine:${engineName}`);
      await countedTotal(t.database.db, where, 1_001);
      expect(await countedTotal(t.database.db, where, 3)).toMatchObject({ counted: 3, reused: false });
      expect(await countedTotal(t.database.db, where, 1_001)).toMatchObject({ counted: 5, reused: true });
    });
  });
});
