import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toGlobalId } from "../../core/global-id.js";
import { webhookEndpoints, webhookMessages } from "../../drizzle/schema.js";
import { createWebhookReceiver, type VerifiedDelivery } from "../../examples/webhook-receiver/receiver.js";
import { verifyWebhookSignature } from "../../subgraphs/common/webhooks/webhook.signature.js";
import { bookableAvailability, bookableProduct, consumer, newRef } from "../support/booking.js";
import { contentPartner, productRequest, supplierRequest } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

/**
 * Signed webhooks for booking status changes (issue 15, item 1), against the example receiver
 * that verifies each delivery with the Standard Webhooks library: retried on failures and
 * timeouts, in order per booking, none lost when a worker dies mid-delivery, logged per endpoint.
 */
describe("webhooks for booking status changes and product changes", () => {
  // A database of its own: under PostgreSQL another file's worker would otherwise take these
  // messages, and refuse their 127.0.0.1 receiver.
  const ctx = useStack({ ownDatabase: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "400", WORKER_LOOPS: "false" } });
  let receiver: Server;
  let receiverUrl: string;
  /** What the receiver answers next, per delivery; 204 once the script runs out. */
  const script: ("fail" | "hang" | "ok")[] = [];
  const received: (VerifiedDelivery & { signature: string; timestamp: number; body?: string })[] = [];
  let secret = "";

  beforeAll(async () => {
    // The secret is known only once the endpoint exists: the receiver reads it at each delivery.
    receiver = createWebhookReceiver({
      secret: () => secret,
      onDelivery: async (delivery, request) => {
        received.push({ ...delivery, signature: String(request.headers["webhook-signature"]), timestamp: Number(request.headers["webhook-timestamp"]) });
        const next = script.shift() ?? "ok";
        if (next === "hang") await sleep(1_000);
        return next === "fail" ? 500 : 204;
      },
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(() => {
    // The worker keeps connections alive; a receiver closes them itself.
    receiver.closeAllConnections();
    return new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  const gql = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
    const result = await graphql(`${ctx.stack.url}/graphql`, token, query, variables);
    expect(result.body.errors, JSON.stringify(result.body.errors)).toBeUndefined();
    return result.body.data as any;
  };
  const CREATE = `mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { secret webhookEndpoint { id legacyResourceId } userErrors { code } } }`;
  const deliver = () => ctx.stack.service.worker!.deliverWebhooks();
  /** As if the wait before the next try had passed (the schedule itself is asserted on the row). */
  const dueNow = (messageId: string) => ctx.database.db.update(webhookMessages).set({ nextAttemptAt: new Date() }).where(eq(webhookMessages.id, messageId));
  const messagesOf = async (endpointId: string) =>
    ctx.database.db.select().from(webhookMessages).where(eq(webhookMessages.endpointId, endpointId)).orderBy(webhookMessages.sequence);

  it("retries a failure and a timeout on the schedule, then delivers every status change of a booking in order, signed", async () => {
    const buyer = await consumer(ctx.stack);
    const created = await gql(buyer.token, `mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { secret webhookEndpoint { id legacyResourceId url eventTypes isEnabled } userErrors { code } } }`, {
      i: { url: receiverUrl, eventTypes: ["BOOKING_STATUS_CHANGED"], description: "bookings" },
    });
    expect(created.createWebhookEndpoint).toMatchObject({ webhookEndpoint: { url: receiverUrl, eventTypes: ["BOOKING_STATUS_CHANGED"], isEnabled: true }, userErrors: [] });
    secret = created.createWebhookEndpoint.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const { id: endpointNodeId, legacyResourceId: endpointId } = created.createWebhookEndpoint.webhookEndpoint;
    // The secret is shown once: nowhere in the endpoint, sealed in the database.
    expect(JSON.stringify(await gql(buyer.token, "{ webhookEndpoints { id url description isEnabled } }"))).not.toContain(secret);
    const [stored] = await ctx.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    expect(stored.sealedSecret).not.toContain(secret.slice(6));

    const { productId } = await bookableProduct(ctx.stack);
    const availability = await bookableAvailability(buyer.rest, productId, new Date(Date.now() + 9 * 86400_000).toISOString().slice(0, 10));
    const booking = (await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() })).body;
    expect((await buyer.rest.delete(`/booking-flow/v1/bookings/${booking.id}`)).status).toBe(200);
    const [onHold, cancelled] = await messagesOf(endpointId);
    expect([onHold.eventType, onHold.orderingKey, cancelled.orderingKey]).toEqual(["booking.status_changed", booking.id, booking.id]);

    script.push("fail", "hang");
    received.length = 0;
    await deliver();
    let [first, second] = await messagesOf(endpointId);
    // The second waits for the first: in order per booking.
    expect([first.status, first.attempts, first.lastResponseStatus, second.attempts]).toEqual(["PENDING", 1, 500, 0]);
    const wait1 = first.nextAttemptAt.getTime() - first.createdAt.getTime();
    expect(first.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(3_000);
    expect(first.nextAttemptAt.getTime() - Date.now()).toBeLessThan(6_100 + wait1 * 0);

    await dueNow(first.id);
    await deliver();
    [first] = await messagesOf(endpointId);
    expect(first.attempts).toBe(2);
    expect(first.lastError).toContain("no answer within 400 ms");
    // Five minutes, give or take a fifth.
    expect(first.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(4 * 60_000 - 1_000);
    expect(first.nextAttemptAt.getTime() - Date.now()).toBeLessThan(6 * 60_000);

    await dueNow(first.id);
    await deliver();
    [first, second] = await messagesOf(endpointId);
    expect([first.status, second.status]).toEqual(["DELIVERED", "DELIVERED"]);
    // The receiver verified every one with the Standard Webhooks library; the last two are the status changes, in order.
    const statuses = received.slice(-2).map((d) => [d.id, d.type, d.data.status, d.data.id]);
    expect(statuses).toEqual([
      [first.id, "booking.status_changed", "ON_HOLD", booking.id],
      [second.id, "booking.status_changed", "CANCELLED", booking.id],
    ]);
    // `data` is the booking as GET booking shows it: the webhook's body and REST's are built apart, and agree.
    const shown = (await buyer.rest.get(`/booking-flow/v1/bookings/${booking.id}`)).body;
    expect(received.at(-1)!.data).toEqual(shown);
    // Each try of a message carries the same webhook-id, so a receiver can deduplicate.
    expect(received.filter((d) => d.id === first.id)).toHaveLength(3);
    const body = JSON.stringify(first.payload);
    const last = received.at(-2)!;
    expect(verifyWebhookSignature(secret, first.id, last.timestamp, body, last.signature)).toBe(true);

    const log = await gql(
      buyer.token,
      `query($e: ID!) { node(id: $e) { ... on WebhookEndpoint { messages(first: 10) { totalCount { count precision } nodes { legacyResourceId status attemptCount lastResponseStatus attemptLog { number outcome responseStatus latencyMs error } } } } } }`,
      { e: endpointNodeId },
    );
    expect(log.node.messages.totalCount).toEqual({ count: 2, precision: "EXACT" });
    const firstLog = log.node.messages.nodes.find((m: { legacyResourceId: string }) => m.legacyResourceId === first.id);
    expect(firstLog.attemptLog.map((a: { outcome: string; responseStatus: number | null }) => [a.outcome, a.responseStatus])).toEqual([
      ["FAILED", 500],
      ["FAILED", null],
      ["DELIVERED", 204],
    ]);
    expect(firstLog.attemptLog[1].error).toContain("no answer");

    // The log pages by cursor both ways, newest first, and refuses a cursor it did not give.
    const page = async (args: string) =>
      (await gql(buyer.token, `query($e: ID!) { node(id: $e) { ... on WebhookEndpoint { messages(${args}) { edges { cursor node { legacyResourceId } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } } }`, { e: endpointNodeId })).node.messages;
    const newest = await page("first: 1");
    expect(newest.edges.map((edge: { node: { legacyResourceId: string } }) => edge.node.legacyResourceId)).toEqual([second.id]);
    expect(newest.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const older = await page(`first: 1, after: "${newest.pageInfo.endCursor}"`);
    expect(older.edges.map((edge: { node: { legacyResourceId: string } }) => edge.node.legacyResourceId)).toEqual([first.id]);
    expect(older.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = await page(`last: 5, before: "${older.pageInfo.startCursor}"`);
    expect(back.edges.map((edge: { node: { legacyResourceId: string } }) => edge.node.legacyResourceId)).toEqual([second.id]);
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const foreignCursor = await graphql(`${ctx.stack.url}/graphql`, buyer.token, `query($e: ID!) { node(id: $e) { ... on WebhookEndpoint { messages(first: 1, after: "${toGlobalId("WebhookMessage", randomUUID())}") { nodes { id } } } } }`, { e: endpointNodeId });
    expect(foreignCursor.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: "after", rule: "cursor" }] });
    // Counted for operators: two retried tries, then the deliveries.
    const counted = await ctx.stack.service.metrics.registry.getSingleMetricAsString("activities_webhook_deliveries_total");
    const count = (outcome: string) => Number(counted.split("\n").find((line) => line.includes(`outcome="${outcome}"`))?.split(" ").at(-1) ?? 0);
    expect(count("retried")).toBeGreaterThanOrEqual(2);
    expect(count("delivered")).toBeGreaterThanOrEqual(2);
  });

  it("loses nothing when a worker dies mid-delivery: its lease lapses and another delivers", async () => {
    const buyer = await consumer(ctx.stack);
    const created = await gql(buyer.token, CREATE, { i: { url: receiverUrl, eventTypes: ["BOOKING_STATUS_CHANGED"] } });
    secret = created.createWebhookEndpoint.secret;
    const { legacyResourceId: endpointId } = created.createWebhookEndpoint.webhookEndpoint;
    const { productId } = await bookableProduct(ctx.stack);
    const availability = await bookableAvailability(buyer.rest, productId, new Date(Date.now() + 10 * 86400_000).toISOString().slice(0, 10));
    await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() });
    const [message] = await messagesOf(endpointId);
    // A worker claimed it and died before answering.
    await ctx.database.db.update(webhookMessages).set({ leaseId: sql`gen_random_uuid()`, lockedUntil: new Date(Date.now() + 60_000) }).where(eq(webhookMessages.id, message.id));
    await deliver();
    expect((await messagesOf(endpointId))[0].status).toBe("PENDING");
    await ctx.database.db.update(webhookMessages).set({ lockedUntil: new Date(Date.now() - 1_000) }).where(eq(webhookMessages.id, message.id));
    await deliver();
    expect((await messagesOf(endpointId))[0]).toMatchObject({ status: "DELIVERED", attempts: 1 });
  });

  it("disables an endpoint failing for five days, says why, and takes it back when enabled again", async () => {
    const buyer = await consumer(ctx.stack);
    const created = await gql(buyer.token, CREATE, { i: { url: receiverUrl, eventTypes: ["BOOKING_STATUS_CHANGED"] } });
    secret = created.createWebhookEndpoint.secret;
    const { id: endpointNodeId, legacyResourceId: endpointId } = created.createWebhookEndpoint.webhookEndpoint;
    await ctx.database.db.update(webhookEndpoints).set({ failingSince: new Date(Date.now() - 5 * 86400_000) }).where(eq(webhookEndpoints.id, endpointId));
    const { productId } = await bookableProduct(ctx.stack);
    const availability = await bookableAvailability(buyer.rest, productId, new Date(Date.now() + 11 * 86400_000).toISOString().slice(0, 10));
    await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() });
    script.push("fail");
    await deliver();
    const endpoint = (await gql(buyer.token, "{ webhookEndpoints { id isEnabled disabledReason failingSince } }")).webhookEndpoints.find((e: { id: string }) => e.id === endpointNodeId);
    expect(endpoint).toMatchObject({ isEnabled: false });
    expect(endpoint.disabledReason).toContain("No delivery succeeded since");
    // Disabled: no delivery is tried, however due.
    const [message] = await messagesOf(endpointId);
    await dueNow(message.id);
    await deliver();
    expect((await messagesOf(endpointId))[0].attempts).toBe(1);

    const enabled = await gql(buyer.token, `mutation($id: ID!) { updateWebhookEndpoint(input: { webhookEndpointId: $id, isEnabled: true }) { webhookEndpoint { isEnabled disabledReason failingSince } userErrors { code } } }`, { id: endpointNodeId });
    expect(enabled.updateWebhookEndpoint).toEqual({ webhookEndpoint: { isEnabled: true, disabledReason: null, failingSince: null }, userErrors: [] });
    await deliver();
    expect((await messagesOf(endpointId))[0].status).toBe("DELIVERED");
  });

  it("redelivers a failed message, and signs with a rotated secret only", async () => {
    const buyer = await consumer(ctx.stack);
    const created = await gql(buyer.token, CREATE, { i: { url: receiverUrl, eventTypes: ["BOOKING_STATUS_CHANGED"] } });
    const oldSecret = created.createWebhookEndpoint.secret;
    const { id: endpointNodeId, legacyResourceId: endpointId } = created.createWebhookEndpoint.webhookEndpoint;
    const { productId } = await bookableProduct(ctx.stack);
    const availability = await bookableAvailability(buyer.rest, productId, new Date(Date.now() + 12 * 86400_000).toISOString().slice(0, 10));
    await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() });
    const [message] = await messagesOf(endpointId);
    await ctx.database.db.update(webhookMessages).set({ status: "FAILED", attempts: 8 }).where(eq(webhookMessages.id, message.id));

    const rotated = await gql(buyer.token, `mutation($id: ID!) { rotateWebhookEndpointSecret(input: { webhookEndpointId: $id }) { secret webhookEndpoint { id } userErrors { code } } }`, { id: endpointNodeId });
    expect(rotated.rotateWebhookEndpointSecret).toMatchObject({ webhookEndpoint: { id: endpointNodeId }, userErrors: [] });
    secret = rotated.rotateWebhookEndpointSecret.secret;
    expect(secret).not.toBe(oldSecret);
    const messageNodeId = toGlobalId("WebhookMessage", message.id);
    const again = await gql(buyer.token, `mutation($id: ID!) { redeliverWebhookMessage(input: { webhookMessageId: $id }) { webhookMessage { id legacyResourceId status } userErrors { code } } }`, { id: messageNodeId });
    expect(again.redeliverWebhookMessage).toEqual({ webhookMessage: { id: messageNodeId, legacyResourceId: message.id, status: "PENDING" }, userErrors: [] });
    received.length = 0;
    await deliver();
    expect((await messagesOf(endpointId))[0].status).toBe("DELIVERED");
    const delivery = received.find((d) => d.id === message.id)!;
    const body = JSON.stringify(message.payload);
    expect(verifyWebhookSignature(secret, message.id, delivery.timestamp, body, delivery.signature)).toBe(true);
    expect(verifyWebhookSignature(oldSecret, message.id, delivery.timestamp, body, delivery.signature)).toBe(false);
  });

  it("keeps each organisation's endpoints and logs to itself, and refuses bad settings naming the field", async () => {
    const owner = await consumer(ctx.stack);
    const stranger = await consumer(ctx.stack);
    const created = await gql(owner.token, CREATE, { i: { url: receiverUrl, eventTypes: ["BOOKING_STATUS_CHANGED"] } });
    const endpointId = created.createWebhookEndpoint.webhookEndpoint.id;
    expect((await gql(owner.token, "query($e: ID!) { node(id: $e) { id ... on WebhookEndpoint { url } } }", { e: endpointId })).node).toEqual({ id: endpointId, url: receiverUrl });
    expect((await gql(stranger.token, "{ webhookEndpoints { id } }")).webhookEndpoints).toEqual([]);
    // Another organisation's endpoint is as absent as one that never was: null, no error.
    expect((await gql(stranger.token, "query($e: ID!) { node(id: $e) { id ... on WebhookEndpoint { url } } }", { e: endpointId })).node).toBeNull();
    // `nodes` answers in the order asked, null for each id that names nothing the caller may see:
    // a missing endpoint, an id of a type that is no Node, one that does not decode, another organisation's.
    const strangers = await gql(stranger.token, CREATE, { i: { url: receiverUrl, eventTypes: ["BOOKING_STATUS_CHANGED"] } });
    const ids = [endpointId, toGlobalId("WebhookEndpoint", randomUUID()), toGlobalId("Nothing", 1), "not an id", strangers.createWebhookEndpoint.webhookEndpoint.id];
    const found = await gql(owner.token, "query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }", { ids });
    expect(found.nodes).toEqual([{ __typename: "WebhookEndpoint", id: endpointId }, null, null, null, null]);
    const tooMany = await graphql(`${ctx.stack.url}/graphql`, owner.token, "query($ids: [ID!]!) { nodes(ids: $ids) { id } }", { ids: Array.from({ length: 101 }, () => endpointId) });
    expect(tooMany.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT" });
    const deleted = await gql(stranger.token, `mutation($id: ID!) { deleteWebhookEndpoint(input: { webhookEndpointId: $id }) { deletedWebhookEndpointId userErrors { code field } } }`, { id: endpointId });
    expect(deleted.deleteWebhookEndpoint).toEqual({ deletedWebhookEndpointId: null, userErrors: [{ code: "NOT_FOUND", field: ["input", "webhookEndpointId"] }] });

    const bad = await gql(owner.token, `mutation { createWebhookEndpoint(input: { url: "ftp://example.org/x", eventTypes: [] }) { secret webhookEndpoint { id } userErrors { code field rule message } } }`);
    expect(bad.createWebhookEndpoint).toMatchObject({ secret: null, webhookEndpoint: null });
    expect(bad.createWebhookEndpoint.userErrors.map((e: { code: string; field: string[]; rule: string }) => [e.code, e.field, e.rule])).toEqual([
      ["VALIDATION_FAILED", ["input", "url"], "format"],
      ["VALIDATION_FAILED", ["input", "eventTypes"], "required"],
    ]);

    // Endpoints belong to an organisation: a platform account has none, and is told so in `errors` (its role, not its input).
    const platform = await ctx.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
    const refused = await graphql(`${ctx.stack.url}/graphql`, platform, "{ webhookEndpoints { id } }");
    expect(refused.body.errors?.[0].extensions?.code).toBe("FORBIDDEN");
    expect((await gql(owner.token, `mutation($id: ID!) { deleteWebhookEndpoint(input: { webhookEndpointId: $id }) { deletedWebhookEndpointId userErrors { code } } }`, { id: endpointId })).deleteWebhookEndpoint).toEqual({
      deletedWebhookEndpointId: endpointId,
      userErrors: [],
    });
    expect((await gql(owner.token, "query($e: ID!) { node(id: $e) { id } }", { e: endpointId })).node).toBeNull();
  });

  it("serves the same through REST under /api/webhooks, with the event types' wire names", async () => {
    const buyer = await consumer(ctx.stack);
    const created = await buyer.rest.post("/api/webhooks/endpoints", { url: receiverUrl, eventTypes: ["booking.status_changed"], description: "REST" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ secret: expect.stringMatching(/^whsec_/), endpoint: { url: receiverUrl, eventTypes: ["booking.status_changed"], enabled: true, description: "REST" } });
    secret = created.body.secret;
    const id = created.body.endpoint.id;
    expect((await buyer.rest.get("/api/webhooks/endpoints")).body.map((e: { id: string }) => e.id)).toEqual([id]);
    const unknownType = await buyer.rest.post("/api/webhooks/endpoints", { url: receiverUrl, eventTypes: ["booking.created"] });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.details).toEqual([expect.objectContaining({ field: "eventTypes[0]", rule: "enum" })]);

    const { productId } = await bookableProduct(ctx.stack);
    const availability = await bookableAvailability(buyer.rest, productId, new Date(Date.now() + 13 * 86400_000).toISOString().slice(0, 10));
    const booking = (await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() })).body;
    await deliver();
    const log = await buyer.rest.get(`/api/webhooks/endpoints/${id}/messages?first=10`);
    expect(log.status).toBe(200);
    expect(log.body[0]).toMatchObject({ eventType: "booking.status_changed", status: "DELIVERED", attempts: 1, lastResponseStatus: 204, payload: { type: "booking.status_changed", data: { id: booking.id, status: "ON_HOLD" } } });
    expect(log.body[0].attemptLog).toEqual([expect.objectContaining({ attempt: 1, outcome: "DELIVERED", responseStatus: 204 })]);
    expect((await buyer.rest.post(`/api/webhooks/messages/${log.body[0].id}/redeliver`, {})).body.status).toBe("PENDING");

    const rotated = await buyer.rest.post(`/api/webhooks/endpoints/${id}/secret`, {});
    expect(rotated.body.secret).not.toBe(secret);
    secret = rotated.body.secret;
    const disabled = await buyer.rest.put(`/api/webhooks/endpoints/${id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, disabledReason: "Disabled by the organisation" });
    expect((await buyer.rest.delete(`/api/webhooks/endpoints/${id}`)).status).toBe(204);
    expect((await buyer.rest.get(`/api/webhooks/endpoints/${id}/messages`)).status).toBe(404);
  });

  it("tells a content partner of every change of its engine's products, and only content partners may ask", async () => {
    const partner = await contentPartner(ctx.stack);
    const created = await partner.rest.post("/api/webhooks/endpoints", { url: receiverUrl, eventTypes: ["product.changed"] });
    expect(created.status).toBe(201);
    secret = created.body.secret;
    const supplier = await partner.rest.post("/api/supplier", supplierRequest());
    const product = await partner.rest.post(`/api/supplier/${supplier.body.id}/product`, productRequest());
    expect((await partner.rest.post(`/api/supplier/${supplier.body.id}/product/${product.body.id}/deprecate`, {})).status).toBe(200);
    received.length = 0;
    await deliver();
    const changes = received.filter((d) => d.type === "product.changed").map((d) => [d.data.productId, d.data.changeType, d.data.supplierId]);
    expect(changes).toEqual([
      [product.body.id, "NEW", supplier.body.id],
      [product.body.id, "DEPRECATED", supplier.body.id],
    ]);
    // Another engine's partner hears nothing of these products.
    const other = await contentPartner(ctx.stack);
    const otherEndpoint = await other.rest.post("/api/webhooks/endpoints", { url: receiverUrl, eventTypes: ["product.changed"] });
    await partner.rest.post(`/api/supplier/${supplier.body.id}/product/${product.body.id}/undeprecate`, {});
    expect((await messagesOf(otherEndpoint.body.endpoint.id)).length).toBe(0);

    const buyer = await consumer(ctx.stack);
    const refused = await buyer.rest.post("/api/webhooks/endpoints", { url: receiverUrl, eventTypes: ["product.changed"] });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([expect.objectContaining({ field: "eventTypes[0]", rule: "scope" })]);
    const partnerBooking = await partner.rest.post("/api/webhooks/endpoints", { url: receiverUrl, eventTypes: ["booking.status_changed"] });
    expect(partnerBooking.status).toBe(400);
  });
});
