import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { gatewayOperationCounts } from "../../gateway/operation-cache.js";
import { contentPartner, productRequest, supplierRequest } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

/** The same supplier and product operations through the federated graph. */
describe("catalogue management through GraphQL", () => {
  const t = useStack();
  let partner: Partner;
  const gql = (query: string, variables: Record<string, unknown> = {}, token = partner.token) => graphql(`${t.stack.url}/graphql`, token, query, variables);

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
  });

  it("creates, reads, lists, updates and deletes a supplier", async () => {
    const { supplierContact, ...input } = supplierRequest();
    const created = await gql(
      `mutation ($input: SupplierInput!) { createSupplier(input: $input) { id externalId country onlineBookable bookingEngine { legacyResourceId name } geoLocation { geoHash } supplierContact { email } } }`,
      { input: { ...input, supplierContact } },
    );
    expect(created.body.errors).toBeUndefined();
    const supplier = created.body.data!.createSupplier;
    expect(supplier).toMatchObject({ externalId: input.externalId, country: "CH", onlineBookable: false, bookingEngine: { legacyResourceId: partner.engineId, name: partner.engineName }, supplierContact: { email: supplierContact.email } });
    expect(supplier.geoLocation.geoHash).toHaveLength(9);

    const read = await gql(`query ($id: Int!) { supplier(id: $id) { id name } }`, { id: supplier.id });
    expect(read.body.data!.supplier).toEqual({ id: supplier.id, name: input.name });

    const list = await gql(`query ($name: String!) { suppliers(bookingEngineName: $name) { pageNumber resultsPerPage totalResults items { id } } }`, { name: partner.engineName });
    expect(list.body.data!.suppliers).toMatchObject({ pageNumber: 1, resultsPerPage: 100 });
    expect(list.body.data!.suppliers.items.map((s: { id: number }) => s.id)).toContain(supplier.id);

    const updated = await gql(`mutation ($id: Int!, $input: SupplierInput!) { updateSupplier(id: $id, input: $input) { name country } }`, {
      id: supplier.id,
      input: { externalId: input.externalId, country: "AT", name: "Tirol Guides" },
    });
    expect(updated.body.data!.updateSupplier).toEqual({ name: "Tirol Guides", country: "AT" });

    const deleted = await gql(`mutation ($id: Int!) { deleteSupplier(id: $id) { id deletedProducts } }`, { id: supplier.id });
    expect(deleted.body.data!.deleteSupplier).toEqual({ id: supplier.id, deletedProducts: 0 });
    const gone = await gql(`query ($id: Int!) { supplier(id: $id) { id } }`, { id: supplier.id });
    expect(gone.body.errors?.[0].extensions?.code).toBe("NOT_FOUND");
  });

  it("reports refusals with extensions.code, the reason and the field problems", async () => {
    const invalid = await gql(`mutation ($input: SupplierInput!) { createSupplier(input: $input) { id } }`, { input: supplierRequest({ country: "XX", name: "x".repeat(300) }) });
    expect(invalid.body.errors?.[0].extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      problems: expect.arrayContaining([expect.objectContaining({ field: "country", rule: "iso3166" }), expect.objectContaining({ field: "name", rule: "maxLength" })]),
    });
    const platformToken = await t.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
    const missing = await gql(`mutation ($input: SupplierInput!) { createSupplier(input: $input) { id } }`, { input: supplierRequest() }, platformToken);
    expect(missing.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "MISSING_BOOKING_ENGINE" });
    const consumer = await gql(`{ suppliers(bookingEngineName: "X") { totalResults } }`, {}, await t.stack.tokenFor("CONSUMER"));
    expect(consumer.body.errors?.[0].extensions?.code).toBe("FORBIDDEN");
  });

  it("creates, moves, filters, updates, deprecates and deletes products, in the caller's language", async () => {
    const supplierA = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const supplierB = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const { categories, ...rest } = productRequest();
    const input = { ...rest, categories };
    const create = `mutation ($supplierId: Int!, $input: ProductInput!) {
      createProduct(supplierId: $supplierId, input: $input) { moved product { id supplierId title { text language translations } onlineBookable bookingEngine { name } country { code name { text } } categories { level code } supplier { id } } } }`;
    const first = await gql(create, { supplierId: supplierA, input });
    expect(first.body.errors).toBeUndefined();
    const product = first.body.data!.createProduct;
    expect(product).toMatchObject({
      moved: false,
      product: {
        supplierId: supplierA,
        title: { text: "Matterhorn glacier hike", language: "en", translations: rest.title },
        onlineBookable: { en: true, de: false },
        bookingEngine: { name: partner.engineName },
        country: { code: "CH", name: { text: "Switzerland" } },
        categories: [{ level: 1, code: "outdoor" }, { level: 2, code: "hiking" }],
        supplier: { id: supplierA },
      },
    });

    const moved = await gql(create, { supplierId: supplierB, input });
    expect(moved.body.data!.createProduct).toMatchObject({ moved: true, product: { id: product.product.id, supplierId: supplierB } });

    const german = await fetch(`${t.stack.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${partner.token}`, "accept-language": "fr-CH, de;q=0.9, en;q=0.5" },
      body: JSON.stringify({ query: `query ($id: Int!) { supplierProducts(supplierId: $id) { title { text language } country { name { text } } } }`, variables: { id: supplierB } }),
    });
    expect(((await german.json()) as { data: { supplierProducts: unknown[] } }).data.supplierProducts[0]).toEqual({ title: { text: "Matterhorn Gletscherwanderung", language: "de" }, country: { name: { text: "Suisse" } } });

    const filtered = await gql(`query ($id: Int!) { a: supplierProducts(supplierId: $id, filter: { countryCode: "CH", rating: 4.5 }) { id } b: supplierProducts(supplierId: $id, filter: { cityName: "Geneva" }) { id } }`, { id: supplierB });
    expect(filtered.body.data).toEqual({ a: [{ id: product.product.id }], b: [] });

    const updated = await gql(`mutation ($s: Int!, $p: Int!, $input: ProductInput!) { updateProduct(supplierId: $s, productId: $p, input: $input) { rating updateDate } }`, {
      s: supplierB,
      p: product.product.id,
      input: { externalId: input.externalId, title: { en: "Glacier" }, rating: 3.5 },
    });
    expect(updated.body.data!.updateProduct.rating).toBe(3.5);

    const deprecated = await gql(`mutation ($s: Int!, $p: Int!) { deprecateProduct(supplierId: $s, productId: $p) { deprecated onlineBookable } }`, { s: supplierB, p: product.product.id });
    expect(deprecated.body.data!.deprecateProduct).toEqual({ deprecated: true, onlineBookable: { en: false } });
    const undeprecated = await gql(`mutation ($s: Int!, $p: Int!) { undeprecateProduct(supplierId: $s, productId: $p) { deprecated } }`, { s: supplierB, p: product.product.id });
    expect(undeprecated.body.data!.undeprecateProduct.deprecated).toBe(false);

    const viaSupplier = await gql(`query ($id: Int!) { supplier(id: $id) { onlineBookable products { id } } }`, { id: supplierB });
    // The update dropped the booking URL, and no booking setup sells it: nothing of the supplier is bookable online.
    expect(viaSupplier.body.data!.supplier).toEqual({ onlineBookable: false, products: [{ id: product.product.id }] });

    const deleted = await gql(`mutation ($s: Int!, $p: Int!) { deleteProduct(supplierId: $s, productId: $p) { id } }`, { s: supplierB, p: product.product.id });
    expect(deleted.body.data!.deleteProduct).toEqual({ id: product.product.id });
    const empty = await gql(`query ($id: Int!) { supplierProducts(supplierId: $id) { id } }`, { id: supplierB });
    expect(empty.body.data!.supplierProducts).toEqual([]);
  });

  it("refuses an invalid product with the field problems, and a duplicate externalId with its reason", async () => {
    const supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const mutation = `mutation ($s: Int!, $input: ProductInput!) { createProduct(supplierId: $s, input: $input) { product { id } } }`;
    const invalid = await gql(mutation, { s: supplierId, input: { externalId: "G-1", title: { english: "x" }, rating: 8, priceLevel: 0 } });
    expect(invalid.body.errors?.[0].extensions?.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "title.english", rule: "iso639-1" }),
        expect.objectContaining({ field: "rating", rule: "maximum" }),
        expect.objectContaining({ field: "priceLevel", rule: "minimum" }),
      ]),
    );
    const input = { externalId: "G-2", title: { en: "Tour" } };
    expect((await gql(mutation, { s: supplierId, input })).body.errors).toBeUndefined();
    const duplicate = await gql(mutation, { s: supplierId, input });
    expect(duplicate.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "PRODUCT_EXTERNAL_ID_EXISTS" });
  });

  it("resolves Product and Supplier as federated entities", async () => {
    const supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const productId = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest())).body.id;
    // As the gateway calls it: the subgraph's own server in process, with the caller's token.
    const catalogue = t.stack.service.edge!.subgraphs.catalogue!;
    const response = await catalogue.server.executeOperation(
      {
        query: `query ($r: [_Any!]!) { _entities(representations: $r) { ... on Product { id externalId } ... on Supplier { id country } } }`,
        variables: { r: [{ __typename: "Product", id: productId }, { __typename: "Supplier", id: supplierId }] },
      },
      { contextValue: await catalogue.createContext({ authorization: `Bearer ${partner.token}` }) },
    );
    const result = response.body.kind === "single" ? response.body.singleResult : undefined;
    expect(result?.data?._entities).toEqual([{ id: productId, externalId: expect.any(String) }, { id: supplierId, country: "CH" }]);
  });

  /**
   * The gateway's per-request `Operation` (what it shapes the answer by) is built once per parsed
   * operation and reused (gateway/operation-cache.ts): the answer must still follow each request's
   * own variables.
   */
  describe("the gateway's reused operation", () => {
    let supplierId: number;
    beforeAll(async () => {
      supplierId = (await gql(`mutation ($input: SupplierInput!) { createSupplier(input: $input) { id } }`, { input: supplierRequest() })).body.data!.createSupplier.id;
    });
    /** A text no other test sends, so its first request is a miss in any process. */
    const operation = () => `# ${randomUUID()}
      query ($id: Int!, $withEngine: Boolean!, $skipName: Boolean! = false) {
        supplier(id: $id) { id ...Names engine: bookingEngine @include(if: $withEngine) { name } }
      }
      fragment Names on Supplier { name @skip(if: $skipName) country }`;

    it("is built on the first request of a text and reused after, each answer shaped by its own variables", async () => {
      const text = operation();
      const before = gatewayOperationCounts();
      const full = await gql(text, { id: supplierId, withEngine: true });
      const afterFirst = gatewayOperationCounts();
      const narrow = await gql(text, { id: supplierId, withEngine: false, skipName: true });
      const afterSecond = gatewayOperationCounts();

      expect(full.body.errors).toBeUndefined();
      expect(full.body.data!.supplier).toEqual({ id: supplierId, name: expect.any(String), country: "CH", engine: { name: partner.engineName } });
      expect(narrow.body.errors).toBeUndefined();
      expect(narrow.body.data!.supplier).toEqual({ id: supplierId, country: "CH" });

      expect(afterFirst.built - before.built).toBe(1);
      expect(afterSecond.built - afterFirst.built).toBe(0);
      expect(afterSecond.reused - afterFirst.reused).toBe(1);
    });

    it("is built anew for another text of the same shape", async () => {
      await gql(operation(), { id: supplierId, withEngine: false });
      const before = gatewayOperationCounts();
      const other = await gql(operation(), { id: supplierId, withEngine: true });
      expect(other.body.data!.supplier.engine).toEqual({ name: partner.engineName });
      expect(gatewayOperationCounts().built - before.built).toBe(1);
    });
  });
});
