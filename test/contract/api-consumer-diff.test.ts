import { toGlobalId } from "../../core/global-id.js";
import { beforeAll, describe, expect, it } from "vitest";
import { contentPartner, productRequest, restClient, supplierRequest, type RestClient } from "../support/catalogue.js";
import { graphql, ManualClock, useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

/** Change detection (spec 3, REST path 24) across create, update, deprecate, undeprecate and delete, on a controlled clock. */
describe("GET /api/consumer/diff/products", () => {
  const clock = new ManualClock(new Date("2030-03-10T12:00:00Z"));
  const t = useStack({ clock });
  let partner: Partner;
  let consumer: RestClient;
  let ids: Record<string, number>;

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    const supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const doomedSupplier = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const push = async (key: string, into = supplierId) => [key, (await partner.rest.post(`/api/supplier/${into}/product`, productRequest({ title: { en: `Diff ${key}` } }))).body.id] as const;
    ids = Object.fromEntries([await push("updated"), await push("flipped"), await push("deleted"), await push("untouched"), await push("orphan", doomedSupplier)]);
    clock.advance(24 * 3600);
    // Tokens live 300 s: sign in again after moving the clock a day on.
    partner = { ...partner, rest: restClient(t.stack, (await t.stack.login(partner.username, partner.password)).access_token) };
    await partner.rest.put(`/api/supplier/${supplierId}/product/${ids.updated}`, productRequest({ title: { en: "Diff updated" }, rating: 1 }));
    await partner.rest.post(`/api/supplier/${supplierId}/product/${ids.flipped}/deprecate`);
    clock.advance(60);
    await partner.rest.post(`/api/supplier/${supplierId}/product/${ids.flipped}/undeprecate`);
    await partner.rest.delete(`/api/supplier/${supplierId}/product/${ids.deleted}`);
    await partner.rest.delete(`/api/supplier/${doomedSupplier}`);
    consumer = restClient(t.stack, await t.stack.tokenFor("CONSUMER"));
  });

  const diff = (query: string) =>
    consumer.get(`/api/consumer/diff/products?Search=${encodeURIComponent(`bookingEngine:${partner.engineName}`)}&resultsPerPage=50${query}`);
  const keys = (body: { items: { product: { id: number } }[] }) =>
    body.items.map((item) => Object.entries(ids).find(([, id]) => id === item.product.id)?.[0]).sort();
  const logOf = (body: { items: { product: { id: number }; changeLog: { status: string }[] }[] }, key: string) =>
    body.items.find((item) => item.product.id === ids[key])?.changeLog.map((entry) => entry.status);

  it("without a date returns every live product with its whole change log (initial import)", async () => {
    const response = await diff("");
    expect(response.status).toBe(200);
    expect(keys(response.body)).toEqual(["flipped", "untouched", "updated"]);
    expect(logOf(response.body, "flipped")).toEqual(["NEW", "DEPRECATED", "UNDEPRECATED"]);
    expect(response.body).toMatchObject({ pageNumber: 1, resultsPerPage: 50, totalResults: 3 });
  });

  it("with a date returns the products changed since then, deleted ones included, each with the changes since then", async () => {
    const response = await diff("&date=2030-03-11");
    expect(keys(response.body)).toEqual(["deleted", "flipped", "orphan", "updated"]);
    expect(logOf(response.body, "updated")).toEqual(["UPDATED"]);
    expect(logOf(response.body, "flipped")).toEqual(["DEPRECATED", "UNDEPRECATED"]);
    expect(logOf(response.body, "deleted")).toEqual(["DELETED"]);
    const orphan = response.body.items.find((item: { product: { id: number } }) => item.product.id === ids.orphan);
    expect(orphan.product.supplier.id).toEqual(expect.any(Number));
    const updated = response.body.items.find((item: { product: { id: number } }) => item.product.id === ids.updated);
    expect(updated.product).toMatchObject({ title: "Diff updated", rating: 1 });
    expect(updated.changeLog[0].date).toBe("2030-03-11T12:00:00.000Z");
  });

  it.each([
    ["NEW", "2030-03-10", ["deleted", "flipped", "orphan", "untouched", "updated"]],
    ["NEW", "2030-03-11", []],
    ["UPDATED", "2030-03-11", ["updated"]],
    ["DEPRECATED", "2030-03-11", ["flipped"]],
    ["UNDEPRECATED", "2030-03-11", ["flipped"]],
    ["DELETED", "2030-03-11", ["deleted", "orphan"]],
    ["ALL", "2030-03-11", ["deleted", "flipped", "orphan", "updated"]],
  ])("filters changeType %s since %s", async (changeType, date, expected) => {
    const response = await diff(`&date=${date}&changeType=${changeType}`);
    expect(response.status).toBe(200);
    expect(keys(response.body)).toEqual(expected);
  });

  it("looks back at most 8 days, never into the future", async () => {
    expect((await diff("&date=2030-03-03")).status).toBe(200);
    const tooOld = await diff("&date=2030-03-02");
    expect(tooOld.status).toBe(400);
    expect(tooOld.body).toMatchObject({ code: "DATE_TOO_OLD", details: [{ field: "date" }] });
    expect((await diff("&date=2030-03-13")).body.code).toBe("DATE_IN_FUTURE");
    expect((await diff("&date=11-03-2030")).body.code).toBe("INVALID_DATE");
    expect((await diff("&date=2030-02-30")).body.code).toBe("INVALID_DATE");
    expect((await diff("&changeType=RENAMED")).status).toBe(400);
  });

  it("shares search's other statuses", async () => {
    expect((await consumer.get("/api/consumer/diff/products?resultsPerPage=0")).body.code).toBe("INVALID_PAGE_SIZE");
    expect((await consumer.get("/api/consumer/diff/products?pageNumber=0")).body.code).toBe("INVALID_PAGE_NUMBER");
    expect((await diff("&sortingField=nope")).body.code).toBe("INVALID_SORTING_FIELD");
    expect((await consumer.get("/api/consumer/diff/products?Search=broken")).body.code).toBe("INVALID_SEARCH");
    expect((await fetch(`${t.stack.url}/api/consumer/diff/products`)).status).toBe(401);
  });

  it("answers through GraphQL too", async () => {
    const token = await t.stack.tokenFor("CONSUMER");
    const response = await graphql(
      `${t.stack.url}/graphql`,
      token,
      `query ($s: String!) { productChanges(since: "2030-03-11", changeType: DELETED, query: $s) { totalCount { count precision } edges { node { id legacyResourceId } changes { type changedAt } } } }`,
      { s: `bookingEngine:${partner.engineName}` },
    );
    expect(response.body.data!.productChanges.totalCount).toEqual({ count: 2, precision: "EXACT" });
    const edges = response.body.data!.productChanges.edges as { node: { id: string; legacyResourceId: number }; changes: { type: string; changedAt: string }[] }[];
    for (const edge of edges) expect(edge.changes.map((change) => change.type)).toContain("DELETED");
    expect(edges.every((edge) => edge.changes.every((change) => change.changedAt >= "2030-03-11T00:00:00.000Z"))).toBe(true);
    const products = edges.map((edge) => edge.node);
    expect(products.map((p: { legacyResourceId: number }) => p.legacyResourceId).sort()).toEqual([ids.deleted, ids.orphan].sort());
    expect(products.map((p: { id: string }) => p.id).sort()).toEqual([ids.deleted, ids.orphan].map((id) => toGlobalId("Product", id)).sort());
  });

  it("lists the whole catalogue through GraphQL when date and search are left out, as their descriptions say", async () => {
    const token = await t.stack.tokenFor("CONSUMER");
    const response = await graphql(`${t.stack.url}/graphql`, token, `{ productChanges(first: 100) { totalCount { count } nodes { id } } }`);
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data!.productChanges.totalCount.count).toBeGreaterThanOrEqual(3);
    // A day of the wrong form is refused by the Date scalar, one too far back by the field, naming the argument.
    const malformed = await graphql(`${t.stack.url}/graphql`, token, `{ productChanges(since: "11-03-2030") { totalCount { count } } }`);
    expect(malformed.body.errors?.[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
    const tooOld = await graphql(`${t.stack.url}/graphql`, token, `{ productChanges(since: "2020-01-01") { totalCount { count } } }`);
    expect(tooOld.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "DATE_TOO_OLD", problems: [{ field: "since" }] });
  });
});
