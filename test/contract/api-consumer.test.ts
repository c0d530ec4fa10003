import { toGlobalId } from "../../core/global-id.js";
import { beforeAll, describe, expect, it } from "vitest";
import { contentPartner, productRequest, restClient, signIn, supplierRequest, type RestClient } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

/**
 * Spec 3 consumption paths: search (23), product read (25) and taxonomy (26). Every search is
 * narrowed to this file's own booking engine, so other data on a shared database cannot leak in.
 */
describe("catalogue consumption", () => {
  const t = useStack();
  let partner: Partner;
  let consumer: RestClient;
  let consumerToken: string;
  let ids: Record<string, number>;
  let supplierExternalId: string;
  let supplierId: number;

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    supplierExternalId = `SRCH-${Date.now()}`;
    supplierId = (await partner.rest.post("/api/supplier", supplierRequest({ externalId: supplierExternalId }))).body.id;
    const otherSupplier = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const push = async (key: string, overrides: Record<string, unknown>, into = supplierId) => [key, (await partner.rest.post(`/api/supplier/${into}/product`, productRequest(overrides))).body.id] as const;
    ids = Object.fromEntries([
      await push("louvre", { title: { en: "Louvre museum skip-the-line ticket", fr: "Billet coupe-file musée du Louvre" }, countryCode: "FR", cityName: "Paris", rating: 4.8, minPrice: 22, maxPrice: 22, priceCurrency: "EUR", description: { en: "Mona Lisa and the crown jewels." }, categories: [{ level: 1, code: "tickets-attractions" }, { level: 2, code: "museums" }] }),
      await push("hike", { title: { en: "Matterhorn glacier hiking tour", de: "Matterhorn Gletscherwanderungen" }, countryCode: "CH", cityName: "Zermatt", rating: 4.6, minPrice: 120, maxPrice: 180, categories: [{ level: 1, code: "outdoor" }, { level: 2, code: "hiking" }] }),
      await push("cruise", { title: { en: "Seine dinner cruise" }, countryCode: "FR", cityName: "Paris", rating: 4.1, minPrice: 89, maxPrice: 120, priceCurrency: "EUR", categories: [{ level: 1, code: "water" }, { level: 2, code: "boat-tours" }] }, otherSupplier),
      await push("tower", { title: { en: "Big Ben and Westminster walk" }, countryCode: "GB", cityName: "London", rating: 3.9, minPrice: 15, maxPrice: 25, priceCurrency: "GBP", categories: [{ level: 1, code: "tours" }, { level: 2, code: "walking-tours" }] }),
      await push("old", { title: { en: "Museum of old things" }, countryCode: "IT", cityName: "Rome", rating: 2.5 }),
      await push("gone", { title: { en: "Museum that was deleted" }, countryCode: "FR" }),
    ]);
    await partner.rest.post(`/api/supplier/${supplierId}/product/${ids.old}/deprecate`);
    await partner.rest.delete(`/api/supplier/${supplierId}/product/${ids.gone}`);
    const account = await t.stack.createAccount("CONSUMER", { country: "GB" });
    consumerToken = await signIn(t.stack, account.username, account.password);
    consumer = restClient(t.stack, consumerToken);
  });

  const search = (expression: string, extra = "", client?: RestClient) =>
    (client ?? consumer).get(`/api/consumer/products?Search=${encodeURIComponent(`(${expression}) AND bookingEngine:${partner.engineName}`)}${extra}`);
  const idsOf = (body: { items: { id: number }[] }) => body.items.map((item) => item.id);
  const key = (id: number) => Object.entries(ids).find(([, v]) => v === id)?.[0];

  describe("GET /api/consumer/products", () => {
    it.each([
      ["title:museum", ["louvre"]],
      ["title:hikes", ["hike"]],
      ["title:^matterhorn", ["hike"]],
      ["title:~musuem", ["louvre"]],
      ["title:~galcier", ["hike"]],
      ['title:"dinner cruise"', ["cruise"]],
      ["description:jewels", ["louvre"]],
      [`supplierExternalId:${"SUPPLIER"}`, []],
      ["taxonomy:activities-tickets-and-attractions-museums", ["louvre"]],
      ["taxonomy:activities-outdoor-activities", ["hike"]],
      ["taxonomy:activities-outdoor", []],
      ["rating:>4.5", ["louvre", "hike"]],
      ["minPrice:<50", ["louvre", "tower"]],
      ["countryCode:FR AND rating:>4.5", ["louvre"]],
      ["countryCode:CH OR cityName:london", ["hike", "tower"]],
      ["(cityName:paris OR cityName:zermatt) AND rating:<4.7", ["hike", "cruise"]],
      ["cityName:~zermat", ["hike"]],
      ["externalId:NO-SUCH", []],
      // Integer fields compared with numbers past 32 bits or with fractions, as they read (every product has priceLevel 3, 312 ratings).
      ["priceLevel:<1e20", ["louvre", "hike", "cruise", "tower"]],
      ["numberOfRatings:>1e20", []],
      ["numberOfRatings:>-1e20 AND priceLevel:>2.5 AND priceLevel:<3.5", ["louvre", "hike", "cruise", "tower"]],
      ["priceLevel:3.5", []],
    ])("%s finds %j", async (expression, expected) => {
      const response = await search(expression);
      expect(response.status).toBe(200);
      expect(idsOf(response.body).map(key).sort()).toEqual([...expected].sort());
    });

    it("matches a supplier by externalId, and by prefix", async () => {
      expect(idsOf((await search(`supplierExternalId:${supplierExternalId}`)).body).map(key).sort()).toEqual(["hike", "louvre", "tower"]);
      expect(idsOf((await search(`supplierExternalId:^${supplierExternalId.slice(0, 8)}`)).body).length).toBeGreaterThanOrEqual(3);
    });

    it("stems in the caller's language", async () => {
      const german = await fetch(`${t.stack.url}/api/consumer/products?Search=${encodeURIComponent(`title:Gletscherwanderung AND bookingEngine:${partner.engineName}`)}`, {
        headers: { authorization: `Bearer ${consumerToken}`, "accept-language": "de-CH" },
      });
      const body = (await german.json()) as { items: { id: number; title: string }[] };
      expect(body.items.map((i) => i.id)).toEqual([ids.hike]);
      expect(body.items[0].title).toBe("Matterhorn Gletscherwanderungen");
    });

    it("leaves deprecated and deleted products out", async () => {
      expect(idsOf((await search("title:museum OR title:things OR title:deleted")).body).map(key)).toEqual(["louvre"]);
    });

    it("orders the caller's country first, then by title; other fields and directions on request", async () => {
      const all = await search("rating:>0");
      expect(idsOf(all.body).map(key)).toEqual(["tower", "louvre", "hike", "cruise"]);
      const byRating = await search("rating:>0", "&sortingField=rating&sortingOrder=desc");
      expect(idsOf(byRating.body).map(key)).toEqual(["tower", "louvre", "hike", "cruise"]);
      const byPrice = await search("rating:>0", "&sortingField=minPrice&sortingOrder=DESC");
      expect(idsOf(byPrice.body).map(key)).toEqual(["tower", "hike", "cruise", "louvre"]);
    });

    it("pages: defaults, totals, the last page, past the last page", async () => {
      const first = await search("rating:>0");
      expect(first.body).toMatchObject({ pageNumber: 1, resultsPerPage: 100, totalResults: 4 });
      const second = await search("rating:>0", "&resultsPerPage=3&pageNumber=2");
      expect(second.body).toMatchObject({ pageNumber: 2, resultsPerPage: 3, totalResults: 4 });
      expect(idsOf(second.body).map(key)).toEqual(["cruise"]);
      const past = await search("rating:>0", "&resultsPerPage=3&pageNumber=3");
      expect(past.status).toBe(404);
      expect(past.body.code).toBe("NOT_FOUND");
      const none = await search("title:zeppelin");
      expect(none.status).toBe(200);
      expect(none.body).toMatchObject({ totalResults: 0, items: [] });
    });

    it("returns the consumer product record, in the caller's language, with externalClientId on the booking URL", async () => {
      const response = await consumer.get(`/api/consumer/products?Search=${encodeURIComponent(`title:louvre AND bookingEngine:${partner.engineName}`)}&externalClientId=Partner42`);
      const [item] = response.body.items;
      expect(item).toMatchObject({
        id: ids.louvre,
        title: "Louvre museum skip-the-line ticket",
        bookingEngine: partner.engineName,
        bookingEngineName: expect.any(String),
        bookingUrl: "https://guides.example/book/matterhorn?externalClientId=Partner42",
        onlineBookable: true,
        availableLanguages: ["en", "fr"],
        cityName: "Paris",
        countryName: "France",
        rating: 4.8,
        durationHours: 6,
        supplier: { id: supplierId, externalId: supplierExternalId, countryCode: "CH", countryName: "Switzerland", contact: expect.objectContaining({ email: "info@guides.example" }) },
        taxonomies: [[
          { id: "activities-tickets-and-attractions", name: "Tickets and attractions", level: 1 },
          { id: "activities-tickets-and-attractions-museums", name: "Museums", level: 2 },
        ]],
        descriptors: [],
      });
      expect(item.availabilityPeriods).toEqual({ weeklyPeriods: expect.any(Array) });
    });

    it.each([
      ["&resultsPerPage=0", "INVALID_PAGE_SIZE"],
      ["&resultsPerPage=-5", "INVALID_PAGE_SIZE"],
      ["&pageNumber=0", "INVALID_PAGE_NUMBER"],
      ["&pageNumber=-1", "INVALID_PAGE_NUMBER"],
      ["&sortingField=colour", "INVALID_SORTING_FIELD"],
      ["&sortingOrder=sideways", "INVALID_SORTING_ORDER"],
      ["&externalClientId=not%20alphanumeric!", "VALIDATION_FAILED"],
    ])("answers 400 for %s", async (extra, code) => {
      const response = await search("title:museum", extra);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(code);
    });

    it.each([
      ["museum", "Expected ':' after the field museum"],
      ["title:", "Expected a value"],
      ["colour:red", "Unknown field colour"],
      ["description:^mona", "Operator ^ does not apply to description"],
      ["rating:>high", "rating takes a number"],
      ["title:museum AND", "expression ends"],
    ])("answers 400 INVALID_SEARCH for %j, saying what and where", async (expression, message) => {
      const response = await consumer.get(`/api/consumer/products?Search=${encodeURIComponent(expression)}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("INVALID_SEARCH");
      expect(response.body.message).toContain(message);
      expect(response.body.message).toMatch(/at character \d+/);
    });

    it("answers 400 without Search, 401 without a token, 403 for a token without catalogue:read", async () => {
      const missing = await consumer.get("/api/consumer/products");
      expect(missing.status).toBe(400);
      expect(missing.body.details).toContainEqual(expect.objectContaining({ field: "Search", rule: "required" }));
      expect((await fetch(`${t.stack.url}/api/consumer/products?Search=title:x`)).status).toBe(401);
      const manageOnly = await contentPartner(t.stack, { scope: "catalogue:manage" });
      const forbidden = await manageOnly.rest.get("/api/consumer/products?Search=title:x");
      expect(forbidden.status).toBe(403);
    });

    it("answers the same search through GraphQL, as a connection paged by cursors both ways", async () => {
      const search = (variables: Record<string, unknown>) =>
        graphql(
          `${t.stack.url}/graphql`,
          consumerToken,
          `query ($q: String!, $first: Int, $after: String, $last: Int, $before: String) {
            searchProducts(query: $q, orderBy: { field: RATING, direction: DESC }, first: $first, after: $after, last: $last, before: $before) {
              totalCount { count precision } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id legacyResourceId title { text } } }
            }
          }`,
          { q: `countryCode:FR AND bookingEngine:${partner.engineName}`, ...variables },
        );
      const louvre = { id: toGlobalId("Product", ids.louvre), legacyResourceId: ids.louvre, title: { text: "Louvre museum skip-the-line ticket" } };
      const cruise = { id: toGlobalId("Product", ids.cruise), legacyResourceId: ids.cruise, title: { text: "Seine dinner cruise" } };
      const whole = (await search({})).body.data!.searchProducts;
      expect(whole.totalCount).toEqual({ count: 2, precision: "EXACT" });
      expect(whole.edges.map((edge: { node: unknown }) => edge.node)).toEqual([louvre, cruise]);
      expect(whole.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });

      const first = (await search({ first: 1 })).body.data!.searchProducts;
      expect(first.edges.map((edge: { node: unknown }) => edge.node)).toEqual([louvre]);
      expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, endCursor: first.edges[0].cursor });
      const second = (await search({ first: 1, after: first.pageInfo.endCursor })).body.data!.searchProducts;
      expect(second.edges.map((edge: { node: unknown }) => edge.node)).toEqual([cruise]);
      expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      const back = (await search({ last: 5, before: second.pageInfo.startCursor })).body.data!.searchProducts;
      expect(back.edges).toEqual(first.edges);
      expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });

      // Refused, each naming its argument: paging back without a place to start, a cursor of nothing, a page past the largest, an expression that does not parse.
      const refusals = await Promise.all([search({ last: 1 }), search({ first: 1, after: "bm90IGEgY3Vyc29y" }), search({ first: 1001 }), search({ q: "title" })]);
      expect(refusals.map((r) => r.body.errors?.[0].extensions)).toMatchObject([
        { code: "BAD_USER_INPUT", problems: [{ field: "before", rule: "required" }] },
        { code: "BAD_USER_INPUT", problems: [{ field: "after", rule: "cursor" }] },
        { code: "BAD_USER_INPUT", problems: [{ field: "first", rule: "range" }] },
        { code: "BAD_USER_INPUT", reason: "INVALID_SEARCH", problems: [{ field: "query", rule: "syntax" }] },
      ]);
    });
  });

  describe("Product.consumerRecord", () => {
    const TYPED = `legacyResourceId externalId createdAt updatedAt title { text } description { text } bookingEngine { name displayName } bookingLink(externalClientId: "abc")
      minPrice { amount currencyCode } maxPrice { amount currencyCode } priceCurrency durationHours onlineBookable { language bookable } availableLanguages cityName countryCode country { name { text } } rating descriptors { type reason }
      galleryImages { title url order } geoLocation { latitude longitude geoHash }
      supplier { legacyResourceId name externalId createdAt updatedAt countryCode countryName }
      taxonomies { slug level name { text } }`;

    it.each(["en", "fr", "de"])("is the typed product's fields as REST shows them, for Accept-Language %s", async (language) => {
      const response = await fetch(`${t.stack.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${consumerToken}`, "content-type": "application/json", "accept-language": language },
        body: JSON.stringify({
          query: `query ($s: String!) { searchProducts(query: $s, first: 100) { nodes { consumerRecord(externalClientId: "abc") ${TYPED} } } }`,
          variables: { s: `bookingEngine:${partner.engineName}` },
        }),
      });
      const { data, errors } = (await response.json()) as { data: { searchProducts: { nodes: Record<string, any>[] } }; errors?: unknown };
      expect(errors).toBeUndefined();
      const items = data.searchProducts.nodes;
      expect(items.length).toBeGreaterThanOrEqual(4);
      const rest = await fetch(`${t.stack.url}/api/consumer/products?Search=${encodeURIComponent(`bookingEngine:${partner.engineName}`)}&externalClientId=abc`, {
        headers: { authorization: `Bearer ${consumerToken}`, "accept-language": language },
      });
      expect(((await rest.json()) as { items: unknown[] }).items).toEqual(items.map((item) => item.consumerRecord));
      for (const { consumerRecord: record, ...typed } of items) {
        const bookableIn = new Map<string, boolean>(typed.onlineBookable.map(({ language, bookable }: { language: string; bookable: boolean }) => [language, bookable]));
        const onlineLanguage = [language, "en"].find((l) => bookableIn.has(l)) ?? typed.availableLanguages[0];
        const expected: Record<string, unknown> = {
          id: typed.legacyResourceId,
          externalId: typed.externalId,
          creationDate: typed.createdAt,
          updateDate: typed.updatedAt,
          title: typed.title.text,
          description: typed.description?.text,
          bookingEngine: typed.bookingEngine.name,
          bookingEngineName: typed.bookingEngine.displayName,
          bookingUrl: typed.bookingLink ?? undefined,
          minPrice: typed.minPrice ? Number(typed.minPrice.amount) : undefined,
          maxPrice: typed.maxPrice ? Number(typed.maxPrice.amount) : undefined,
          priceCurrency: typed.priceCurrency ?? undefined,
          durationHours: typed.durationHours ?? undefined,
          onlineBookable: Boolean(bookableIn.get(onlineLanguage)),
          availableLanguages: typed.availableLanguages,
          cityName: typed.cityName ?? undefined,
          countryCode: typed.countryCode ?? undefined,
          countryName: typed.country?.name.text ?? undefined,
          rating: typed.rating ?? undefined,
          descriptors: typed.descriptors,
          taxonomies: typed.taxonomies.map((path: { slug: string; level: number; name: { text: string } }[]) => path.map((node) => ({ id: node.slug, name: node.name.text, level: node.level }))),
        };
        for (const [field, value] of Object.entries(expected)) expect(record[field], field).toEqual(value);
        // Unknown fields are left out, never null: the record's own, its supplier's, its location's and images'.
        const nullFields = (value: Record<string, unknown>) => Object.keys(value).filter((key) => value[key] === null);
        expect([record, record.supplier, record.geoLocation ?? {}, ...record.galleryImages].flatMap(nullFields)).toEqual([]);
        expect(record.supplier).toMatchObject({ id: typed.supplier.legacyResourceId, name: typed.supplier.name, externalId: typed.supplier.externalId, countryCode: typed.supplier.countryCode, countryName: typed.supplier.countryName });
        expect(record.galleryImages).toEqual(typed.galleryImages.map((image: Record<string, unknown>) => Object.fromEntries(Object.entries(image).filter(([, v]) => v !== null))));
      }
    });
  });

  describe("GET /api/consumer/product/{productId}", () => {
    it("returns the consumer product record with id and productId", async () => {
      const response = await consumer.get(`/api/consumer/product/${ids.hike}?externalClientId=abc`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: ids.hike, productId: ids.hike, title: "Matterhorn glacier hiking tour", bookingUrl: expect.stringContaining("externalClientId=abc") });
    });

    it("flags a deprecated product, and answers 404 for a deleted or unknown one, 400 for a bad id", async () => {
      expect((await consumer.get(`/api/consumer/product/${ids.old}`)).body.descriptors).toEqual([{ type: "EXCLUDED", reason: "DEPRECATED" }]);
      expect((await consumer.get(`/api/consumer/product/${ids.gone}`)).status).toBe(404);
      expect((await consumer.get("/api/consumer/product/987654321")).status).toBe(404);
      expect((await consumer.get("/api/consumer/product/abc")).status).toBe(400);
      expect((await consumer.get(`/api/consumer/product/${ids.hike}?externalClientId=a-b`)).status).toBe(400);
    });
  });

  describe("GET /api/consumer/taxonomy", () => {
    it("returns the tree with uuids, parentUuid, nameFullPath, slugs and localizedName", async () => {
      const response = await fetch(`${t.stack.url}/api/consumer/taxonomy`, { headers: { authorization: `Bearer ${consumerToken}`, "accept-language": "fr" } });
      expect(response.status).toBe(200);
      const tree = ((await response.json()) as { "taxonomy-tree": any[] })["taxonomy-tree"];
      expect(tree.length).toBeGreaterThanOrEqual(8);
      const food = tree.find((node) => node.slug === "activities-food-and-drink");
      expect(food).toMatchObject({ name: "Food and drink", localizedName: "Gastronomie", family: "activities", version: 1, isCurrent: true, startDate: "2026-01-01" });
      expect(food.parentUuid).toBe(food.uuid);
      expect(food.nameFullPath).toBeUndefined();
      const wine = food.children.find((node: { slug: string }) => node.slug === "activities-food-and-drink-wine-tastings");
      expect(wine).toMatchObject({ parentUuid: `${food.uuid}#${wine.uuid}`, nameFullPath: "Food and drink#Wine tastings", localizedName: "Dégustations de vin", children: [] });
    });

    it("is a tree of Nodes in the graph: each node's parent and children, and node(id) for a current one", async () => {
      const answer = await graphql(`${t.stack.url}/graphql`, consumerToken, "{ taxonomy { id legacyResourceId slug family level parent { id } children { id slug level startDate parent { id slug } children { id } } } }");
      expect(answer.body.errors).toBeUndefined();
      const food = answer.body.data!.taxonomy.find((node: { slug: string }) => node.slug === "activities-food-and-drink");
      expect(food).toMatchObject({ id: toGlobalId("TaxonomyNode", food.legacyResourceId), family: "ACTIVITIES", level: 1, parent: null });
      const wine = food.children.find((node: { slug: string }) => node.slug === "activities-food-and-drink-wine-tastings");
      expect(wine).toEqual({ id: expect.any(String), slug: "activities-food-and-drink-wine-tastings", level: 2, startDate: "2026-01-01", parent: { id: food.id, slug: food.slug }, children: [] });
      const found = await graphql(`${t.stack.url}/graphql`, consumerToken, "query ($id: ID!) { node(id: $id) { ... on TaxonomyNode { slug parent { slug } } } }", { id: wine.id });
      expect(found.body.data).toEqual({ node: { slug: wine.slug, parent: { slug: food.slug } } });
      const unknown = await graphql(`${t.stack.url}/graphql`, consumerToken, "query ($id: ID!) { node(id: $id) { id } }", { id: toGlobalId("TaxonomyNode", "00000000-0000-4000-8000-000000000000") });
      expect(unknown.body).toMatchObject({ data: { node: null } });
    });
  });
});
