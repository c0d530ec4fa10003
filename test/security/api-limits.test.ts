import { toGlobalId } from "../../core/global-id.js";
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { checkEdgeOperation } from "../../gateway/operation-limits.js";
import { bookableProduct, everyDay, familySetup } from "../support/booking.js";
import { templateBooking } from "../support/reporting.js";
import { restClient, signIn } from "../support/catalogue.js";
import { ManualClock, useStack, type Stack } from "../support/stack.js";
import { wsClient, wsOutcome } from "../support/ws-client.js";

interface CostExtension {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

interface GraphqlAnswer {
  status: number;
  retryAfter: string | null;
  body: { data?: unknown; errors?: { message: string; extensions: Record<string, unknown> }[]; extensions?: { cost?: CostExtension } };
}

async function graphqlAs(stack: Stack, token: string, query: string, variables: Record<string, unknown> = {}): Promise<GraphqlAnswer> {
  const response = await fetch(`${stack.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as GraphqlAnswer["body"] };
}

/** The same product twenty times over: every field answered, so the actual cost is the estimate and nothing is given back. */
const HEAVY = `query Heavy($id: ID!) { ${Array.from({ length: 20 }, (_, i) => `a${i}: product(id: $id) { id externalId supplier { legacyResourceId } cityName countryCode }`).join(" ")} }`;
const CHEAP = `query Cheap($id: ID!) { product(id: $id) { id } }`;

describe("cost budget per account (a leaky bucket, as Shopify's)", () => {
  const clock = new ManualClock(new Date("2026-11-28T09:00:00Z"));
  const handle = useStack({ clock, env: { API_COST_BUDGET: "100000", API_COST_RESTORE_PER_SECOND: "200", WORKER_LOOPS: "false" } });

  it("reports extensions.cost on every answer, refuses an operation the bucket cannot hold with 429 COST_BUDGET and Retry-After, and admits it again once the bucket drained", async () => {
    const { stack } = handle;
    const { productId, partner } = await bookableProduct(stack);
    const answers: GraphqlAnswer[] = [];
    for (let i = 0; i < 50; i++) {
      const answer = await graphqlAs(stack, partner.token, HEAVY, { id: toGlobalId("Product", productId) });
      answers.push(answer);
      if (answer.status !== 200) break;
    }
    const admitted = answers.filter((a) => a.status === 200);
    const refused = answers.at(-1)!;
    // Several fit (the first through Apollo Server's pipeline, the rest on the direct path), then one does not.
    expect(admitted.length).toBeGreaterThanOrEqual(2);
    const requested = admitted[0].body.extensions!.cost!.requestedQueryCost;
    // Each alias pays the root field's fixed cost again (ROOT_FIELD_COSTS).
    expect(requested).toBeGreaterThan(20 * 100);
    let available = 100000;
    for (const answer of admitted) {
      expect(answer.body.errors).toBeUndefined();
      const cost = answer.body.extensions!.cost!;
      expect(cost).toEqual({ requestedQueryCost: requested, actualQueryCost: expect.any(Number), throttleStatus: { maximumAvailable: 100000, currentlyAvailable: expect.any(Number), restoreRate: 200 } });
      expect(cost.actualQueryCost).toBeLessThanOrEqual(requested);
      expect(cost.throttleStatus.currentlyAvailable).toBeLessThan(available);
      available = cost.throttleStatus.currentlyAvailable;
    }
    expect(available).toBeLessThan(requested);
    expect(refused.status).toBe(429);
    expect(refused.body.errors![0].extensions).toMatchObject({ code: "TOO_MANY_REQUESTS", reason: "COST_BUDGET", retryAfterSeconds: Number(refused.retryAfter) });
    expect(refused.body.errors![0].message).toContain(`estimated cost is ${requested}`);
    expect(refused.body.extensions!.cost).toMatchObject({ requestedQueryCost: requested, actualQueryCost: null, throttleStatus: { currentlyAvailable: available } });
    expect(Number(refused.retryAfter)).toBe(Math.ceil((requested - available) / 200));

    // What still fits passes: the budget refuses by cost, not the account outright. Three
    // seconds restore 600 points, so the cheap operation (one product's fixed cost and its id)
    // fits whatever the heavy ones left.
    clock.advance(3);
    const cheap = await graphqlAs(stack, partner.token, CHEAP, { id: toGlobalId("Product", productId) });
    expect(cheap.status).toBe(200);
    expect(cheap.body.extensions!.cost!.requestedQueryCost).toBeLessThanOrEqual(available + 600);
    // Another account has a bucket of its own.
    const other = await bookableProduct(stack);
    expect((await graphqlAs(stack, other.partner.token, HEAVY, { id: toGlobalId("Product", other.productId) })).status).toBe(200);
    // The bucket drains at the restore rate (the cheap operation took some of it since the refusal).
    clock.advance(Number(refused.retryAfter) + Math.ceil(cheap.body.extensions!.cost!.actualQueryCost! / 200) + 1);
    expect((await graphqlAs(stack, partner.token, HEAVY, { id: toGlobalId("Product", productId) })).status).toBe(200);
  });

  it("charges an answer that held more than its estimate what it held, and gives back what an answer did not use", async () => {
    const { stack } = handle;
    // The estimate assumes 10 images a product (LIST_SIZES): this one has 15.
    const images = Array.from({ length: 15 }, (_, i) => ({ title: `View ${i}`, url: `https://img.example/view-${i}.jpg`, order: i + 1 }));
    const { productId, partner } = await bookableProduct(stack, familySetup(), everyDay(), { galleryImage: images });
    const first = await graphqlAs(stack, partner.token, CHEAP, { id: toGlobalId("Product", productId) });
    const larger = await graphqlAs(stack, partner.token, `query Images($id: ID!) { product(id: $id) { galleryImages { url title } } }`, { id: toGlobalId("Product", productId) });
    expect(larger.body.errors).toBeUndefined();
    const cost = larger.body.extensions!.cost!;
    expect(cost.actualQueryCost).toBeGreaterThan(cost.requestedQueryCost);
    // The clock stands still: the bucket lost exactly the actual cost, past the estimate charged before.
    expect(first.body.extensions!.cost!.throttleStatus.currentlyAvailable - cost.throttleStatus.currentlyAvailable).toBe(cost.actualQueryCost);
    // A page that came back short is charged what it held, less than its estimate.
    const short = await graphqlAs(stack, partner.token, `{ suppliers(bookingEngineName: "NO_SUCH_ENGINE", first: 100) { nodes { id } } }`);
    const shortCost = short.body.extensions!.cost!;
    expect(shortCost.actualQueryCost).toBeLessThan(shortCost.requestedQueryCost);
    expect(cost.throttleStatus.currentlyAvailable - shortCost.throttleStatus.currentlyAvailable).toBe(shortCost.actualQueryCost);
  });

  it("refuses a REST path with its contract's error body, 429 TOO_MANY_REQUESTS with reason COST_BUDGET, Retry-After and the RateLimit headers", async () => {
    const { stack } = handle;
    const { supplierId, partner } = await bookableProduct(stack);
    const path = `/api/supplier/${supplierId}`;
    let last;
    let answered = 0;
    for (let i = 0; i < 300; i++) {
      last = await partner.rest.get(path);
      if (last.status !== 200) break;
      expect(last.body.id).toBe(supplierId);
      answered++;
    }
    expect(answered).toBeGreaterThan(0);
    expect(last!.status).toBe(429);
    expect(last!.body).toEqual({ status: 429, code: "TOO_MANY_REQUESTS", reason: "COST_BUDGET", message: expect.stringMatching(/^The operation's estimated cost is \d+; \d+ of the account's 100000 points are free/), requestId: expect.any(String) });
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.headers.get("ratelimit-policy")).toBe("1000000;w=60");
  });

  it("charges graphql-ws operations to the same bucket, with extensions.cost in their results", async () => {
    const { stack } = handle;
    const { productId, partner } = await bookableProduct(stack);
    const client = wsClient(stack, partner.token);
    try {
      let refusedWith: Record<string, unknown> | undefined;
      let costs = 0;
      for (let i = 0; i < 50 && !refusedWith; i++) {
        const outcome = await wsOutcome(client, HEAVY, { id: toGlobalId("Product", productId) });
        const errors = outcome.result?.errors ?? outcome.errors;
        if (errors?.length) refusedWith = errors[0].extensions as Record<string, unknown>;
        else if ((outcome.result?.extensions as { cost?: CostExtension } | undefined)?.cost?.requestedQueryCost) costs++;
      }
      expect(costs).toBeGreaterThanOrEqual(2);
      expect(refusedWith).toMatchObject({ code: "TOO_MANY_REQUESTS", reason: "COST_BUDGET", retryAfterSeconds: expect.any(Number) });
      // The HTTP path sees the same bucket.
      expect((await graphqlAs(stack, partner.token, HEAVY, { id: toGlobalId("Product", productId) })).status).toBe(429);
    } finally {
      await client.dispose();
    }
  });
});

describe("subscriptions on the cost budget", () => {
  const clock = new ManualClock(new Date("2026-11-28T09:00:00Z"));
  // Room for the booking flow's own steps, whose estimates count every question a booking could ask.
  const handle = useStack({ clock, env: { API_COST_BUDGET: "300000", API_COST_RESTORE_PER_SECOND: "200", WORKER_LOOPS: "false" } });
  const WATCH = "subscription ($id: ID!) { bookingStatusChanged(bookingId: $id) { id status } }";

  /** The first message of a subscription, or the errors it was refused with. */
  const firstOf = (client: ReturnType<typeof wsClient>, bookingId: string) =>
    new Promise<{ data?: unknown; refused?: readonly { extensions?: Record<string, unknown> }[] }>((resolve) => {
      client.subscribe({ query: WATCH, variables: { id: toGlobalId("Booking", bookingId) } }, { next: (message) => resolve({ data: message.data }), error: (errors) => resolve({ refused: errors as never }), complete: () => undefined });
    });

  it("charges a subscription's selection when it is made, and refuses one the account's bucket cannot hold", async () => {
    const { stack } = handle;
    const { bookingId, productId, buyer } = await templateBooking(stack);
    const checked = checkEdgeOperation(stack.service.edge!.graph.clientSchema, { query: WATCH, variables: { id: toGlobalId("Booking", bookingId) } }, stack.config.graphql);
    if ("errors" in checked) throw new Error(JSON.stringify(checked.errors));
    const before = (await graphqlAs(stack, buyer.token, CHEAP, { id: toGlobalId("Product", productId) })).body.extensions!.cost!;
    const client = wsClient(stack, buyer.token);
    try {
      expect(await firstOf(client, bookingId)).toMatchObject({ data: { bookingStatusChanged: { id: toGlobalId("Booking", bookingId) } } });
      const after = (await graphqlAs(stack, buyer.token, CHEAP, { id: toGlobalId("Product", productId) })).body.extensions!.cost!;
      // What the subscription took, between two equal reads: its whole estimate.
      expect(before.throttleStatus.currentlyAvailable - after.throttleStatus.currentlyAvailable - after.actualQueryCost!).toBe(checked.cost);
      // Spent down with heavy reads, the bucket has no room for another subscription.
      for (let i = 0; i < 50; i++) if ((await graphqlAs(stack, buyer.token, HEAVY, { id: toGlobalId("Product", productId) })).status === 429) break;
      let refused = await firstOf(client, bookingId);
      for (let i = 0; i < 50 && refused.data; i++) {
        await graphqlAs(stack, buyer.token, CHEAP, { id: toGlobalId("Product", productId) });
        refused = await firstOf(client, bookingId);
      }
      expect(refused.refused?.[0].extensions).toMatchObject({ code: "TOO_MANY_REQUESTS", reason: "COST_BUDGET", retryAfterSeconds: expect.any(Number) });
    } finally {
      await client.dispose();
    }
  });
});

describe("operations in flight per account", () => {
  const handle = useStack({ env: { API_MAX_IN_FLIGHT_PER_ACCOUNT: "2", WORKER_LOOPS: "false" } });

  /** A request whose head has arrived (so it is admitted) and whose body never finishes. */
  function heldRequest(stack: Stack, token: string): Promise<Socket> {
    const { hostname, port } = new URL(stack.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(`POST /graphql HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":`);
        // The admission runs once the head is parsed; a moment later the place is held.
        setTimeout(() => resolve(socket), 200);
      });
      socket.on("error", reject);
    });
  }

  it("refuses an account's request beyond its cap with 429 IN_FLIGHT and Retry-After, lets other accounts through, and frees the place when a request ends", async () => {
    const { stack } = handle;
    const account = await stack.createAccount("CONSUMER");
    const token = await signIn(stack, account.username, account.password);
    const rest = restClient(stack, token);
    const held = [await heldRequest(stack, token), await heldRequest(stack, token)];
    try {
      const refused = await rest.get("/api/me");
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ status: 429, code: "TOO_MANY_REQUESTS", reason: "IN_FLIGHT" });
      expect(refused.headers.get("retry-after")).toBe("1");
      const graphql = await graphqlAs(stack, token, "{ me { id } }");
      expect(graphql.status).toBe(429);
      expect(graphql.body.errors![0].extensions).toEqual({ code: "TOO_MANY_REQUESTS", reason: "IN_FLIGHT" });
      expect((await restClient(stack, await stack.tokenFor("CONSUMER")).get("/api/me")).status).toBe(200);
      held[0].destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await rest.get("/api/me")).status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});
