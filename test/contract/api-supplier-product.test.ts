import { and, asc, eq, inArray } from "drizzle-orm";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { productChanges, products } from "../../drizzle/schema.js";
import { contentPartner, productRequest, restClient, supplierRequest, type RestClient } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

describe("product management (spec 1, REST paths 7 and 8, and the product extensions)", () => {
  const t = useStack();
  let partner: Partner;
  let otherPartner: Partner;
  let consumer: RestClient;
  let supplierId: number;

  const changesOf = async (productId: number) =>
    (await t.database.db.select().from(productChanges).where(eq(productChanges.productId, productId)).orderBy(asc(productChanges.id))).map((c) => c.changeType);
  const newSupplier = async (who: Partner = partner) => (await who.rest.post("/api/supplier", supplierRequest())).body.id as number;

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    otherPartner = await contentPartner(t.stack);
    consumer = restClient(t.stack, await t.stack.tokenFor("CONSUMER"));
    supplierId = await newSupplier();
  });

  describe("POST /api/supplier/{supplierId}/product", () => {
    it("creates the product: 201 with every supplied field, id, creationDate, country object and onlineBookable per language", async () => {
      const request = productRequest();
      const response = await partner.rest.post(`/api/supplier/${supplierId}/product`, { ...request, id: 2_000_000_042, onlineBookable: true });
      expect(response.status).toBe(201);
      expect(response.headers.get("x-product-moved")).toBe("false");
      const { galleryImage, countryCode, ...supplied } = request;
      expect(response.body).toMatchObject({ ...supplied, galleryImages: galleryImage, bookingEngine: partner.engineName });
      // An id the sequence is far from: the server's own, never the caller's.
      expect(response.body.id).not.toBe(2_000_000_042);
      expect(response.body.countryCode).toBeUndefined();
      expect(response.body.country).toEqual({ code: countryCode, name: expect.objectContaining({ en: "Switzerland", de: "Schweiz" }) });
      // Bookable online in English at its booking URL; in German only once the booking flow can sell it.
      expect(response.body.onlineBookable).toEqual({ en: true, de: false });
      expect(response.body.geoLocation).toEqual({ latitude: 45.9763, longitude: 7.6586, geoHash: "u0jmw38z6" });
      expect(response.body.creationDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(await changesOf(response.body.id)).toEqual(["NEW"]);
      // The supplier becomes online bookable with its first bookable product.
      expect((await partner.rest.get(`/api/supplier/${supplierId}`)).body.onlineBookable).toBe(true);
    });

    it("needs only externalId and title", async () => {
      const response = await partner.rest.post(`/api/supplier/${supplierId}/product`, { externalId: "MIN-1", title: { fr: "Visite" } });
      expect(response.status).toBe(201);
      expect(Object.keys(response.body).sort()).toEqual(["bookingEngine", "creationDate", "deprecated", "externalId", "id", "onlineBookable", "supplierId", "title", "updateDate"]);
    });

    it("refuses the same externalId under the same supplier: 400 PRODUCT_EXTERNAL_ID_EXISTS", async () => {
      const request = productRequest();
      expect((await partner.rest.post(`/api/supplier/${supplierId}/product`, request)).status).toBe(201);
      const again = await partner.rest.post(`/api/supplier/${supplierId}/product`, request);
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ code: "PRODUCT_EXTERNAL_ID_EXISTS", details: [{ field: "externalId", rule: "unique" }] });
    });

    it("moves a product whose externalId is held under another supplier of the engine", async () => {
      const fromSupplier = await newSupplier();
      const toSupplier = await newSupplier();
      const request = productRequest();
      const original = (await partner.rest.post(`/api/supplier/${fromSupplier}/product`, request)).body;
      const pushed = await partner.rest.post(`/api/supplier/${toSupplier}/product`, { ...request, title: { en: "Moved hike" } });
      expect(pushed.status).toBe(201);
      expect(pushed.headers.get("x-product-moved")).toBe("true");
      expect(pushed.body).toMatchObject({ id: original.id, supplierId: toSupplier, title: { en: "Moved hike" }, creationDate: original.creationDate });
      expect((await partner.rest.get(`/api/supplier/${fromSupplier}/products/`)).body).toEqual([]);
      expect((await partner.rest.get(`/api/supplier/${toSupplier}/products/`)).body.map((p: { id: number }) => p.id)).toEqual([original.id]);
      expect(await changesOf(original.id)).toEqual(["NEW", "UPDATED"]);
    });

    it("keeps products of other booking engines apart: the same externalId there is another product", async () => {
      const request = productRequest();
      const mine = (await partner.rest.post(`/api/supplier/${supplierId}/product`, request)).body;
      const theirs = await otherPartner.rest.post(`/api/supplier/${await newSupplier(otherPartner)}/product`, request);
      expect(theirs.status).toBe(201);
      expect(theirs.body.id).not.toBe(mine.id);
    });

    it("serialises concurrent pushes of one externalId: one product, never two", async () => {
      const request = productRequest();
      const [a, b] = await Promise.all([
        partner.rest.post(`/api/supplier/${supplierId}/product`, request),
        partner.rest.post(`/api/supplier/${supplierId}/product`, request),
      ]);
      expect([a.status, b.status].sort()).toEqual([201, 400]);
      const rows = await t.database.db.select().from(products).where(and(eq(products.externalId, request.externalId), eq(products.scopeEngineId, partner.engineId)));
      expect(rows).toHaveLength(1);
    });

    it("answers 400 for an unsupported currency or an invalid ISO 4217 code", async () => {
      for (const [currency, rule] of [["XAU", "supportedCurrency"], ["EURO", "iso4217"], ["ABC", "iso4217"]]) {
        const response = await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ priceCurrency: currency }));
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: "UNSUPPORTED_CURRENCY", details: [{ field: "priceCurrency", rule }] });
      }
    });

    it("answers 400 for a non-numeric supplier id, 404 for an unknown or foreign supplier, 403 and 401", async () => {
      expect((await partner.rest.post("/api/supplier/abc/product", productRequest())).status).toBe(400);
      expect((await partner.rest.post("/api/supplier/987654321/product", productRequest())).status).toBe(404);
      const foreign = await partner.rest.post(`/api/supplier/${await newSupplier(otherPartner)}/product`, productRequest());
      expect(foreign.status).toBe(404);
      expect((await consumer.post(`/api/supplier/${supplierId}/product`, productRequest())).status).toBe(403);
      const anonymous = await fetch(`${t.stack.url}/api/supplier/${supplierId}/product`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
      expect(anonymous.status).toBe(401);
    });

    it("judges a body the rules refuse after what the path names, as the mutation does: 403, then 404, then 400 naming every field, changing nothing", async () => {
      const invalid = productRequest({ rating: 9, availabilityType: "SOMETIMES", priceCurrency: "EURO", cancellationCutOffUnit: "week" });
      const fields = ["rating", "availabilityType", "priceCurrency", "cancellationCutOffUnit"];
      expect((await consumer.post(`/api/supplier/${supplierId}/product`, invalid)).status).toBe(403);
      expect(await partner.rest.post("/api/supplier/987654321/product", invalid)).toMatchObject({ status: 404, body: { code: "NOT_FOUND", message: "Supplier 987654321 not found" } });
      expect((await partner.rest.post(`/api/supplier/${await newSupplier(otherPartner)}/product`, invalid)).status).toBe(404);
      const refused = await partner.rest.post(`/api/supplier/${supplierId}/product`, invalid);
      expect(refused).toMatchObject({ status: 400, body: { code: "VALIDATION_FAILED" } });
      expect(refused.body.details.map((d: { field: string }) => d.field)).toEqual(fields);
      expect(refused.body.message).toBe(refused.body.details.map((d: { field: string; message: string }) => `${d.field}: ${d.message}`).join("; "));
      expect(await t.database.db.select().from(products).where(eq(products.externalId, invalid.externalId))).toEqual([]);

      const own = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest())).body;
      const update = { ...invalid, externalId: own.externalId };
      expect(await partner.rest.put(`/api/supplier/${await newSupplier()}/product/${own.id}`, update)).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
      expect((await partner.rest.put(`/api/supplier/${supplierId}/product/987654321`, update)).status).toBe(404);
      expect((await otherPartner.rest.put(`/api/supplier/${supplierId}/product/${own.id}`, update)).status).toBe(404);
      const refusedUpdate = await partner.rest.put(`/api/supplier/${supplierId}/product/${own.id}`, update);
      expect(refusedUpdate).toMatchObject({ status: 400, body: { code: "VALIDATION_FAILED" } });
      expect(refusedUpdate.body.details.map((d: { field: string }) => d.field)).toEqual(fields);
      expect(await changesOf(own.id)).toEqual(["NEW"]);
      // A currency that is no code, alone, is the currency's own refusal, as before.
      expect((await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ priceCurrency: "EURO" }))).body).toMatchObject({ code: "UNSUPPORTED_CURRENCY", details: [{ field: "priceCurrency", rule: "iso4217" }] });
    });

    it("keeps a JSON number's amount to 10 places after the point, and the commission and cut-off unit in spec 1's words", async () => {
      const response = await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ minPrice: 0.1 + 0.2, maxPrice: 1234567.891, averagePrice: 0.0000001, estCommNet: 12.345, estCommFrpricePerc: 0.15, cancellationCutOffUnit: "minute" }));
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ minPrice: 0.3, maxPrice: 1234567.891, averagePrice: 0.0000001, estCommNet: 12.345, estCommFrpricePerc: 0.15, cancellationCutOffUnit: "minute" });
    });

    it("lets a platform caller push into any engine's supplier", async () => {
      const platform = restClient(t.stack, await t.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT"));
      const response = await platform.post(`/api/supplier/${supplierId}/product`, productRequest());
      expect(response.status).toBe(201);
      expect(response.body.supplierId).toBe(supplierId);
    });
  });

  describe("GET /api/supplier/{supplierId}/products/", () => {
    let listSupplier: number;
    let ids: Record<string, number>;
    beforeAll(async () => {
      listSupplier = await newSupplier();
      const push = async (key: string, overrides: Record<string, unknown>) =>
        [key, (await partner.rest.post(`/api/supplier/${listSupplier}/product`, productRequest(overrides))).body.id as number] as const;
      ids = Object.fromEntries([
        await push("zermatt", { countryCode: "CH", cityName: "Zermatt", zipCode: "3920", rating: 4.8, numberOfRatings: 500 }),
        await push("geneva", { countryCode: "CH", cityName: "Geneva", zipCode: "1201", rating: 3.9, numberOfRatings: 40 }),
        await push("chamonix", { countryCode: "FR", cityName: "Chamonix", zipCode: "74400", rating: 4.5, numberOfRatings: 120 }),
      ]);
    });
    const list = (query = "") => partner.rest.get(`/api/supplier/${listSupplier}/products/${query}`);

    it("returns a JSON array of products in the returned shape", async () => {
      const response = await list();
      expect(response.status).toBe(200);
      expect(response.body.map((p: { id: number }) => p.id)).toEqual([ids.zermatt, ids.geneva, ids.chamonix]);
      expect(response.body[0]).toMatchObject({
        creationDate: expect.any(String),
        thumbnailImage: "https://img.example/matterhorn-thumb.jpg",
        country: { code: "CH", name: expect.any(Object) },
        onlineBookable: { en: true, de: false },
        rating: 4.8,
        numberOfRatings: 500,
      });
      const noSlash = await partner.rest.get(`/api/supplier/${listSupplier}/products`);
      expect(noSlash.body).toEqual(response.body);
    });

    it.each([
      ["?countryCode=FR", ["chamonix"]],
      ["?zipCode=1201", ["geneva"]],
      ["?cityName=zermatt", ["zermatt"]],
      ["?rating=4.5", ["zermatt", "chamonix"]],
      ["?numberOfRatings=100", ["zermatt", "chamonix"]],
      ["?countryCode=CH&rating=4", ["zermatt"]],
      ["?countryCode=DE", []],
    ])("filters %s", async (query, expected) => {
      const response = await list(query);
      expect(response.status).toBe(200);
      expect(response.body.map((p: { id: number }) => p.id)).toEqual(expected.map((key) => ids[key]));
    });

    it.each([
      ["?rating=6", "rating"],
      ["?rating=abc", "rating"],
      ["?countryCode=XX", "countryCode"],
      ["?numberOfRatings=-1", "numberOfRatings"],
      [`?zipCode=${"9".repeat(21)}`, "zipCode"],
      ["?colour=red", "colour"],
    ])("answers 400 for %s naming the filter", async (query, field) => {
      const response = await list(query);
      expect(response.status).toBe(400);
      expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it("answers 404 for an unknown, foreign or deleted supplier, 400 for a non-numeric id, 403 for a consumer", async () => {
      expect((await partner.rest.get("/api/supplier/987654321/products/")).status).toBe(404);
      expect((await partner.rest.get(`/api/supplier/${await newSupplier(otherPartner)}/products/`)).status).toBe(404);
      const doomed = await newSupplier();
      await partner.rest.delete(`/api/supplier/${doomed}`);
      expect((await partner.rest.get(`/api/supplier/${doomed}/products/`)).status).toBe(404);
      expect((await partner.rest.get("/api/supplier/x1/products/")).status).toBe(400);
      expect((await consumer.get(`/api/supplier/${listSupplier}/products/`)).status).toBe(403);
    });
  });

  describe("update, delete, deprecate (extensions)", () => {
    it("PUT replaces the product, moves updateDate and logs UPDATED", async () => {
      const created = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest())).body;
      const response = await partner.rest.put(`/api/supplier/${supplierId}/product/${created.id}`, { externalId: created.externalId, title: { it: "Escursione" }, rating: 2 });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: created.id, title: { it: "Escursione" }, rating: 2, creationDate: created.creationDate });
      expect(response.body.description).toBeUndefined();
      expect(new Date(response.body.updateDate) > new Date(created.updateDate)).toBe(true);
      expect(await changesOf(created.id)).toEqual(["NEW", "UPDATED"]);
    });

    it("PUT refuses another product's externalId and a product of another supplier", async () => {
      const a = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest())).body;
      const b = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest())).body;
      const clash = await partner.rest.put(`/api/supplier/${supplierId}/product/${b.id}`, { externalId: a.externalId, title: { en: "x" } });
      expect(clash.status).toBe(400);
      expect(clash.body.code).toBe("PRODUCT_EXTERNAL_ID_EXISTS");
      const elsewhere = await newSupplier();
      expect((await partner.rest.put(`/api/supplier/${elsewhere}/product/${b.id}`, { externalId: "y", title: { en: "y" } })).status).toBe(404);
      expect(await changesOf(b.id)).toEqual(["NEW"]);
    });

    it("DELETE takes the product out of the catalogue and logs DELETED; the externalId can come back as a new product", async () => {
      const request = productRequest();
      const created = (await partner.rest.post(`/api/supplier/${supplierId}/product`, request)).body;
      const response = await partner.rest.delete(`/api/supplier/${supplierId}/product/${created.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ id: created.id, deleted: true });
      expect((await partner.rest.delete(`/api/supplier/${supplierId}/product/${created.id}`)).status).toBe(404);
      expect(await changesOf(created.id)).toEqual(["NEW", "DELETED"]);
      const again = await partner.rest.post(`/api/supplier/${supplierId}/product`, request);
      expect(again.status).toBe(201);
      expect(again.body.id).not.toBe(created.id);
    });

    it("deprecates and undeprecates, logging each change once", async () => {
      const created = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest())).body;
      const deprecated = await partner.rest.post(`/api/supplier/${supplierId}/product/${created.id}/deprecate`);
      expect(deprecated.status).toBe(200);
      expect(deprecated.body).toMatchObject({ deprecated: true, onlineBookable: { en: false, de: false } });
      await partner.rest.post(`/api/supplier/${supplierId}/product/${created.id}/deprecate`);
      const restored = await partner.rest.post(`/api/supplier/${supplierId}/product/${created.id}/undeprecate`);
      expect(restored.body.deprecated).toBe(false);
      expect(await changesOf(created.id)).toEqual(["NEW", "DEPRECATED", "UNDEPRECATED"]);
    });

    it("deleting a supplier takes its products out, each logged DELETED", async () => {
      const doomed = await newSupplier();
      const a = (await partner.rest.post(`/api/supplier/${doomed}/product`, productRequest())).body;
      const b = (await partner.rest.post(`/api/supplier/${doomed}/product`, productRequest())).body;
      const response = await partner.rest.delete(`/api/supplier/${doomed}`);
      expect(response.body.deletedProducts).toBe(2);
      expect(await changesOf(a.id)).toEqual(["NEW", "DELETED"]);
      expect(await changesOf(b.id)).toEqual(["NEW", "DELETED"]);
      const rows = await t.database.db.select().from(products).where(inArray(products.id, [a.id, b.id]));
      expect(rows.every((row) => row.deletedAt !== null)).toBe(true);
    });
  });

  describe("the change log is written atomically with the change", () => {
    it("writes no change record, and changes nothing, when the update fails in the database", async () => {
      const created = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest())).body;
      const poison = `FAIL-${created.id}`;
      const fn = `fail_product_${created.id}`;
      await t.database.db.execute(sql.raw(`create function ${fn}() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`));
      await t.database.db.execute(
        sql.raw(`create trigger ${fn} before update on products for each row when (new.external_id = '${poison}') execute function ${fn}()`),
      );
      try {
        const response = await partner.rest.put(`/api/supplier/${supplierId}/product/${created.id}`, { externalId: poison, title: { en: "Never stored" } });
        expect(response.status).toBe(500);
        expect(response.body).toMatchObject({ status: 500, code: "INTERNAL_SERVER_ERROR", message: "Internal server error" });
      } finally {
        await t.database.db.execute(sql.raw(`drop trigger ${fn} on products`));
        await t.database.db.execute(sql.raw(`drop function ${fn}()`));
      }
      expect(await changesOf(created.id)).toEqual(["NEW"]);
      const [row] = await t.database.db.select().from(products).where(eq(products.id, created.id));
      expect(row.title).toEqual(created.title);
    });
  });
});
