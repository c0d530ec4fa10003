import { languageObjectOf } from "../../rest-compat/language-objects.js";
import { beforeAll, describe, expect, it } from "vitest";
import { contentPartner, productRequest, restClient, signIn, supplierRequest, type RestClient } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

/** Bulk import (spec 3, REST paths 29 and 30). Every request is narrowed to this file's booking engine. */
describe("bulk import of activities", () => {
  const t = useStack();
  let partner: Partner;
  let agent: RestClient;
  let agentToken: string;
  let reseller: RestClient;
  let supplierId: number;
  let productIds: number[];
  const started = new Date(Date.now() - 1000).toISOString();

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    productIds = [];
    for (let i = 0; i < 25; i++) {
      const overrides = i % 5 === 0 ? { title: { fr: `Activité ${i}` }, countryCode: "FR" } : { title: { en: `Activity ${i}`, de: `Aktivität ${i}` } };
      productIds.push((await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ ...overrides, minPrice: 100, maxPrice: 150, estCommFrpricePerc: 0.2 }))).body.id);
    }
    const agentAccount = await t.stack.createAccount("CONSUMER", { model: "agent" });
    agentToken = await signIn(t.stack, agentAccount.username, agentAccount.password);
    agent = restClient(t.stack, agentToken);
    const resellerAccount = await t.stack.createAccount("CONSUMER", { model: "reseller" });
    reseller = restClient(t.stack, await signIn(t.stack, resellerAccount.username, resellerAccount.password));
  });

  const active = (query: string, client = agent) => client.get(`/content/v0/import/activities/active?bookingEngineList=${partner.engineName}${query}`);
  const inactive = (query: string, client = agent) => client.get(`/content/v0/import/activities/inactive?bookingEngineList=${partner.engineName}${query}`);
  const follow = (next: string, client = agent) => client.get(next.slice(next.indexOf("/content/")));

  describe("GET /content/v0/import/activities/active", () => {
    it("pages by cursor with links, 100 per page by default, the last page's next empty", async () => {
      const all = await active("");
      expect(all.status).toBe(200);
      expect(all.body.data.map((r: { id: number }) => r.id)).toEqual(productIds);
      expect(all.body.meta).toMatchObject({ estimatedCount: 25, nextCursor: "", links: { next: "" } });
      expect(all.body.meta.links.self).toContain("/content/v0/import/activities/active?bookingEngineList=");

      const first = await active("&page[limit]=10");
      expect(first.body.data).toHaveLength(10);
      expect(first.body.meta.nextCursor).not.toBe("");
      expect(first.body.meta.links.next).toContain(`cursor=${encodeURIComponent(first.body.meta.nextCursor)}`);
      const second = await follow(first.body.meta.links.next);
      const third = await follow(second.body.meta.links.next);
      expect(third.body.meta).toMatchObject({ nextCursor: "", links: { next: "" } });
      const seen = [first, second, third].flatMap((page) => page.body.data.map((r: { id: number }) => r.id));
      expect(seen).toEqual(productIds);
    });

    it("neither skips nor repeats an activity while the catalogue changes between pages", async () => {
      const fresh = await contentPartner(t.stack);
      const sid = (await fresh.rest.post("/api/supplier", supplierRequest())).body.id;
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) ids.push((await fresh.rest.post(`/api/supplier/${sid}/product`, productRequest())).body.id);
      const page1 = await agent.get(`/content/v0/import/activities/active?bookingEngineList=${fresh.engineName}&page[limit]=5`);
      // Between pages: an already-seen product changes, a later one is deleted, another deprecated, a new one arrives.
      await fresh.rest.put(`/api/supplier/${sid}/product/${ids[1]}`, productRequest({ title: { en: "changed" } }));
      await fresh.rest.delete(`/api/supplier/${sid}/product/${ids[7]}`);
      await fresh.rest.post(`/api/supplier/${sid}/product/${ids[9]}/deprecate`);
      const added = (await fresh.rest.post(`/api/supplier/${sid}/product`, productRequest())).body.id;
      const pages = [page1];
      while (pages.at(-1)!.body.meta.links.next) pages.push(await follow(pages.at(-1)!.body.meta.links.next));
      const seen = pages.flatMap((page) => page.body.data.map((r: { id: number }) => r.id));
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual([...ids.filter((id) => id !== ids[7] && id !== ids[9]), added]);
    });

    it("keeps the run's estimatedCount on every page, counting again only for another modifiedSince or a new run", async () => {
      const fresh = await contentPartner(t.stack);
      const sid = (await fresh.rest.post("/api/supplier", supplierRequest())).body.id;
      for (let i = 0; i < 6; i++) await fresh.rest.post(`/api/supplier/${sid}/product`, productRequest());
      const runStart = `/content/v0/import/activities/active?bookingEngineList=${fresh.engineName}&page[limit]=2`;
      const page1 = await agent.get(runStart);
      expect(page1.body.meta.estimatedCount).toBe(6);
      // Four more after the run began: its later pages still report the run's count.
      for (let i = 0; i < 4; i++) await fresh.rest.post(`/api/supplier/${sid}/product`, productRequest());
      const page2 = await follow(page1.body.meta.links.next);
      expect(page2.body.meta.estimatedCount).toBe(6);
      const page3 = await follow(page2.body.meta.links.next);
      expect(page3.body.meta.estimatedCount).toBe(6);
      // Another modifiedSince counts what it matches, and the cursor then carries that count.
      const since = new Date(Date.now() - 3_600_000).toISOString();
      const narrowed = await follow(`${page3.body.meta.links.next}&modifiedSince=${since}`);
      expect(narrowed.status).toBe(200);
      expect(narrowed.body.meta.estimatedCount).toBe(10);
      expect(narrowed.body.meta.links.next).toContain(`modifiedSince=${encodeURIComponent(since)}`);
      const last = await follow(narrowed.body.meta.links.next);
      expect(last.body.meta).toMatchObject({ estimatedCount: 10, nextCursor: "" });
      // A new run counts again.
      expect((await agent.get(runStart)).body.meta.estimatedCount).toBe(10);
    });

    it("gives prices by the caller's commercial model", async () => {
      const [asAgent] = (await active("&page[limit]=1")).body.data;
      expect(asAgent).toMatchObject({ minPrice: 100, maxPrice: 150, retailPrice: 100, estimatedCommissionRate: 0.2 });
      expect(asAgent.estimatedNetPrice).toBeUndefined();
      const [asReseller] = (await active("&page[limit]=1", reseller)).body.data;
      expect(asReseller).toMatchObject({ retailPrice: 100, estimatedNetPrice: 80 });
      expect(asReseller.estimatedCommissionRate).toBeUndefined();
    });

    it("returns the import record with supplier, gallery ids and full taxonomy nodes", async () => {
      const [record] = (await active("&page[limit]=1")).body.data;
      expect(record).toMatchObject({
        id: productIds[0],
        bookingEngine: partner.engineName,
        supplier: { id: supplierId, contact: { id: supplierId } },
        galleryImages: [{ id: `${productIds[0]}-1`, url: expect.any(String), order: 1 }],
        availableLanguages: ["fr"],
        countryName: "France",
      });
      expect(record.taxonomies[0][1]).toMatchObject({ level: 2, slug: "activities-outdoor-activities-hiking", family: "activities", value: 1, isCurrent: true, nameFullPath: "Outdoor activities#Hiking" });
      expect(record.taxonomies[0][1].parentUuid).toBe(`${record.taxonomies[0][0].uuid}#${record.taxonomies[0][1].uuid}`);
    });

    it("filters by country and language, with texts in the languages asked for", async () => {
      const french = await active("&countryCodeList=FR");
      expect(french.body.data.map((r: { id: number }) => r.id)).toEqual(productIds.filter((_, i) => i % 5 === 0));
      const german = await active("&languageList=de");
      expect(german.body.data).toHaveLength(20);
      expect(Object.keys(german.body.data[0].title)).toEqual(["de"]);
      expect(await active("&countryCodeList=FR,CH").then((r) => r.body.data.length)).toBe(25);
      expect((await active(`&modifiedSince=${new Date(Date.now() + 60_000).toISOString()}`)).body.data).toEqual([]);
      expect((await active(`&modifiedSince=${started}`)).body.data).toHaveLength(25);
    });

    it.each([
      ["&page[limit]=0", "PAGE_SIZE_TOO_SMALL"],
      ["&page[limit]=1001", "PAGE_SIZE_TOO_LARGE"],
      ["&modifiedSince=2026-11-01", "INVALID_MODIFIED_SINCE"],
      ["&modifiedSince=2026-11-01T10:00:00Z", "INVALID_MODIFIED_SINCE"],
      ["&countryCodeList=FR,XX", "INVALID_COUNTRY"],
      ["&languageList=english", "INVALID_LANGUAGE"],
      ["&cursor=abc.def", "INVALID_CURSOR"],
    ])("answers 400 for %s", async (query, code) => {
      const response = await active(query);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(code);
    });

    it("refuses a tampered cursor and one for other filters", async () => {
      const cursor: string = (await active("&page[limit]=5")).body.meta.nextCursor;
      const [body, mac] = cursor.split(".");
      const decoded = JSON.parse(Buffer.from(body, "base64url").toString());
      const forged = `${Buffer.from(JSON.stringify({ ...decoded, i: 0 })).toString("base64url")}.${mac}`;
      expect((await active(`&cursor=${encodeURIComponent(forged)}`)).body).toMatchObject({ code: "INVALID_CURSOR", message: expect.stringContaining("altered") });
      expect((await active(`&countryCodeList=FR&cursor=${encodeURIComponent(cursor)}`)).body.message).toContain("other filters");
      expect((await inactive(`&cursor=${encodeURIComponent(cursor)}`)).body.message).toContain("active import");
    });

    it("needs an account of an organisation", async () => {
      const operator = restClient(t.stack, await t.stack.tokenFor("OPERATOR"));
      const response = await active("", operator);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("ORGANISATION_REQUIRED");
      expect((await fetch(`${t.stack.url}/content/v0/import/activities/active`)).status).toBe(401);
    });
  });

  describe("activeActivities through GraphQL", () => {
    const PRODUCT = `legacyResourceId externalId title { translations { language text } } createdAt updatedAt bookingEngine { name displayName } minPrice { amount } retailPrice { amount }
      estimatedCommissionRate estimatedNetPrice { amount } duration durationHours galleryImages { url order } onlineBookable { language bookable } availableLanguages
      supplier { legacyResourceId externalId name createdAt updatedAt } country { name { text } } descriptors { type reason }
      taxonomies { id legacyResourceId slug level family parent { legacyResourceId name { translations { language text } } } name { text translations { language text } } }`;

    it("is a connection whose cursors carry the run's count, as REST's do, and page back as well as forward", async () => {
      const fresh = await contentPartner(t.stack);
      const sid = (await fresh.rest.post("/api/supplier", supplierRequest())).body.id;
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await fresh.rest.post(`/api/supplier/${sid}/product`, productRequest())).body.id);
      const page = (paging: Record<string, unknown>) =>
        graphql(
          `${t.stack.url}/graphql`,
          agentToken,
          `query ($filter: ActiveActivityFilter, $first: Int, $after: String, $last: Int, $before: String) {
            activeActivities(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
              totalCount { count precision } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { legacyResourceId } } records asOf
            }
          }`,
          { filter: { bookingEngineNames: [fresh.engineName] }, ...paging },
        );
      const first = (await page({ first: 2 })).body.data!.activeActivities;
      expect(first).toMatchObject({ totalCount: { count: 3, precision: "EXACT" }, pageInfo: { hasNextPage: true, hasPreviousPage: false, endCursor: first.edges[1].cursor } });
      expect(first.edges.map((edge: { node: { legacyResourceId: number } }) => edge.node.legacyResourceId)).toEqual(ids.slice(0, 2));
      expect(first.records.map((record: { id: number }) => record.id)).toEqual(ids.slice(0, 2));
      ids.push((await fresh.rest.post(`/api/supplier/${sid}/product`, productRequest())).body.id);
      const second = await page({ first: 2, after: first.pageInfo.endCursor });
      expect(second.body.errors).toBeUndefined();
      // The run keeps the count it began with, and its time; the product added meanwhile is read, as keyset paging promises.
      expect(second.body.data!.activeActivities).toMatchObject({ totalCount: { count: 3 }, asOf: first.asOf, pageInfo: { hasNextPage: false, hasPreviousPage: true } });
      expect(second.body.data!.activeActivities.records.map((record: { id: number }) => record.id)).toEqual(ids.slice(2, 4));
      const back = (await page({ last: 5, before: second.body.data!.activeActivities.pageInfo.startCursor })).body.data!.activeActivities;
      expect(back.edges.map((edge: { node: { legacyResourceId: number } }) => edge.node.legacyResourceId)).toEqual(ids.slice(0, 2));
      expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      const lastTwo = (await page({ last: 2 })).body.data!.activeActivities;
      expect(lastTwo.edges.map((edge: { node: { legacyResourceId: number } }) => edge.node.legacyResourceId)).toEqual(ids.slice(2, 4));
      // A cursor of other filters is refused naming the argument it came in.
      const other = await graphql(`${t.stack.url}/graphql`, agentToken, `query ($after: String) { activeActivities(filter: { countryCodes: ["FR"] }, first: 1, after: $after) { records } }`, { after: first.pageInfo.endCursor });
      expect(other.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "INVALID_CURSOR", problems: [{ field: "after" }] });
    });

    it("lists what left the catalogue as the products they were, from modifiedSince on", async () => {
      const fresh = await contentPartner(t.stack);
      const sid = (await fresh.rest.post("/api/supplier", supplierRequest())).body.id;
      const since = new Date(Date.now() - 1000).toISOString();
      const [gone, old] = [(await fresh.rest.post(`/api/supplier/${sid}/product`, productRequest())).body.id, (await fresh.rest.post(`/api/supplier/${sid}/product`, productRequest())).body.id];
      await fresh.rest.post(`/api/supplier/${sid}/product`, productRequest());
      await fresh.rest.delete(`/api/supplier/${sid}/product/${gone}`);
      await fresh.rest.post(`/api/supplier/${sid}/product/${old}/deprecate`, {});
      const inactive = (filter: Record<string, unknown>) =>
        graphql(`${t.stack.url}/graphql`, agentToken, `query ($filter: InactiveActivityFilter) { inactiveActivities(filter: $filter, first: 10) { totalCount { count } nodes { legacyResourceId deprecated } } }`, { filter });
      const answer = await inactive({ bookingEngineNames: [fresh.engineName], modifiedSince: since });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data!.inactiveActivities).toEqual({ totalCount: { count: 2 }, nodes: [{ legacyResourceId: gone, deprecated: false }, { legacyResourceId: old, deprecated: true }] });
      const unbounded = await inactive({ bookingEngineNames: [fresh.engineName] });
      expect(unbounded.body.errors?.[0].extensions).toMatchObject({ reason: "MODIFIED_SINCE_OR_CURSOR_REQUIRED", problems: [{ field: "filter.modifiedSince" }] });
    });

    it("serves records equal to the typed products, and equal to what REST answers, with optional arguments left out", async () => {
      // modifiedSince and after are left out, not sent as null: a left-out argument means null.
      const response = await graphql(`${t.stack.url}/graphql`, agentToken, `query ($engines: [String!]) { activeActivities(filter: { bookingEngineNames: $engines }, first: 25) { totalCount { count } pageInfo { hasNextPage } records nodes { ${PRODUCT} } } }`, {
        engines: [partner.engineName],
      });
      expect(response.body.errors).toBeUndefined();
      const { records, nodes: data, totalCount, pageInfo } = response.body.data!.activeActivities;
      expect({ totalCount, pageInfo }).toEqual({ totalCount: { count: 25 }, pageInfo: { hasNextPage: false } });
      expect(records).toEqual((await active("")).body.data);
      expect(records).toHaveLength(data.length);
      records.forEach((record: Record<string, any>, i: number) => {
        const product = data[i];
        expect(record).toMatchObject({
          id: product.legacyResourceId,
          externalId: product.externalId,
          title: languageObjectOf(product.title.translations),
          creationDate: product.createdAt,
          updateDate: product.updatedAt,
          bookingEngine: product.bookingEngine.name,
          bookingEngineName: product.bookingEngine.displayName,
          minPrice: Number(product.minPrice.amount),
          retailPrice: Number(product.retailPrice.amount),
          estimatedCommissionRate: Number(product.estimatedCommissionRate),
          durationHours: product.durationHours,
          onlineBookable: Object.fromEntries(product.onlineBookable.map(({ language, bookable }: { language: string; bookable: boolean }) => [language, bookable])),
          availableLanguages: product.availableLanguages,
          descriptors: product.descriptors,
          supplier: {
            id: product.supplier.legacyResourceId,
            externalId: product.supplier.externalId,
            name: product.supplier.name,
            creationDate: product.supplier.createdAt,
            updateDate: product.supplier.updatedAt,
            contact: { id: product.supplier.legacyResourceId },
          },
          countryName: product.country.name.text,
          galleryImages: product.galleryImages.map((image: { url: string; order: number | null }, position: number) => ({ id: `${product.legacyResourceId}-${image.order ?? position + 1}`, url: image.url, order: image.order ?? position + 1 })),
        });
        expect(record.estimatedNetPrice).toBeUndefined();
        expect(record.taxonomies.flat().map((node: Record<string, unknown>) => [node.uuid, node.slug, node.level, node.parentUuid, node.nameFullPath ?? null, node.name, node.nameTranslation])).toEqual(
          product.taxonomies.flat().map((node: Record<string, any>) => [
            node.legacyResourceId,
            node.slug,
            node.level,
            // Spec 3's encodings of the parent, from the graph's parent.
            node.parent ? `${node.parent.legacyResourceId}#${node.legacyResourceId}` : node.legacyResourceId,
            node.parent ? `${languageObjectOf(node.parent.name.translations).en}#${languageObjectOf(node.name.translations).en}` : null,
            node.name.text,
            languageObjectOf(node.name.translations),
          ]),
        );
      });
    });

    it("reads whole rows whenever the operation names the products, inside named and inline fragments too", async () => {
      // On the catalogue subgraph itself, as a subgraph role receives operations: the gateway
      // flattens fragments before it calls, but nothing obliges a caller of a subgraph to.
      const catalogue = t.stack.service.edge!.subgraphs.catalogue!;
      const response = await catalogue.server.executeOperation(
        {
          query: `query ($engines: [String!]) { activeActivities(filter: { bookingEngineNames: $engines }, first: 3) { ...Typed } }
                  fragment Typed on ActiveActivityConnection { ... on ActiveActivityConnection { edges { node { id subtitle { translations { language text } } shortDescription { translations { language text } } } } } }`,
          variables: { engines: [partner.engineName] },
        },
        { contextValue: await catalogue.createContext({ authorization: `Bearer ${agentToken}` }) },
      );
      const result = response.body.kind === "single" ? response.body.singleResult : undefined;
      expect(result?.errors).toBeUndefined();
      expect((result?.data?.activeActivities as { edges: unknown[] }).edges).toHaveLength(3);
    });

    it("keeps a record's texts to languageList, and names the country in the caller's language", async () => {
      const response = await graphql(`${t.stack.url}/graphql`, agentToken, `query ($engines: [String!]) { activeActivities(filter: { bookingEngineNames: $engines, languages: ["fr"], countryCodes: ["FR"] }) { records } }`, {
        engines: [partner.engineName],
      });
      expect(response.body.errors).toBeUndefined();
      const records = response.body.data!.activeActivities.records;
      expect(records).toHaveLength(5);
      for (const record of records) {
        expect(Object.keys(record.title)).toEqual(["fr"]);
        expect(Object.keys(record.onlineBookable)).toEqual(["fr"]);
        expect(record.countryName).toBe("France");
      }
      const german = await fetch(`${t.stack.url}/content/v0/import/activities/active?bookingEngineList=${partner.engineName}&countryCodeList=FR&page[limit]=1`, {
        headers: { authorization: `Bearer ${agentToken}`, "accept-language": "de" },
      });
      expect(((await german.json()) as { data: { countryName: string }[] }).data[0].countryName).toBe("Frankreich");
    });
  });

  describe("GET /content/v0/import/activities/inactive", () => {
    it("lists the ids of activities deleted or deprecated since modifiedSince, paged by cursor", async () => {
      await partner.rest.delete(`/api/supplier/${supplierId}/product/${productIds[3]}`);
      await partner.rest.post(`/api/supplier/${supplierId}/product/${productIds[4]}/deprecate`);
      const since = started;
      const response = await inactive(`&modifiedSince=${since}`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([{ id: productIds[3] }, { id: productIds[4] }]);
      const paged = await inactive(`&modifiedSince=${since}&page[limit]=1`);
      expect(paged.body.data).toEqual([{ id: productIds[3] }]);
      const rest = await follow(paged.body.meta.links.next);
      expect(rest.body.data).toEqual([{ id: productIds[4] }]);
      expect(rest.body.meta.links.next).toBe("");
      const cursorOnly = await inactive(`&cursor=${encodeURIComponent(paged.body.meta.nextCursor)}`);
      expect(cursorOnly.body.data).toEqual([{ id: productIds[4] }]);
    });

    it.each([
      ["", "MODIFIED_SINCE_OR_CURSOR_REQUIRED"],
      [`&modifiedSince=${new Date(Date.now() - 31 * 86_400_000).toISOString()}`, "MODIFIED_SINCE_TOO_OLD"],
      ["&modifiedSince=yesterday", "INVALID_MODIFIED_SINCE"],
      [`&modifiedSince=${new Date().toISOString()}&page[limit]=1001`, "PAGE_SIZE_TOO_LARGE"],
      [`&modifiedSince=${new Date().toISOString()}&page[limit]=0`, "PAGE_SIZE_TOO_SMALL"],
    ])("answers 400 for %j", async (query, code) => {
      const response = await inactive(query);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(code);
    });

    it("refuses a modifiedSince newer than the cursor's run", async () => {
      const paged = await inactive(`&modifiedSince=${started}&page[limit]=1`);
      const later = new Date(Date.now() + 60_000).toISOString();
      const response = await inactive(`&modifiedSince=${later}&cursor=${encodeURIComponent(paged.body.meta.nextCursor)}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("MODIFIED_SINCE_AFTER_CURSOR");
    });
  });
});
