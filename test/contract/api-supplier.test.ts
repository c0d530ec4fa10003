import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { accounts, suppliers } from "../../drizzle/schema.js";
import { contentPartner, restClient, signIn, supplierRequest, type RestClient } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

describe("supplier management (spec 1, REST paths 2 to 6)", () => {
  const t = useStack();
  let partner: Partner;
  let otherPartner: Partner;
  let platform: RestClient;
  let consumer: RestClient;

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    otherPartner = await contentPartner(t.stack);
    platform = restClient(t.stack, await t.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT"));
    consumer = restClient(t.stack, await t.stack.tokenFor("CONSUMER"));
  });

  describe("POST /api/supplier", () => {
    it("creates a supplier in the caller's booking engine: 201 with the supplier as returned", async () => {
      const request = supplierRequest();
      const response = await partner.rest.post("/api/supplier", request);
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.any(Number),
        externalId: request.externalId,
        name: request.name,
        channel: request.channel,
        endpoint: request.endpoint,
        logo: request.logo,
        country: "CH",
        bookingEngine: partner.engineName,
        onlineBookable: false,
        supplierContact: request.supplierContact,
        geoLocation: { latitude: 46.0207, longitude: 7.7491, geoHash: "u0jtb3fdp" },
        creationDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updateDate: expect.any(String),
      });
      expect(response.body.updateDate).toBe(response.body.creationDate);
    });

    it("leaves unset optional fields out and keeps a given geohash", async () => {
      const response = await partner.rest.post("/api/supplier", { externalId: "MINIMAL-1", country: "FR", geoLocation: { latitude: 48.85, longitude: 2.35, geoHash: "u09tvw" } });
      expect(response.status).toBe(201);
      expect(Object.keys(response.body).sort()).toEqual(["bookingEngine", "country", "creationDate", "externalId", "geoLocation", "id", "onlineBookable", "updateDate"]);
      expect(response.body.geoLocation.geoHash).toBe("u09tvw");
    });

    it("needs a booking engine from a PLATFORM_CATALOG_MANAGEMENT caller: 400 MISSING_BOOKING_ENGINE", async () => {
      const response = await platform.post("/api/supplier", supplierRequest());
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: "MISSING_BOOKING_ENGINE", details: [{ field: "bookingEngine", rule: "required" }] });
      const created = await platform.post("/api/supplier", supplierRequest({ bookingEngine: partner.engineId }));
      expect(created.status).toBe(201);
      expect(created.body.bookingEngine).toBe(partner.engineName);
      const unknown = await platform.post("/api/supplier", supplierRequest({ bookingEngine: 999_999 }));
      expect(unknown.status).toBe(400);
      expect(unknown.body.code).toBe("UNKNOWN_BOOKING_ENGINE");
    });

    it("refuses a content partner naming another booking engine", async () => {
      const response = await partner.rest.post("/api/supplier", supplierRequest({ bookingEngine: otherPartner.engineId }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("WRONG_BOOKING_ENGINE");
    });

    it("refuses an externalId already used in the booking engine, but not in another", async () => {
      const request = supplierRequest();
      expect((await partner.rest.post("/api/supplier", request)).status).toBe(201);
      const again = await partner.rest.post("/api/supplier", request);
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ code: "DUPLICATE_EXTERNAL_ID", details: [{ field: "externalId", rule: "unique" }] });
      expect((await otherPartner.rest.post("/api/supplier", request)).status).toBe(201);
    });

    it("answers 401 without a token and 403 for roles that do not manage content", async () => {
      const anonymous = await fetch(`${t.stack.url}/api/supplier`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(supplierRequest()) });
      expect(anonymous.status).toBe(401);
      const forbidden = await consumer.post("/api/supplier", supplierRequest());
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.code).toBe("FORBIDDEN");
      const operator = restClient(t.stack, await t.stack.tokenFor("OPERATOR"));
      expect((await operator.post("/api/supplier", supplierRequest())).status).toBe(403);
    });

    it("answers a body that is not JSON with 400", async () => {
      const response = await fetch(`${t.stack.url}/api/supplier`, {
        method: "POST",
        headers: { authorization: `Bearer ${partner.token}`, "content-type": "application/json" },
        body: "{not json",
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ status: 400, code: "BAD_REQUEST" });
    });
  });

  describe("GET /api/supplier/{supplierId}", () => {
    it("returns the supplier as returned by create", async () => {
      const created = (await partner.rest.post("/api/supplier", supplierRequest())).body;
      const response = await partner.rest.get(`/api/supplier/${created.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(created);
    });

    it("answers 400 for a non-numeric id and 404 for an unknown one", async () => {
      const bad = await partner.rest.get("/api/supplier/abc");
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: "VALIDATION_FAILED", details: [{ field: "supplierId", rule: "type" }] });
      const missing = await partner.rest.get("/api/supplier/987654321");
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ status: 404, code: "NOT_FOUND" });
    });

    it("hides another booking engine's supplier as unknown, while the platform sees it", async () => {
      const theirs = (await otherPartner.rest.post("/api/supplier", supplierRequest())).body;
      expect((await partner.rest.get(`/api/supplier/${theirs.id}`)).status).toBe(404);
      expect((await platform.get(`/api/supplier/${theirs.id}`)).status).toBe(200);
      expect((await consumer.get(`/api/supplier/${theirs.id}`)).status).toBe(403);
    });
  });

  describe("POST /api/supplier/{supplierId} (update)", () => {
    it("replaces the fields and moves updateDate forward", async () => {
      const created = (await partner.rest.post("/api/supplier", supplierRequest())).body;
      const response = await partner.rest.post(`/api/supplier/${created.id}`, { externalId: created.externalId, country: "IT", name: "Cervinia Guides" });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: created.id, country: "IT", name: "Cervinia Guides", creationDate: created.creationDate });
      expect(response.body.supplierContact).toBeUndefined();
      expect(new Date(response.body.updateDate).getTime()).toBeGreaterThan(new Date(created.updateDate).getTime());
      const second = await partner.rest.post(`/api/supplier/${created.id}`, { externalId: created.externalId, country: "IT" });
      expect(new Date(second.body.updateDate).getTime()).toBeGreaterThan(new Date(response.body.updateDate).getTime());
    });

    it("answers 400 for a missing booking engine (platform), 404 for an unknown supplier", async () => {
      const created = (await partner.rest.post("/api/supplier", supplierRequest())).body;
      const missing = await platform.post(`/api/supplier/${created.id}`, { externalId: created.externalId, country: "CH" });
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe("MISSING_BOOKING_ENGINE");
      const ok = await platform.post(`/api/supplier/${created.id}`, { externalId: created.externalId, country: "CH", bookingEngine: partner.engineId });
      expect(ok.status).toBe(200);
      const moveEngine = await platform.post(`/api/supplier/${created.id}`, { externalId: created.externalId, country: "CH", bookingEngine: otherPartner.engineId });
      expect(moveEngine.status).toBe(400);
      expect(moveEngine.body.code).toBe("BOOKING_ENGINE_CHANGE");
      expect((await partner.rest.post("/api/supplier/987654321", { externalId: "x", country: "CH" })).status).toBe(404);
      expect((await partner.rest.post("/api/supplier/xyz", { externalId: "x", country: "CH" })).status).toBe(400);
    });

    it("refuses an invalid update and changes nothing", async () => {
      const created = (await partner.rest.post("/api/supplier", supplierRequest())).body;
      const response = await partner.rest.post(`/api/supplier/${created.id}`, { externalId: created.externalId, country: "ZZ", name: "x".repeat(256) });
      expect(response.status).toBe(400);
      expect(response.body.details.map((d: { field: string }) => d.field).sort()).toEqual(["country", "name"]);
      expect((await partner.rest.get(`/api/supplier/${created.id}`)).body).toEqual(created);
    });
  });

  describe("DELETE /api/supplier/{supplierId}", () => {
    it("deletes for good: gone from reads, lists and updates; the externalId can be created again", async () => {
      const request = supplierRequest();
      const created = (await partner.rest.post("/api/supplier", request)).body;
      const response = await partner.rest.delete(`/api/supplier/${created.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ id: created.id, deleted: true, deletedProducts: 0 });
      expect((await partner.rest.get(`/api/supplier/${created.id}`)).status).toBe(404);
      expect((await partner.rest.delete(`/api/supplier/${created.id}`)).status).toBe(404);
      expect((await partner.rest.post(`/api/supplier/${created.id}`, request)).status).toBe(404);
      const list = await partner.rest.get(`/api/suppliers?bookingEngineName=${partner.engineName}&resultsPerPage=1000`);
      expect(list.body.items.map((s: { id: number }) => s.id)).not.toContain(created.id);
      const recreated = await partner.rest.post("/api/supplier", request);
      expect(recreated.status).toBe(201);
      expect(recreated.body.id).not.toBe(created.id);
    });

    it("answers 400 for a non-numeric id, 404 for another engine's supplier, 403 for a consumer", async () => {
      expect((await partner.rest.delete("/api/supplier/1.5")).status).toBe(400);
      const theirs = (await otherPartner.rest.post("/api/supplier", supplierRequest())).body;
      expect((await partner.rest.delete(`/api/supplier/${theirs.id}`)).status).toBe(404);
      expect((await consumer.delete(`/api/supplier/${theirs.id}`)).status).toBe(403);
      expect((await otherPartner.rest.get(`/api/supplier/${theirs.id}`)).status).toBe(200);
    });
  });

  describe("GET /api/suppliers", () => {
    it("pages the live suppliers of the engine, 100 per page from page 1 by default, with the documented subset", async () => {
      const fresh = await contentPartner(t.stack);
      const created = [];
      for (let i = 0; i < 3; i++) created.push((await fresh.rest.post("/api/supplier", supplierRequest())).body);
      const response = await fresh.rest.get(`/api/suppliers?bookingEngineName=${fresh.engineName}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ pageNumber: 1, resultsPerPage: 100, totalResults: 3 });
      expect(response.body.items.map((s: { id: number }) => s.id)).toEqual(created.map((s) => s.id));
      expect(Object.keys(response.body.items[0]).sort()).toEqual(["bookingEngine", "channel", "country", "creationDate", "externalId", "id", "name", "onlineBookable", "updateDate"]);
      const page2 = await fresh.rest.get(`/api/suppliers?bookingEngineName=${fresh.engineName}&pageNumber=2&resultsPerPage=2`);
      expect(page2.body).toMatchObject({ pageNumber: 2, resultsPerPage: 2, totalResults: 3 });
      expect(page2.body.items.map((s: { id: number }) => s.id)).toEqual([created[2].id]);
    });

    it("gives each documented 400 for its own reason", async () => {
      const readOnly = await contentPartner(t.stack, { scope: "catalogue:read" });
      const cases: [RestClient, string, string][] = [
        [readOnly.rest, `/api/suppliers?bookingEngineName=${readOnly.engineName}`, "INSUFFICIENT_SCOPE"],
        [partner.rest, `/api/suppliers?bookingEngineName=${otherPartner.engineName}`, "WRONG_BOOKING_ENGINE"],
        [platform, "/api/suppliers?bookingEngineName=NO_SUCH_ENGINE", "UNKNOWN_BOOKING_ENGINE"],
      ];
      for (const [client, path, code] of cases) {
        const response = await client.get(path);
        expect(response.status, code).toBe(400);
        expect(response.body.code).toBe(code);
      }
      // "Account does not exist": a valid token whose account is no longer in the account store
      // (removed by the operator's database administration; there is no API for it).
      const gone = await contentPartner(t.stack);
      await t.stack.service.database.db.delete(accounts).where(eq(accounts.username, gone.username));
      const missing = await gone.rest.get(`/api/suppliers?bookingEngineName=${gone.engineName}`);
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe("ACCOUNT_NOT_FOUND");
      // A disabled account's tokens stop at the gate, on this path as on every other.
      const disabledPartner = await contentPartner(t.stack);
      await t.stack.service.identity.accounts.disableAccount(disabledPartner.username);
      const disabled = await disabledPartner.rest.get(`/api/suppliers?bookingEngineName=${disabledPartner.engineName}`);
      expect(disabled.status).toBe(401);
      expect(disabled.body.message).toBe("Invalid access token: the account is disabled");
      const noEngine = await t.stack.createAccount("CONTENT_PARTNER");
      const noEngineClient = restClient(t.stack, await signIn(t.stack, noEngine.username, noEngine.password));
      const unset = await noEngineClient.get(`/api/suppliers?bookingEngineName=${partner.engineName}`);
      expect(unset.status).toBe(400);
      expect(unset.body.code).toBe("NO_BOOKING_ENGINE");
    });

    it("answers 400 for a missing engine name or a bad page, 403 for a consumer, 401 without a token", async () => {
      expect((await partner.rest.get("/api/suppliers")).body).toMatchObject({ status: 400, details: [{ field: "bookingEngineName", rule: "required" }] });
      expect((await partner.rest.get(`/api/suppliers?bookingEngineName=${partner.engineName}&pageNumber=0`)).body.details[0].field).toBe("pageNumber");
      expect((await partner.rest.get(`/api/suppliers?bookingEngineName=${partner.engineName}&resultsPerPage=-5`)).status).toBe(400);
      expect((await partner.rest.get(`/api/suppliers?bookingEngineName=${partner.engineName}&resultsPerPage=abc`)).status).toBe(400);
      expect((await consumer.get(`/api/suppliers?bookingEngineName=${partner.engineName}`)).status).toBe(403);
      expect((await fetch(`${t.stack.url}/api/suppliers?bookingEngineName=${partner.engineName}`)).status).toBe(401);
    });
  });

  it("stores nothing for a refused create", async () => {
    const request = supplierRequest({ country: "XX" });
    expect((await partner.rest.post("/api/supplier", request)).status).toBe(400);
    const rows = await t.database.db.select().from(suppliers).where(eq(suppliers.externalId, request.externalId));
    expect(rows).toEqual([]);
  });
});
