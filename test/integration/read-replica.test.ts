import { toGlobalId } from "../../core/global-id.js";
import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database, type StatementConnections } from "../../drizzle/database.js";
import { bookableAvailability, bookableProduct, consumer, everyDay, newRef, type BookableProduct } from "../support/booking.js";
import { productRequest, restClient, signIn } from "../support/catalogue.js";
import { graphql, openTestDatabase, startStack, type Stack } from "../support/stack.js";

/** PostgreSQL itself: DATABASE_DIRECT_URL when the suite runs through a pooler, else DATABASE_URL. */
const server = process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL;

/**
 * DATABASE_READ_URL with a second database standing in for the replica: a copy of the primary
 * made from it as a template, so that every product is in both, and then left behind, as a
 * replica that lags is. What a read shows tells where it ran; the statements' connections say so too.
 */
describe("a database without DATABASE_READ_URL (the embedded one always)", () => {
  it("has no replica: the reads that tolerate lag read it, as every other read does", async () => {
    const database = await openTestDatabase();
    try {
      const view = database.forAccount("an account");
      expect(view.forLaggingReads).toBe(view);
      expect(view.primary).toBe(view);
      expect(database.replicaState()).toBeUndefined();
    } finally {
      await database.close();
    }
  });
});

if (server) describe("a read replica for the reads that tolerate lag", { timeout: 120_000 }, () => {
  const id = randomUUID().replace(/-/g, "").slice(0, 10);
  const [primaryName, replicaName] = [`primary_${id}`, `replica_${id}`];
  const urlOf = (name: string) => {
    const url = new URL(server!);
    url.pathname = `/${name}`;
    return url.toString();
  };
  let admin: postgres.Sql;
  let database: Database;
  let stack: Stack;
  let product: BookableProduct;
  const ran: StatementConnections[] = [];
  /** Which connections an operation's statements ran on. */
  async function connectionsOf(run: () => Promise<unknown>): Promise<Set<StatementConnections>> {
    ran.length = 0;
    await run();
    return new Set(ran);
  }

  beforeAll(async () => {
    admin = postgres(server!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${primaryName}`);
    const seeding = await openDatabase({ databaseUrl: urlOf(primaryName), maxConnections: 4 });
    const seeded = await startStack({ database: seeding, env: { WORKER_LOOPS: "false" } });
    product = await bookableProduct(seeded, undefined, undefined, { title: { en: "Replica lighthouse walk" } });
    await seeded.close();
    await seeding.close();
    // A copy of the primary as it is now: the stand-in replica, which will not see what follows.
    await admin.unsafe(`create database ${replicaName} template ${primaryName}`);
    database = await openDatabase({ databaseUrl: urlOf(primaryName), readUrl: urlOf(replicaName), maxConnections: 4, onQuery: (_query, connections) => connections && ran.push(connections) });
    stack = await startStack({ database, env: { WORKER_LOOPS: "false" } });
    // The partner signs in again, on this stack.
    const { partner: earlier, supplierId, productId } = product;
    const partner = { ...earlier, rest: restClient(stack, await signIn(stack, earlier.username, earlier.password)) };
    product = { ...product, partner };
    // Changed on the primary only: the replica has not caught up with it.
    const renamed = await partner.rest.put(`/api/supplier/${supplierId}/product/${productId}`, productRequest({ title: { en: "Primary harbour walk" }, availabilityPeriods: everyDay() }));
    expect(renamed.status).toBe(200);
  });

  afterAll(async () => {
    await stack?.close();
    await database?.close();
    await admin?.unsafe(`drop database if exists ${replicaName} with (force)`);
    await admin?.unsafe(`drop database if exists ${primaryName} with (force)`);
    await admin?.end();
  });

  it("serves a consumer's product read and search from the replica, the second time too (in-process texts run without Apollo's pipeline then)", async () => {
    expect(database.replicaState()).toEqual({ usable: true, lagSeconds: 0 });
    const buyer = await consumer(stack);
    for (const time of [1, 2]) {
      const where = await connectionsOf(async () => {
        const read = await buyer.rest.get(`/api/consumer/product/${product.productId}`);
        expect(read.status, `read ${time}`).toBe(200);
        expect(read.body.title).toBe("Replica lighthouse walk");
        const found = await buyer.rest.get(`/api/consumer/products?Search=${encodeURIComponent("title:lighthouse")}`);
        expect(found.body.items.map((item: { id: number }) => item.id)).toContain(product.productId);
      });
      // The caller's own account, its limits and its organisation's facts are the edge's and stay on the primary.
      expect(where, `read ${time}`).toContain("lagging reads");
    }
  });

  it("keeps on the primary what a caller reads after writing it: a partner's own products", async () => {
    const where = await connectionsOf(async () => {
      const listed = await product.partner.rest.get(`/api/supplier/${product.supplierId}/products/`);
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).toContain("Primary harbour walk");
    });
    expect(where).not.toContain("lagging reads");
  });

  it("runs the booking flow on the primary only, with the replica serving beside it", async () => {
    const buyer = await consumer(stack);
    const where = await connectionsOf(async () => {
      const availability = await bookableAvailability(buyer.rest, product.productId, "2027-06-01");
      const created = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() });
      expect(created.status).toBe(201);
    });
    expect(where).not.toContain("lagging reads");
  });

  it("reads a caller's booking reports on the replica's connections", async () => {
    const buyer = await consumer(stack);
    const where = await connectionsOf(async () => {
      const reports = await buyer.rest.get("/reporting/v1/bookings");
      expect(reports.status).toBe(200);
      expect(reports.body.data).toEqual([]);
    });
    expect(where).toContain("lagging reads");
  });

  it("sends a query that mixes a lag-tolerant field with another to the primary", async () => {
    const token = (await consumer(stack)).token;
    const where = await connectionsOf(async () => {
      const answer = await graphql(`${stack.url}/graphql`, token, `query { product(id: "${toGlobalId("Product", product.productId)}") { title { text } } me { id } }`);
      expect(answer.body.data?.product.title.text, JSON.stringify(answer.body)).toBe("Primary harbour walk");
    });
    expect(where).not.toContain("lagging reads");
  });

  const metrics = async () => (await fetch(`${stack.url}/metrics`)).text();

  it("sends the reads to the primary while the replica cannot be reached, says why, and shows it in the metrics", async () => {
    expect(await metrics()).toMatch(/^activities_database_replica_serving(\{[^}]*\})? 1$/m);
    expect(await metrics()).toMatch(/^activities_database_replica_lag_seconds(\{[^}]*\})? 0$/m);
    await admin.unsafe(`drop database ${replicaName} with (force)`);
    await expect.poll(() => database.replicaState()?.usable, { timeout: 10_000, interval: 200 }).toBe(false);
    expect(await metrics()).toMatch(/^activities_database_replica_serving(\{[^}]*\})? 0$/m);
    // prom-client writes NaN as "Nan", which Prometheus's parser reads as NaN (it ignores the case).
    expect(await metrics()).toMatch(/^activities_database_replica_lag_seconds(\{[^}]*\})? nan$/im);
    expect(database.replicaState()?.reason).toMatch(/^unreachable \(.*does not exist/);
    const buyer = await consumer(stack);
    const where = await connectionsOf(async () => {
      const read = await buyer.rest.get(`/api/consumer/product/${product.productId}`);
      expect(read.status).toBe(200);
      expect(read.body.title).toBe("Primary harbour walk");
    });
    expect(where).not.toContain("lagging reads");
  });
});
