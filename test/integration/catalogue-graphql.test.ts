import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { gatewayOperationCounts } from "../../gateway/operation-cache.js";
import { sql } from "drizzle-orm";
import { toGlobalId } from "../../core/global-id.js";
import { rows } from "../../drizzle/database.js";
import { contentPartner, productRequest, supplierInput, supplierRequest } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

/** The same supplier and product operations through the federated graph. */
/** A language object as the graph's translations. */
const translations = (texts: Record<string, string>) => Object.entries(texts).map(([language, text]) => ({ language, text }));
const en = (text: string) => translations({ en: text });

describe("catalogue management through GraphQL", () => {
  const t = useStack();
  let partner: Partner;
  const gql = (query: string, variables: Record<string, unknown> = {}, token = partner.token) => graphql(`${t.stack.url}/graphql`, token, query, variables);

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
  });

  const SUPPLIER = "id legacyResourceId externalId countryCode countryName isOnlineBookable createdAt updatedAt bookingEngine { id legacyResourceId name } geoLocation { geoHash } contact { email }";

  it("creates, reads, lists, updates and deletes a supplier, each mutation answering a payload", async () => {
    const input = supplierInput();
    const created = await gql(`mutation ($input: CreateSupplierInput!) { createSupplier(input: $input) { supplier { ${SUPPLIER} } userErrors { code } } }`, { input });
    expect(created.body.errors).toBeUndefined();
    const { supplier, userErrors } = created.body.data!.createSupplier;
    expect(userErrors).toEqual([]);
    expect(supplier).toMatchObject({
      id: toGlobalId("Supplier", supplier.legacyResourceId),
      externalId: input.externalId,
      countryCode: "CH",
      countryName: "Switzerland",
      isOnlineBookable: false,
      bookingEngine: { id: toGlobalId("BookingEngine", partner.engineId), legacyResourceId: partner.engineId, name: partner.engineName },
      contact: { email: input.contact.email },
    });
    expect(supplier.geoLocation.geoHash).toHaveLength(9);
    expect(supplier.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    // The same entity by its id, by node(id), and on REST by its number.
    const read = await gql(`query ($id: ID!) { supplier(id: $id) { id name } node(id: $id) { ... on Supplier { legacyResourceId } } }`, { id: supplier.id });
    expect(read.body.data).toEqual({ supplier: { id: supplier.id, name: input.name }, node: { legacyResourceId: supplier.legacyResourceId } });
    expect((await partner.rest.get(`/api/supplier/${supplier.legacyResourceId}`)).body.id).toBe(supplier.legacyResourceId);

    const list = await gql(`query ($name: String!) { suppliers(bookingEngineName: $name, first: 100) { nodes { id } totalCount { count precision } } }`, { name: partner.engineName });
    expect(list.body.data!.suppliers.nodes.map((s: { id: string }) => s.id)).toContain(supplier.id);
    expect(list.body.data!.suppliers.totalCount).toEqual({ count: list.body.data!.suppliers.nodes.length, precision: "EXACT" });

    const updated = await gql(`mutation ($input: UpdateSupplierInput!) { updateSupplier(input: $input) { supplier { name countryCode contact { email } updatedAt } userErrors { code } } }`, {
      input: { supplierId: supplier.id, externalId: input.externalId, countryCode: "AT", name: "Tirol Guides" },
    });
    // Every field is replaced: the contact not given is unset.
    expect(updated.body.data!.updateSupplier).toEqual({ supplier: { name: "Tirol Guides", countryCode: "AT", contact: null, updatedAt: expect.any(String) }, userErrors: [] });
    expect(Date.parse(updated.body.data!.updateSupplier.supplier.updatedAt)).toBeGreaterThan(Date.parse(supplier.updatedAt));

    const deleted = await gql(`mutation ($input: DeleteSupplierInput!) { deleteSupplier(input: $input) { deletedSupplierId deletedProductCount userErrors { code } } }`, { input: { supplierId: supplier.id } });
    expect(deleted.body.data!.deleteSupplier).toEqual({ deletedSupplierId: supplier.id, deletedProductCount: 0, userErrors: [] });
    const gone = await gql(`query ($id: ID!) { supplier(id: $id) { id } node(id: $id) { id } }`, { id: supplier.id });
    expect(gone.body).toMatchObject({ data: { supplier: null, node: null } });
    expect(gone.body.errors).toBeUndefined();
    const again = await gql(`mutation ($input: DeleteSupplierInput!) { deleteSupplier(input: $input) { deletedSupplierId userErrors { code field } } }`, { input: { supplierId: supplier.id } });
    expect(again.body.data!.deleteSupplier).toEqual({ deletedSupplierId: null, userErrors: [{ code: "NOT_FOUND", field: ["input", "supplierId"] }] });
  });

  it("answers another engine's supplier as absent, and a consumer's question about suppliers as FORBIDDEN", async () => {
    const other = await contentPartner(t.stack);
    const theirs = (await gql(`mutation ($input: CreateSupplierInput!) { createSupplier(input: $input) { supplier { id } } }`, { input: supplierInput() }, other.token)).body.data!.createSupplier.supplier.id;
    const hidden = await gql(`query ($id: ID!) { supplier(id: $id) { id } node(id: $id) { id } }`, { id: theirs });
    expect(hidden.body).toMatchObject({ data: { supplier: null, node: null } });
    expect(hidden.body.errors).toBeUndefined();
    const update = await gql(`mutation ($input: UpdateSupplierInput!) { updateSupplier(input: $input) { supplier { id } userErrors { code field } } }`, { input: { ...supplierInput(), supplierId: theirs } });
    expect(update.body.data!.updateSupplier).toEqual({ supplier: null, userErrors: [{ code: "NOT_FOUND", field: ["input", "supplierId"] }] });
    // Its own partner and a platform account see it.
    const platformToken = await t.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
    for (const token of [other.token, platformToken]) expect((await gql(`query ($id: ID!) { supplier(id: $id) { id } node(id: $id) { id } }`, { id: theirs }, token)).body.data).toEqual({ supplier: { id: theirs }, node: { id: theirs } });
    const consumerToken = await t.stack.tokenFor("CONSUMER");
    for (const query of [`{ suppliers(bookingEngineName: "X") { totalCount { count } } }`, `query ($id: ID!) { supplier(id: $id) { id } }`]) {
      expect((await gql(query, { id: theirs }, consumerToken)).body.errors?.map((error) => error.extensions?.code)).toEqual(["FORBIDDEN"]);
    }
    expect((await gql(`query ($id: ID!) { node(id: $id) { id } }`, { id: theirs }, consumerToken)).body.data).toEqual({ node: null });
  });

  it("refuses a supplier's input as userErrors naming the input's fields, and changes nothing", async () => {
    const mutation = `mutation ($input: CreateSupplierInput!) { createSupplier(input: $input) { supplier { id } userErrors { code field rule } } }`;
    const invalid = await gql(mutation, { input: supplierInput({ name: "x".repeat(300), contact: { website: `https://guides.example/${"x".repeat(520)}` } }) });
    expect(invalid.body.data!.createSupplier.supplier).toBeNull();
    expect(invalid.body.data!.createSupplier.userErrors).toEqual([
      { code: "VALIDATION_FAILED", field: ["input", "name"], rule: "maxLength" },
      { code: "VALIDATION_FAILED", field: ["input", "contact", "website"], rule: "maxLength" },
    ]);
    // The country is a code a client picks: what is none is refused before anything runs, naming the variable's field.
    for (const countryCode of ["XX", "ch"]) {
      const refused = await gql(mutation, { input: supplierInput({ countryCode }) });
      expect(refused.body.data ?? null, countryCode).toBeNull();
      expect(refused.body.errors![0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [expect.objectContaining({ field: "$input.countryCode" })] });
    }
    // The contact is typed by a person: a mistake is a userError on its field, as a form shows it.
    const contacts: [Record<string, string>, string, string][] = [
      [{ email: "not an address" }, "email", "email"],
      [{ website: "javascript:alert(1)" }, "website", "url"],
      [{ website: "guides.example" }, "website", "url"],
      [{ telephone: "call me" }, "telephone", "phoneNumber"],
    ];
    for (const [contact, field, rule] of contacts) {
      const refused = await gql(mutation, { input: supplierInput({ contact }) });
      expect(refused.body.errors, field).toBeUndefined();
      expect(refused.body.data!.createSupplier).toEqual({ supplier: null, userErrors: [{ code: "VALIDATION_FAILED", field: ["input", "contact", field], rule }] });
    }
    // What they accept, kept as given.
    const contact = { website: "HTTPS://Guides.example/Zermatt?lang=de", email: "Info@guides.example", telephone: "(027) 966-24-60 ext. 12", address: "Bahnhofstrasse 1" };
    const accepted = await gql(`mutation ($input: CreateSupplierInput!) { createSupplier(input: $input) { supplier { countryCode contact { website email telephone address } } userErrors { code } } }`, { input: supplierInput({ countryCode: "LI", contact }) });
    expect(accepted.body.data!.createSupplier).toEqual({ supplier: { countryCode: "LI", contact }, userErrors: [] });
    const platformToken = await t.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
    const missing = await gql(mutation, { input: supplierInput() }, platformToken);
    expect(missing.body.data!.createSupplier.userErrors).toEqual([{ code: "MISSING_BOOKING_ENGINE", field: ["input", "bookingEngineId"], rule: "required" }]);
    for (const bookingEngineId of [toGlobalId("BookingEngine", 2_000_000_000), toGlobalId("Supplier", partner.engineId), "not an id"]) {
      const unknown = await gql(mutation, { input: supplierInput({ bookingEngineId }) }, platformToken);
      expect(unknown.body.data!.createSupplier.userErrors).toEqual([{ code: "UNKNOWN_BOOKING_ENGINE", field: ["input", "bookingEngineId"], rule: "exists" }]);
    }
    const wrong = await gql(mutation, { input: supplierInput({ bookingEngineId: toGlobalId("BookingEngine", 2_000_000_000) }) });
    expect(wrong.body.data!.createSupplier.userErrors).toEqual([{ code: "WRONG_BOOKING_ENGINE", field: ["input", "bookingEngineId"], rule: "ownEngine" }]);
    // A platform account names the engine by its global id.
    const named = await gql(`mutation ($input: CreateSupplierInput!) { createSupplier(input: $input) { supplier { id externalId bookingEngine { name } } userErrors { code } } }`, { input: supplierInput({ bookingEngineId: toGlobalId("BookingEngine", partner.engineId) }) }, platformToken);
    expect(named.body.data!.createSupplier).toMatchObject({ supplier: { bookingEngine: { name: partner.engineName } }, userErrors: [] });
    const externalId = named.body.data!.createSupplier.supplier.externalId;
    const duplicate = await gql(mutation, { input: supplierInput({ externalId }) });
    expect(duplicate.body.data!.createSupplier.userErrors).toEqual([{ code: "DUPLICATE_EXTERNAL_ID", field: ["input", "externalId"], rule: "unique" }]);
    const moved = await gql(`mutation ($input: UpdateSupplierInput!) { updateSupplier(input: $input) { userErrors { code field } } }`, {
      input: supplierInput({ supplierId: named.body.data!.createSupplier.supplier.id, externalId, bookingEngineId: toGlobalId("BookingEngine", (await contentPartner(t.stack)).engineId) }),
    }, platformToken);
    expect(moved.body.data!.updateSupplier.userErrors).toEqual([{ code: "BOOKING_ENGINE_CHANGE", field: ["input", "bookingEngineId"] }]);
    const [{ count }] = await rows<{ count: number }>(t.database.db, sql`select count(*)::int as count from suppliers where external_id = ${externalId}`);
    expect(count).toBe(1);
  });

  it("pages an engine's suppliers both ways in either order, keyset cursors never skipping or repeating", async () => {
    const fresh = await contentPartner(t.stack);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await gql(`mutation ($input: CreateSupplierInput!) { createSupplier(input: $input) { supplier { id } } }`, { input: supplierInput() }, fresh.token)).body.data!.createSupplier.supplier.id);
    const page = async (args: Record<string, unknown>) => {
      const answer = await gql(
        `query ($name: String!, $first: Int, $after: String, $last: Int, $before: String, $orderBy: SupplierOrder) {
          suppliers(bookingEngineName: $name, first: $first, after: $after, last: $last, before: $before, orderBy: $orderBy) {
            edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount { count }
          }
        }`,
        { name: fresh.engineName, ...args },
        fresh.token,
      );
      expect(answer.body.errors).toBeUndefined();
      return answer.body.data!.suppliers as { edges: { cursor: string; node: { id: string } }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string; startCursor: string }; totalCount: { count: number } };
    };
    const first = await page({ first: 2 });
    expect(first.edges.map((edge) => edge.node.id)).toEqual(ids.slice(0, 2));
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(first.totalCount.count).toBe(5);
    const second = await page({ first: 2, after: first.pageInfo.endCursor });
    expect(second.edges.map((edge) => edge.node.id)).toEqual(ids.slice(2, 4));
    const last = await page({ first: 2, after: second.pageInfo.endCursor });
    expect(last.edges.map((edge) => edge.node.id)).toEqual(ids.slice(4));
    expect(last.pageInfo.hasNextPage).toBe(false);
    const back = await page({ last: 3, before: last.pageInfo.startCursor });
    expect(back.edges.map((edge) => edge.node.id)).toEqual(ids.slice(1, 4));
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const newest = await page({ first: 2, orderBy: { field: "ID", direction: "DESC" } });
    expect(newest.edges.map((edge) => edge.node.id)).toEqual([ids[4], ids[3]]);
    const older = await page({ first: 10, after: newest.pageInfo.endCursor, orderBy: { field: "ID", direction: "DESC" } });
    expect(older.edges.map((edge) => edge.node.id)).toEqual([ids[2], ids[1], ids[0]]);
    // Deleting one between pages skips nothing that is left.
    await gql(`mutation ($input: DeleteSupplierInput!) { deleteSupplier(input: $input) { deletedSupplierId } }`, { input: { supplierId: ids[2] } }, fresh.token);
    expect((await page({ first: 10, after: first.pageInfo.endCursor })).edges.map((edge) => edge.node.id)).toEqual([ids[3], ids[4]]);
    // A cursor of another list, first with last, and a page past the largest are refused naming the argument.
    const refused = await gql(`query ($name: String!, $after: String, $first: Int, $last: Int) { suppliers(bookingEngineName: $name, first: $first, after: $after, last: $last) { totalCount { count } } }`, { name: fresh.engineName, first: 1, after: "bm90IGEgY3Vyc29y" }, fresh.token);
    expect(refused.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: "after", rule: "cursor" }] });
    const both = await gql(`query ($name: String!) { suppliers(bookingEngineName: $name, first: 1, last: 1) { totalCount { count } } }`, { name: fresh.engineName }, fresh.token);
    expect(both.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: "last", rule: "exclusive" }] });
    const large = await gql(`query ($name: String!) { suppliers(bookingEngineName: $name, first: 1001) { totalCount { count } } }`, { name: fresh.engineName }, fresh.token);
    expect(large.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: "first", rule: "range" }] });
  });

  it("creates, moves, filters, updates, deprecates and deletes products, in the caller's language, each mutation answering a payload", async () => {
    const supplierA = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const supplierB = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const [idA, idB] = [toGlobalId("Supplier", supplierA), toGlobalId("Supplier", supplierB)];
    const { categories, minPrice, maxPrice, availabilityPeriods, ...rest } = productRequest();
    // Typed as the graph takes it: amounts are Decimals, written as strings; a period's closed days are closedDays.
    const periods = { weeklyPeriods: availabilityPeriods.weeklyPeriods.map(({ closedDayList, ...period }) => ({ ...period, closedDays: closedDayList })) };
    // Texts are translations; the itinerary's too.
    const { title, description, experienceHighlights, bookingUrl, itinerary, ...others } = rest;
    const texts = { title: translations(title), description: translations(description), experienceHighlights: translations(experienceHighlights), bookingUrl: translations(bookingUrl) };
    const route = { ...itinerary, units: itinerary.units.map((unit) => ({ title: translations(unit.title), items: unit.items.map((item) => ({ ...item, title: translations(item.title) })) })) };
    const typedCategories = categories.map((category) => ({ ...category, ...("name" in category && category.name ? { name: translations(category.name) } : {}) }));
    const fields = { ...others, ...texts, itinerary: route, categories: typedCategories, minPrice: String(minPrice), maxPrice: String(maxPrice), cancellationCutOffUnit: "HOUR", availabilityPeriods: periods };
    const create = `mutation ($input: CreateProductInput!) {
      createProduct(input: $input) { moved product { id legacyResourceId title { text language translations { language text } } onlineBookable { language bookable } bookingEngine { name } country { code name { text } } categories { level code } supplier { legacyResourceId } } userErrors { code } } }`;
    const first = await gql(create, { input: { ...fields, supplierId: idA } });
    expect(first.body.errors).toBeUndefined();
    const product = first.body.data!.createProduct;
    expect(product).toMatchObject({
      moved: false,
      userErrors: [],
      product: {
        id: expect.stringMatching(/.+/),
        title: { text: "Matterhorn glacier hike", language: "en", translations: [{ language: "de", text: rest.title.de }, { language: "en", text: rest.title.en }] },
        onlineBookable: [
          { language: "de", bookable: false },
          { language: "en", bookable: true },
        ],
        bookingEngine: { name: partner.engineName },
        country: { code: "CH", name: { text: "Switzerland" } },
        categories: [{ level: 1, code: "outdoor" }, { level: 2, code: "hiking" }],
        supplier: { legacyResourceId: supplierA },
      },
    });
    const productId = product.product.id as string;
    expect(productId).toBe(toGlobalId("Product", product.product.legacyResourceId));

    const moved = await gql(create, { input: { ...fields, supplierId: idB } });
    expect(moved.body.data!.createProduct).toMatchObject({ moved: true, product: { id: productId, supplier: { legacyResourceId: supplierB } }, userErrors: [] });

    const german = await fetch(`${t.stack.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${partner.token}`, "accept-language": "fr-CH, de;q=0.9, en;q=0.5" },
      body: JSON.stringify({ query: `query ($id: ID!) { supplier(id: $id) { products { nodes { title { text language } country { name { text } } } } } }`, variables: { id: idB } }),
    });
    expect(((await german.json()) as { data: { supplier: { products: { nodes: unknown[] } } } }).data.supplier.products.nodes[0]).toEqual({ title: { text: "Matterhorn Gletscherwanderung", language: "de" }, country: { name: { text: "Suisse" } } });

    const filtered = await gql(
      `query ($id: ID!) { supplier(id: $id) { a: products(filter: { countryCode: "CH", rating: 4.5 }) { nodes { id } } b: products(filter: { cityName: "Geneva" }) { nodes { id } totalCount { count } } } }`,
      { id: idB },
    );
    expect(filtered.body.data!.supplier).toEqual({ a: { nodes: [{ id: productId }] }, b: { nodes: [], totalCount: { count: 0 } } });

    const update = `mutation ($input: UpdateProductInput!) { updateProduct(input: $input) { product { id rating updatedAt } userErrors { code field } } }`;
    const updated = await gql(update, { input: { productId, externalId: fields.externalId, title: en("Glacier"), rating: 3.5 } });
    expect(updated.body.data!.updateProduct).toMatchObject({ product: { id: productId, rating: 3.5 }, userErrors: [] });
    // The supplier, when given, is a precondition: the product is B's now, so naming A changes nothing.
    const guarded = await gql(update, { input: { productId, supplierId: idA, externalId: fields.externalId, title: en("Wrong"), rating: 1 } });
    expect(guarded.body.data!.updateProduct).toEqual({ product: null, userErrors: [{ code: "NOT_FOUND", field: ["input", "productId"] }] });
    const withOwner = await gql(update, { input: { productId, supplierId: idB, externalId: fields.externalId, title: en("Glacier"), rating: 4 } });
    expect(withOwner.body.data!.updateProduct).toMatchObject({ product: { rating: 4 }, userErrors: [] });

    const deprecate = `mutation ($input: DeprecateProductInput!) { deprecateProduct(input: $input) { product { deprecated onlineBookable { language bookable } } userErrors { code } } }`;
    expect((await gql(deprecate, { input: { productId } })).body.data!.deprecateProduct).toEqual({ product: { deprecated: true, onlineBookable: [{ language: "en", bookable: false }] }, userErrors: [] });
    expect((await gql(deprecate, { input: { productId, supplierId: idA } })).body.data!.deprecateProduct).toEqual({ product: null, userErrors: [{ code: "NOT_FOUND" }] });
    const undeprecated = await gql(`mutation ($input: UndeprecateProductInput!) { undeprecateProduct(input: $input) { product { deprecated } userErrors { code } } }`, { input: { productId, supplierId: idB } });
    expect(undeprecated.body.data!.undeprecateProduct).toEqual({ product: { deprecated: false }, userErrors: [] });

    const viaSupplier = await gql(`query ($id: ID!) { supplier(id: $id) { isOnlineBookable products { nodes { id } } } }`, { id: idB });
    // The update dropped the booking URL, and no booking setup sells it: nothing of the supplier is bookable online.
    expect(viaSupplier.body.data!.supplier).toEqual({ isOnlineBookable: false, products: { nodes: [{ id: productId }] } });

    const remove = `mutation ($input: DeleteProductInput!) { deleteProduct(input: $input) { deletedProductId userErrors { code field } } }`;
    expect((await gql(remove, { input: { productId, supplierId: idA } })).body.data!.deleteProduct).toEqual({ deletedProductId: null, userErrors: [{ code: "NOT_FOUND", field: ["input", "productId"] }] });
    expect((await gql(remove, { input: { productId } })).body.data!.deleteProduct).toEqual({ deletedProductId: productId, userErrors: [] });
    const empty = await gql(`query ($id: ID!) { supplier(id: $id) { products { nodes { id } totalCount { count } } } }`, { id: idB });
    expect(empty.body.data!.supplier.products).toEqual({ nodes: [], totalCount: { count: 0 } });
    // A deleted product is not found again, and neither is an id of another type or none at all.
    for (const id of [productId, idB, "not-an-id"]) {
      expect((await gql(remove, { input: { productId: id } })).body.data!.deleteProduct.userErrors).toEqual([{ code: "NOT_FOUND", field: ["input", "productId"] }]);
    }
  });

  it("pages a supplier's products by number both ways, with their count, and refuses a bad filter naming it", async () => {
    const supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ cityName: i % 2 ? "Geneva" : "Zermatt" }))).body.id);
    const page = async (args: string) =>
      (await gql(`query ($id: ID!) { supplier(id: $id) { products(${args}) { totalCount { count } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } nodes { legacyResourceId } } } }`, { id: toGlobalId("Supplier", supplierId) })).body;
    const first = (await page("first: 2")).data!.supplier.products;
    expect(first).toMatchObject({ totalCount: { count: 5 }, pageInfo: { hasNextPage: true, hasPreviousPage: false }, nodes: ids.slice(0, 2).map((id) => ({ legacyResourceId: id })) });
    const next = (await page(`first: 2, after: "${first.pageInfo.endCursor}"`)).data!.supplier.products;
    expect(next.nodes).toEqual(ids.slice(2, 4).map((id) => ({ legacyResourceId: id })));
    const back = (await page(`last: 2, before: "${next.pageInfo.startCursor}"`)).data!.supplier.products;
    expect(back.nodes).toEqual(ids.slice(0, 2).map((id) => ({ legacyResourceId: id })));
    const newest = (await page("first: 2, orderBy: { field: ID, direction: DESC }")).data!.supplier.products;
    expect(newest.nodes).toEqual([ids[4], ids[3]].map((id) => ({ legacyResourceId: id })));
    const geneva = (await page('filter: { cityName: "geneva" }')).data!.supplier.products;
    expect(geneva).toMatchObject({ totalCount: { count: 2 }, nodes: [ids[1], ids[3]].map((id) => ({ legacyResourceId: id })) });
    const refused = await page('filter: { rating: 6 }');
    expect(refused.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: "rating" }] });
  });

  it("answers another partner's product as one that does not exist, and changes nothing", async () => {
    const supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const created = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest())).body;
    const productId = toGlobalId("Product", created.id);
    const other = await contentPartner(t.stack);
    const foreign = await gql(`mutation ($input: DeprecateProductInput!) { deprecateProduct(input: $input) { product { id } userErrors { code message } } }`, { input: { productId } }, other.token);
    expect(foreign.body.data!.deprecateProduct).toEqual({ product: null, userErrors: [{ code: "NOT_FOUND", message: "Product not found" }] });
    const unchanged = await gql(`query ($id: ID!) { product(id: $id) { deprecated } }`, { id: productId });
    expect(unchanged.body.data!.product).toEqual({ deprecated: false });
  });

  it("refuses an invalid product with the field problems as user errors, and a duplicate externalId with its code", async () => {
    const supplierId = toGlobalId("Supplier", (await partner.rest.post("/api/supplier", supplierRequest())).body.id);
    const mutation = `mutation ($input: CreateProductInput!) { createProduct(input: $input) { product { id } userErrors { code field rule errorCode } } }`;
    const invalid = await gql(mutation, { input: { supplierId, externalId: "G-1", title: translations({ de: "Tour", en: "x".repeat(256) }), rating: 8, priceLevel: 0 } });
    expect(invalid.body.errors).toBeUndefined();
    expect(invalid.body.data!.createProduct.product).toBeNull();
    expect(invalid.body.data!.createProduct.userErrors).toEqual(
      expect.arrayContaining([
        // The rules name the language; the refusal names the translation's place in the list.
        { code: "VALIDATION_FAILED", field: ["input", "title", "1", "text"], rule: "maxLength", errorCode: null },
        { code: "VALIDATION_FAILED", field: ["input", "rating"], rule: "maximum", errorCode: null },
        { code: "VALIDATION_FAILED", field: ["input", "priceLevel"], rule: "minimum", errorCode: null },
      ]),
    );
    // A language twice leaves the text unknown: refused as the input's shape, alone.
    const twice = await gql(mutation, { input: { supplierId, externalId: "G-1", title: [...en("Tour"), ...en("Trip")], rating: 8 } });
    expect(twice.body.data!.createProduct.userErrors).toEqual([{ code: "VALIDATION_FAILED", field: ["input", "title", "1", "language"], rule: "uniqueLanguage", errorCode: null }]);
    const input = { supplierId, externalId: "G-2", title: en("Tour") };
    expect((await gql(mutation, { input })).body.data!.createProduct.userErrors).toEqual([]);
    const duplicate = await gql(mutation, { input });
    expect(duplicate.body.data!.createProduct).toEqual({ product: null, userErrors: [{ code: "PRODUCT_EXTERNAL_ID_EXISTS", field: ["input", "externalId"], rule: "unique", errorCode: null }] });
    const unknownSupplier = await gql(mutation, { input: { ...input, supplierId: toGlobalId("Supplier", 2 ** 31 - 1) } });
    expect(unknownSupplier.body.data!.createProduct.userErrors).toEqual([{ code: "NOT_FOUND", field: ["input", "supplierId"], rule: null, errorCode: null }]);
  });

  it("takes a product's closed sets as enums, its codes as CountryCode and CurrencyCode, its amounts as Decimals, its commission as commissionTerms and its highlights with real line breaks, and answers them as given", async () => {
    const supplierNumber = (await partner.rest.post("/api/supplier", supplierRequest())).body.id as number;
    const supplierId = toGlobalId("Supplier", supplierNumber);
    const mutation = `mutation ($input: CreateProductInput!) { createProduct(input: $input) {
      product { legacyResourceId experienceHighlights { text translations { language text } } availabilityType redemptionMethod pricingUnit cancellationCutOffUnit countryCode priceCurrency minPrice { amount currencyCode } averagePrice { amount } commissionTerms { netCommission commissionRate } }
      userErrors { code field rule } } }`;
    const input = {
      supplierId,
      externalId: `G-${randomUUID()}`,
      title: en("Lake cruise"),
      experienceHighlights: translations({ en: "Castle of Chillon\nAlpine views", fr: "Château de Chillon\r\nVue sur les Alpes" }),
      countryCode: "CH",
      availabilityType: "OPENING_HOURS",
      redemptionMethod: "PRINT",
      pricingUnit: "PER_BOAT",
      cancellationCutOffAmount: 2,
      cancellationCutOffUnit: "DAY",
      minPrice: "49.90",
      averagePrice: "55",
      priceCurrency: "CHF",
      commissionTerms: { netCommission: "7.5", commissionRate: "0.15" },
    };
    const created = await gql(mutation, { input });
    expect(created.body.errors).toBeUndefined();
    const product = created.body.data!.createProduct.product;
    expect(product).toMatchObject({
      experienceHighlights: { text: "Castle of Chillon\nAlpine views", translations: [{ language: "en", text: "Castle of Chillon\nAlpine views" }, { language: "fr", text: "Château de Chillon\nVue sur les Alpes" }] },
      availabilityType: "OPENING_HOURS",
      redemptionMethod: "PRINT",
      pricingUnit: "PER_BOAT",
      cancellationCutOffUnit: "DAY",
      countryCode: "CH",
      priceCurrency: "CHF",
      minPrice: { amount: "49.90", currencyCode: "CHF" },
      averagePrice: { amount: "55.00" },
      commissionTerms: { netCommission: "7.5", commissionRate: "0.15" },
    });
    // REST reads the same product in spec 1's words.
    const [restProduct] = (await partner.rest.get(`/api/supplier/${supplierNumber}/products`)).body;
    // Spec 1 separates lines with the two characters "/n", both ways.
    expect(restProduct.experienceHighlights).toEqual({ en: "Castle of Chillon/nAlpine views", fr: "Château de Chillon/nVue sur les Alpes" });
    const fromRest = (await partner.rest.post(`/api/supplier/${supplierNumber}/product`, productRequest({ experienceHighlights: { en: "Glacier views/nIce caves" } }))).body;
    expect(fromRest.experienceHighlights).toEqual({ en: "Glacier views/nIce caves" });
    const read = await gql(`query ($id: ID!) { product(id: $id) { experienceHighlights { text } } }`, { id: toGlobalId("Product", fromRest.id) });
    expect(read.body.data!.product.experienceHighlights).toEqual({ text: "Glacier views\nIce caves" });
    expect(restProduct).toMatchObject({ cancellationCutOffUnit: "day", minPrice: 49.9, averagePrice: 55, estCommNet: 7.5, estCommFrpricePerc: 0.15, pricingUnit: "PER_BOAT" });
  });

  it("takes and answers a product's periods typed, and REST reads them back as spec 1's document", async () => {
    const supplierNumber = (await partner.rest.post("/api/supplier", supplierRequest())).body.id as number;
    const mutation = `mutation ($input: CreateProductInput!) { createProduct(input: $input) {
      product { legacyResourceId availabilityPeriods { weeklyPeriods { description startDate endDate closedDays monday { open hours { start end } } tuesday { open hours { start end } } sunday { open } wednesday { open } } spontaneousPeriod { description eventStarts } } }
      userErrors { code field rule } } }`;
    const availabilityPeriods = {
      weeklyPeriods: [{ description: "Summer", startDate: "2027-06-01", endDate: "2027-09-30", monday: { open: true, hours: null }, tuesday: { open: true, hours: [{ start: "08:00", end: "12:00" }, { start: "14:00", end: "24:00" }] }, sunday: { open: false }, closedDays: ["2027-08-01"] }],
      spontaneousPeriod: { eventStarts: ["2027-12-31T22:00"] },
    };
    const created = await gql(mutation, { input: { supplierId: toGlobalId("Supplier", supplierNumber), externalId: `G-${randomUUID()}`, title: en("Lake cruise"), availabilityPeriods } });
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data!.createProduct.product.availabilityPeriods).toEqual({
      weeklyPeriods: [{ ...availabilityPeriods.weeklyPeriods[0], sunday: { open: false }, wednesday: null }],
      spontaneousPeriod: { description: null, eventStarts: ["2027-12-31T22:00"] },
    });
    const [restProduct] = (await partner.rest.get(`/api/supplier/${supplierNumber}/products`)).body;
    expect(restProduct.availabilityPeriods).toEqual({
      weeklyPeriods: [{ description: "Summer", startDate: "2027-06-01", endDate: "2027-09-30", monday: { open: true, hours: null }, tuesday: { open: true, hours: [{ start: "08:00", end: "12:00" }, { start: "14:00", end: "24:00" }] }, sunday: { open: false, hours: null }, closedDayList: ["2027-08-01"] }],
      spontaneousPeriod: { eventDateList: ["2027-12-31T22:00"] },
    });
    // The rules name a period's faults by the input's own names.
    const refused = await gql(mutation, {
      input: { supplierId: toGlobalId("Supplier", supplierNumber), externalId: `G-${randomUUID()}`, title: en("Lake cruise"), availabilityPeriods: { weeklyPeriods: [{ startDate: "2027-06-01", endDate: "2027-05-01", friday: { open: true, hours: [{ start: "18:00", end: "09:00" }] } }], spontaneousPeriod: { eventStarts: ["2027-07-21T21:00+02:00"] } } },
    });
    expect(refused.body.data!.createProduct.userErrors).toEqual([
      { code: "VALIDATION_FAILED", field: ["input", "availabilityPeriods", "weeklyPeriods", "0", "endDate"], rule: "notBeforeStart" },
      { code: "VALIDATION_FAILED", field: ["input", "availabilityPeriods", "weeklyPeriods", "0", "friday", "hours", "0"], rule: "startBeforeEnd" },
      { code: "VALIDATION_FAILED", field: ["input", "availabilityPeriods", "spontaneousPeriod", "eventStarts", "0"], rule: "localDateTime" },
    ]);
  });

  it("takes and answers a product's itinerary typed, its free text with real line breaks, and REST reads it back as spec 1's document", async () => {
    const supplierNumber = (await partner.rest.post("/api/supplier", supplierRequest())).body.id as number;
    const mutation = `mutation ($input: CreateProductInput!) { createProduct(input: $input) {
      product { itinerary { type unitType unstructuredItinerary { text } units { title { text } items { title { text } location { name latitude longitude placeId } } } } }
      userErrors { code field rule } } }`;
    const create = (itinerary: Record<string, unknown>) => gql(mutation, { input: { supplierId: toGlobalId("Supplier", supplierNumber), externalId: `G-${randomUUID()}`, title: en("Tour"), itinerary } });
    const route = { type: "MULTIDAY", unitType: "DAY", units: [{ title: { en: "Day 1" }, items: [{ title: { en: "Zermatt" }, location: { name: "Zermatt", latitude: 46.02, longitude: 7.75 } }, { title: { en: "Gornergrat" } }] }] };
    const created = await create({ ...route, units: [{ title: en("Day 1"), items: [{ title: en("Zermatt"), location: route.units[0].items[0].location }, { title: en("Gornergrat") }] }] });
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data!.createProduct.product.itinerary).toEqual({
      type: "MULTIDAY",
      unitType: "DAY",
      unstructuredItinerary: null,
      units: [{ title: { text: "Day 1" }, items: [{ title: { text: "Zermatt" }, location: { name: "Zermatt", latitude: 46.02, longitude: 7.75, placeId: null } }, { title: { text: "Gornergrat" }, location: null }] }],
    });
    const free = await create({ type: "UNSTRUCTURED", unstructuredItinerary: en("Meet\nWalk\nReturn") });
    expect(free.body.data!.createProduct.product.itinerary).toMatchObject({ type: "UNSTRUCTURED", unitType: null, unstructuredItinerary: { text: "Meet\nWalk\nReturn" }, units: [] });
    const listed = (await partner.rest.get(`/api/supplier/${supplierNumber}/products`)).body.map((product: { itinerary: unknown }) => product.itinerary);
    expect(listed).toEqual([route, { type: "UNSTRUCTURED", unstructuredItinerary: { en: "Meet/nWalk/nReturn" } }]);
    // The rules name an itinerary's faults by the input's own path; its enums are checked before them.
    const refused = await create({ type: "UNSTRUCTURED", units: [{ items: [{ location: { latitude: 100, longitude: 0 } }] }] });
    expect(refused.body.data!.createProduct.userErrors).toEqual([
      { code: "VALIDATION_FAILED", field: ["input", "itinerary", "unstructuredItinerary"], rule: "required" },
      { code: "VALIDATION_FAILED", field: ["input", "itinerary", "units", "0", "items", "0", "location", "latitude"], rule: "maximum" },
    ]);
    expect((await create({ type: "LINEAR" })).body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: "$input.itinerary.type", rule: "type" }] });
  });

  it("refuses a product's typed fields by the same rules, each userError naming the field as the input names it", async () => {
    const supplierId = toGlobalId("Supplier", (await partner.rest.post("/api/supplier", supplierRequest())).body.id);
    const mutation = `mutation ($input: CreateProductInput!) { createProduct(input: $input) { product { id } userErrors { code field rule } } }`;
    const base = { supplierId, externalId: "G-typed", title: en("Tour") };
    const commission = await gql(mutation, { input: { ...base, priceCurrency: "EUR", commissionTerms: { netCommission: "-1", commissionRate: "1.5" }, minPrice: "30", maxPrice: "20" } });
    expect(commission.body.data!.createProduct).toEqual({
      product: null,
      userErrors: [
        { code: "VALIDATION_FAILED", field: ["input", "maxPrice"], rule: "minPriceNotAbove" },
        { code: "VALIDATION_FAILED", field: ["input", "commissionTerms", "netCommission"], rule: "minimum" },
        { code: "VALIDATION_FAILED", field: ["input", "commissionTerms", "commissionRate"], rule: "maximum" },
      ],
    });
    // An ISO 4217 code the service cannot convert is its own refusal; one that is no code never reaches it.
    const gold = await gql(mutation, { input: { ...base, minPrice: "10", priceCurrency: "XAU" } });
    expect(gold.body.data!.createProduct.userErrors).toEqual([{ code: "UNSUPPORTED_CURRENCY", field: ["input", "priceCurrency"], rule: "supportedCurrency" }]);
    for (const [field, value] of [["priceCurrency", "EURO"], ["countryCode", "ch"], ["minPrice", 12.5], ["availabilityType", "SOMETIMES"], ["cancellationCutOffUnit", "hour"]] as const) {
      const refused = await gql(mutation, { input: { ...base, [field]: value } });
      expect(refused.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: `$input.${field}`, rule: "type" }] });
    }
  });

  it("resolves Product and Supplier as federated entities", async () => {
    const supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const productId = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest())).body.id;
    // As the gateway calls it: the subgraph's own server in process, with the caller's token.
    const catalogue = t.stack.service.edge!.subgraphs.catalogue!;
    const response = await catalogue.server.executeOperation(
      {
        query: `query ($r: [_Any!]!) { _entities(representations: $r) { ... on Product { legacyResourceId externalId } ... on Supplier { legacyResourceId countryCode } } }`,
        variables: { r: [{ __typename: "Product", legacyResourceId: productId }, { __typename: "Supplier", id: toGlobalId("Supplier", supplierId) }] },
      },
      { contextValue: await catalogue.createContext({ authorization: `Bearer ${partner.token}` }) },
    );
    const result = response.body.kind === "single" ? response.body.singleResult : undefined;
    expect(result?.data?._entities).toEqual([{ legacyResourceId: productId, externalId: expect.any(String) }, { legacyResourceId: supplierId, countryCode: "CH" }]);
  });

  /**
   * The gateway's per-request `Operation` (what it shapes the answer by) is built once per parsed
   * operation and reused (gateway/operation-cache.ts): the answer must still follow each request's
   * own variables.
   */
  describe("the gateway's reused operation", () => {
    let supplierId: string;
    beforeAll(async () => {
      supplierId = (await gql(`mutation ($input: CreateSupplierInput!) { createSupplier(input: $input) { supplier { id } } }`, { input: supplierInput() })).body.data!.createSupplier.supplier.id;
    });
    /** A text no other test sends, so its first request is a miss in any process. */
    const operation = () => `# ${randomUUID()}
      query ($id: ID!, $withEngine: Boolean!, $skipName: Boolean! = false) {
        supplier(id: $id) { id ...Names engine: bookingEngine @include(if: $withEngine) { name } }
      }
      fragment Names on Supplier { name @skip(if: $skipName) countryCode }`;

    it("is built on the first request of a text and reused after, each answer shaped by its own variables", async () => {
      const text = operation();
      const before = gatewayOperationCounts();
      const full = await gql(text, { id: supplierId, withEngine: true });
      const afterFirst = gatewayOperationCounts();
      const narrow = await gql(text, { id: supplierId, withEngine: false, skipName: true });
      const afterSecond = gatewayOperationCounts();

      expect(full.body.errors).toBeUndefined();
      expect(full.body.data!.supplier).toEqual({ id: supplierId, name: expect.any(String), countryCode: "CH", engine: { name: partner.engineName } });
      expect(narrow.body.errors).toBeUndefined();
      expect(narrow.body.data!.supplier).toEqual({ id: supplierId, countryCode: "CH" });

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
