import { describe, expect, it } from "vitest";
import { serialKey, toGlobalId } from "../../core/global-id.js";
import { contentPartner, restClient, supplierRequest } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

/**
 * A global id is opaque to clients, but anyone can encode one: its key is the caller's input.
 * Keys of types whose rows are numbered (serial columns) that name no row (beyond PostgreSQL's
 * integer, zero, signed, with a leading zero, fractional, exponent) are ids of nothing: `null`
 * where the design says absent, NOT_FOUND in a payload, never a statement that fails.
 */
describe("global ids of numbered rows", () => {
  const t = useStack();
  const KEYS = ["2147483648", "99999999999", "0", "-1", "+1", "01", "1.5", "1e3", " 1", "0x1"];

  it("holds a key to the one spelling of a row number", () => {
    expect(KEYS.map(serialKey)).toEqual(KEYS.map(() => null));
    expect(["1", "42", "2147483647"].map(serialKey)).toEqual([1, 42, 2147483647]);
  });

  it("answers null, without an error, for an organisation, an engine or a node whose key names no row, and finds the row by its own id", async () => {
    const partner = await t.stack.createAccount("CONTENT_PARTNER", { country: "CH", bookingEngine: "GLOBAL_ID_KEYS" });
    const me = (await graphql(`${t.stack.url}/graphql`, (await t.stack.login(partner.username, partner.password)).access_token, "{ me { organisation { id name bookingEngine { id name } } } }")).body.data!.me;
    const token = await t.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
    const query = "query ($organisation: ID!, $engine: ID!) { organisation(id: $organisation) { name } bookingEngine(id: $engine) { name } a: node(id: $organisation) { id } b: node(id: $engine) { id } }";
    for (const key of KEYS) {
      const answer = await graphql(`${t.stack.url}/graphql`, token, query, { organisation: toGlobalId("Organisation", key), engine: toGlobalId("BookingEngine", key) });
      expect({ key, ...answer.body }).toMatchObject({ key, data: { organisation: null, bookingEngine: null, a: null, b: null } });
      expect(answer.body.errors, key).toBeUndefined();
    }
    const own = { organisation: me.organisation.id, engine: me.organisation.bookingEngine.id };
    const found = await graphql(`${t.stack.url}/graphql`, token, query, own);
    expect(found.body.data).toEqual({ organisation: { name: me.organisation.name }, bookingEngine: { name: "GLOBAL_ID_KEYS" }, a: { id: own.organisation }, b: { id: own.engine } });
  });

  it("refuses an import of an engine whose key names no row as NOT_FOUND data", async () => {
    const token = await t.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
    const mutation = "mutation ($input: ImportOctoEngineInput!) { importOctoEngine(input: $input) { octoImport { isSupplierCreated } userErrors { code field } } }";
    for (const key of ["2147483648", "01"]) {
      const answer = await graphql(`${t.stack.url}/graphql`, token, mutation, { input: { bookingEngineId: toGlobalId("BookingEngine", key) } });
      expect(answer.body).toEqual({ data: { importOctoEngine: { octoImport: null, userErrors: [{ code: "NOT_FOUND", field: ["input", "bookingEngineId"] }] } }, extensions: expect.anything() });
    }
  });

  it("refuses REST's numbers beyond PostgreSQL's integer with a 400 naming the field, and answers a numbered page far past the end as empty", async () => {
    const partner = await contentPartner(t.stack);
    const platform = restClient(t.stack, await t.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT"));
    const unknown = await platform.post("/api/supplier", supplierRequest({ bookingEngine: 2_147_483_648 }));
    expect(unknown).toMatchObject({ status: 400, body: { details: [{ field: "bookingEngine" }] } });
    const wrong = await partner.rest.post("/api/supplier", supplierRequest({ bookingEngine: 99_999_999_999 }));
    expect(wrong).toMatchObject({ status: 400, body: { details: [{ field: "bookingEngine" }] } });
    expect((await partner.rest.get("/api/supplier/2147483648")).status).toBe(400);
    const created = (await partner.rest.post("/api/supplier", supplierRequest())).body;
    const far = await partner.rest.get(`/api/suppliers?bookingEngineName=${partner.engineName}&pageNumber=2147483647&resultsPerPage=1000`);
    expect(far).toMatchObject({ status: 200, body: { pageNumber: 2147483647, resultsPerPage: 1000, totalResults: 1, items: [] } });
    const first = await partner.rest.get(`/api/suppliers?bookingEngineName=${partner.engineName}&pageNumber=1&resultsPerPage=1000`);
    expect(first.body.items.map((item: { id: number }) => item.id)).toEqual([created.id]);
  });
});
