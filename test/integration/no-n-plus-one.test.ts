import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookAttempts, webhookMessages } from "../../drizzle/schema.js";
import { openDatabase, type Database } from "../../drizzle/database.js";
import { SHARED_TAXONOMY_MS, sharedTaxonomy } from "../../subgraphs/catalogue/catalogue.loaders.js";
import { bookableAvailability, bookableProduct, consumer as bookingConsumer, newRef, validAnswers } from "../support/booking.js";
import { contentPartner, productRequest, restClient, supplierRequest } from "../support/catalogue.js";
import { graphql, startStack, type Stack } from "../support/stack.js";

/**
 * Lists resolve suppliers, engines, taxonomies and organisations in batches: the number of SQL
 * statements of a page must not grow with its size.
 */
describe("no N+1 queries", () => {
  const statements: string[] = [];
  let database: Database;
  let stack: Stack;
  let engine: string;
  let consumer: ReturnType<typeof restClient>;

  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: "memory", onQuery: (query) => statements.push(query) });
    // The worker's own statements would be counted with the request's.
    stack = await startStack({ database, env: { WORKER_LOOPS: "false" } });
    const partner = await contentPartner(stack);
    engine = partner.engineName;
    // Products spread over many suppliers, so that per-row lookups would show.
    for (let s = 0; s < 20; s++) {
      const supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
      for (let p = 0; p < 6; p++) await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ title: { en: `Batch ${s}-${p}`, de: `Stapel ${s}-${p}` } }));
    }
    consumer = restClient(stack, await stack.tokenFor("CONSUMER"));
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await database?.close();
  });

  const countFor = async (path: string) => {
    statements.length = 0;
    const response = await consumer.get(path);
    expect(response.status).toBe(200);
    // The account's limits are the edge's bookkeeping (a report every 200 ms), not the page's statements.
    return { count: statements.filter((statement) => !statement.includes('"account_limits"')).length, body: response.body };
  };

  it.each([
    ["search", (n: number) => `/api/consumer/products?Search=bookingEngine:${engine}&resultsPerPage=${n}`, (b: any) => b.items.length],
    ["change detection", (n: number) => `/api/consumer/diff/products?Search=bookingEngine:${engine}&resultsPerPage=${n}`, (b: any) => b.items.length],
    ["active import", (n: number) => `/content/v0/import/activities/active?bookingEngineList=${engine}&page[limit]=${n}`, (b: any) => b.data.length],
  ])("%s runs as many statements for 100 products as for 10", async (_name, path, size) => {
    // Warm-up: one-off work (the cursor secret, first loads) is not per product.
    await countFor(path(10));
    const small = await countFor(path(10));
    const large = await countFor(path(100));
    expect(size(small.body)).toBe(10);
    expect(size(large.body)).toBe(100);
    expect(large.count).toBe(small.count);
    expect(large.count).toBeLessThan(20);
  });

  it("looks up suppliers and engines for a page's records only when the operation asks for records", async () => {
    const token = await stack.tokenFor("CONSUMER");
    const search = async (selection: string) => {
      statements.length = 0;
      const answer = await graphql(`${stack.url}/graphql`, token, `query ($search: String!) { searchProducts(query: $search, first: 20) { nodes { ${selection} } } }`, { search: `bookingEngine:${engine}` });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data!.searchProducts.nodes).toHaveLength(20);
      // The loaders' batches by id (the search's own SQL names booking_engines in its filter).
      return statements.filter((statement) => /^select [^()]* from "(suppliers|booking_engines)" where "\1"\."id" (in|= any)/.test(statement)).length;
    };
    expect(await search("id")).toBe(0);
    expect(await search("consumerRecord")).toBeGreaterThanOrEqual(2);
  });

  it("reads a booked product's engine and supplier in the statement that reads the product", async () => {
    const { productId } = await bookableProduct(stack);
    const buyer = await bookingConsumer(stack);
    const dates = `/booking-flow/v1/products/${productId}/availabilities?startDate=2027-03-01&endDate=2027-03-07`;
    // The first request of an account signs in and reads what every later one finds cached.
    expect((await buyer.rest.get(dates)).status).toBe(200);
    statements.length = 0;
    const answer = await buyer.rest.get(dates);
    expect(answer.status).toBe(200);
    expect(answer.body.availabilityDates.length).toBeGreaterThan(0);
    const reads = statements.filter((statement) => /^select .* from "products" inner join "booking_engines" .* inner join "suppliers"/.test(statement));
    expect(reads).toHaveLength(1);
    expect(statements.filter((statement) => /^select [^()]* from "(suppliers|booking_engines)" where "\1"\."id" (in|= any)/.test(statement))).toEqual([]);
  });

  it("reads the current taxonomy once a minute in a process, not once a request, and hands it out frozen", async () => {
    const taxonomyReads = () => statements.filter((statement) => /from "taxonomy_nodes" where "taxonomy_nodes"\."is_current"/.test(statement)).length;
    const search = `/api/consumer/products?Search=bookingEngine:${engine}&resultsPerPage=20`;
    await countFor(search);
    expect(taxonomyReads()).toBeLessThanOrEqual(1);
    const { body } = await countFor(search);
    expect(body.items[0].taxonomies.flat().length).toBeGreaterThan(0);
    expect(taxonomyReads()).toBe(0);

    statements.length = 0;
    const later = await sharedTaxonomy(database, Date.now() + SHARED_TAXONOMY_MS + 1);
    expect(taxonomyReads()).toBe(1);
    const node = [...later.values()][0];
    expect(() => Object.assign(node, { slug: "changed" })).toThrow(TypeError);
    expect(() => Object.assign(node.name, { en: "changed" })).toThrow(TypeError);
  });

  it("reads a booking once in each answers and confirm step, sends its notices in one statement, and writes an availability's currency and quoted total in one statement", async () => {
    const { productId } = await bookableProduct(stack);
    const buyer = await bookingConsumer(stack);
    const chosen = await bookableAvailability(buyer.rest, productId, "2027-03-02");
    statements.length = 0;
    // A new availability's first prices: the currency is fixed and the total quoted.
    await bookableAvailability(buyer.rest, productId, "2027-03-03");
    expect(statements.filter((statement) => /^update "availabilities" set "(currency|quoted_total)"/.test(statement))).toHaveLength(1);

    // Notices, and whether a webhook endpoint wants the change, go in one statement.
    const notices = () => statements.filter((statement) => /pg_notify|webhook_endpoints/.test(statement));
    statements.length = 0;
    let booking = (await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: chosen.id, resellerRef: newRef() })).body;
    expect(notices()).toHaveLength(1);
    expect(notices()[0]).toMatch(/^select pg_notify\(.*exists \(select 1 from "webhook_endpoints"/s);
    const bookingReads = () => statements.filter((statement) => /^select .* from "bookings" where/.test(statement));
    // Follow-up questions appear with their parents' answers: a round for each level.
    while (!booking.isQuestionStepComplete) {
      statements.length = 0;
      const answered = await buyer.rest.put(`/booking-flow/v1/bookings/${booking.id}/questions`, validAnswers(booking));
      expect(answered.status).toBe(200);
      expect(bookingReads()).toHaveLength(1);
      expect(bookingReads()[0]).toMatch(/for update$/);
      booking = answered.body;
    }
    const created = booking;
    statements.length = 0;
    expect((await buyer.rest.post(`/booking-flow/v1/bookings/${created.id}/confirm`, {})).status).toBe(200);
    expect(bookingReads()).toHaveLength(1);
    // The status and the job's notice for the workers.
    expect(notices()).toHaveLength(1);
    expect(notices()[0]).toMatch(/^select pg_notify\(.*, pg_notify\(.*exists \(select 1 from "webhook_endpoints"/s);
  });

  it.each([
    ["search", `/api/consumer/products?Search=bookingEngine:ENGINE&resultsPerPage=50`],
    ["change detection", `/api/consumer/diff/products?Search=bookingEngine:ENGINE&resultsPerPage=50`],
    ["active import", `/content/v0/import/activities/active?bookingEngineList=ENGINE&page[limit]=50`],
  ])("%s takes its products' taxonomy nodes from their rows, not from a query of the links", async (_name, path) => {
    const { body } = await countFor(path.replace("ENGINE", engine));
    const records = body.items?.map((item: any) => item.product ?? item) ?? body.data;
    expect(records).toHaveLength(50);
    // Every product here is linked to outdoor/hiking (productRequest): the paths are there.
    for (const record of records) expect(record.taxonomies.flat().map((node: any) => node.id ?? node.slug)).toEqual(expect.arrayContaining([expect.stringContaining("hiking")]));
    expect(statements.filter((statement) => /from "product_taxonomies"/.test(statement))).toEqual([]);
  });

  it("reads a page of an endpoint's delivery log and every message's tries in as many statements for 30 messages as for 5", async () => {
    const buyer = await bookingConsumer(stack);
    const created = await buyer.rest.post("/api/webhooks/endpoints", { url: "https://hooks.example.com/batch", eventTypes: ["booking.status_changed"] });
    expect(created.status).toBe(201);
    const endpointId = created.body.endpoint.id as string;
    const now = Date.now();
    const messages = Array.from({ length: 30 }, (_, index) => ({
      id: randomUUID(),
      endpointId,
      eventType: "booking.status_changed",
      orderingKey: randomUUID(),
      payload: { type: "booking.status_changed", timestamp: new Date(now).toISOString(), data: { id: `booking-${index}`, status: "ON_HOLD" } },
      createdAt: new Date(now - index * 1_000),
      nextAttemptAt: new Date(now + 3_600_000),
      attempts: 2,
    }));
    await database.db.insert(webhookMessages).values(messages);
    await database.db.insert(webhookAttempts).values(messages.flatMap((message) => [1, 2].map((attempt) => ({ messageId: message.id, attempt, at: new Date(now), outcome: "FAILED", responseStatus: 500, latencyMs: 10 }))));
    const count = async (first: number) => {
      statements.length = 0;
      const response = await buyer.rest.get(`/api/webhooks/endpoints/${endpointId}/messages?first=${first}`);
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(first);
      expect(response.body.every((message: { attemptLog: unknown[] }) => message.attemptLog.length === 2)).toBe(true);
      return statements.filter((statement) => /webhook_attempts/.test(statement)).length;
    };
    await count(5);
    expect(await count(30)).toBe(await count(5));
    expect(await count(30)).toBe(1);
  });
});
