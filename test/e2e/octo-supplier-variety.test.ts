import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bookings } from "../../drizzle/schema.js";
import { createOctoSupplier, type OctoSupplier } from "../../octo-supplier/octo-supplier.js";
import type { ProductFacts } from "../../subgraphs/booking/catalogue.facts.js";
import { EngineRefusal } from "../../subgraphs/booking/engines/booking.engine.js";
import { engineRegistry } from "../../subgraphs/booking/engines/engine.registry.js";
import { resetCircuitBreakers } from "../../subgraphs/common/octo/octo.client.js";
import { consumer, newRef, validAnswers, type BookingClient } from "../support/booking.js";
import { getJson, useStack } from "../support/stack.js";

const SUPPLIER_KEY = `octo-key-${randomUUID()}`;

/**
 * OCTO as suppliers speak it (issue 40), booked through the flow against the local supplier: a
 * product priced per booking, a booking answered with its price on its unit items only, the limits
 * of a booking an option and a departure set, a key the supplier refuses at any step, and the
 * customer's cancellation reason reaching the supplier.
 */
describe("booking what OCTO suppliers really sell", () => {
  // Its own database: on PostgreSQL another file's worker could run this file's confirmation jobs, and count their supplier calls in its own metrics.
  const ctx = useStack({ ownDatabase: true, env: { OCTO_CALL_TIMEOUT_MS: "2000" } });
  let supplier: OctoSupplier;
  let engine: string;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    supplier = await createOctoSupplier({ apiKey: SUPPLIER_KEY });
    const supplierUrl = await supplier.listen();
    const platform = await ctx.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
    engine = `OCTO_VARIETY_${randomUUID().slice(0, 6).toUpperCase()}`;
    const headers = { authorization: `Bearer ${platform}`, "content-type": "application/json" };
    const registered = await fetch(`${ctx.stack.url}/api/booking-engines/octo/${engine}`, { method: "PUT", headers, body: JSON.stringify({ baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, country: "FR" }) });
    expect(registered.status).toBe(200);
    const imported = await fetch(`${ctx.stack.url}/api/booking-engines/octo/${engine}/import`, { method: "POST", headers: { authorization: `Bearer ${platform}` } });
    const { supplierId } = (await imported.json()) as { supplierId: number };
    for (const product of (await getJson(`${ctx.stack.url}/api/supplier/${supplierId}/products`, platform)).body as { id: number; externalId: string }[]) ids[product.externalId] = product.id;
  });
  afterEach(() => {
    supplier.faults.rules.length = 0;
    resetCircuitBreakers();
  });
  afterAll(async () => supplier?.close());

  const inDays = (days: number) => new Date(Date.now() + days * 86400_000).toISOString().slice(0, 10);
  const flow = (product: string) => `/booking-flow/v1/products/${ids[product]}/availabilities`;
  const supplierBooking = (id: string) => supplier.state.get(id);
  const ourBookings = (availabilityId: string) => ctx.database.db.select().from(bookings).where(eq(bookings.availabilityId, availabilityId));

  /** Every option chosen (the supplier's option first, then a start time), prices asked in EUR. */
  async function choose(rest: BookingClient, product: string, date: string, choices: string[]) {
    let availability = await rest.get(`${flow(product)}/${date}/options`);
    expect(availability.status, JSON.stringify(availability.body)).toBe(200);
    for (const value of choices) {
      const next = availability.body.availabilityOptions.find((option: { selectedOptionId?: string }) => option.selectedOptionId === undefined);
      availability = await rest.put(`${flow(product)}/${availability.body.id}/options`, { optionId: next.id, value });
      expect(availability.status, JSON.stringify(availability.body)).toBe(200);
    }
    expect(availability.body.isOptionStepCompleted).toBe(true);
    const prices = await rest.get(`${flow(product)}/${availability.body.id}/prices?currencyCode=EUR`);
    expect(prices.status).toBe(200);
    return { id: availability.body.id as string, prices: prices.body };
  }
  const setQuantities = (rest: BookingClient, product: string, id: string, quantities: Record<string, number>) =>
    rest.put(`${flow(product)}/${id}/prices?currencyCode=EUR`, Object.entries(quantities).map(([unitId, value]) => ({ unitId, value })));

  async function statusAfterJobs(rest: BookingClient, id: string) {
    for (let i = 0; i < 100; i++) {
      const current = await rest.get(`/booking-flow/v1/bookings/${id}`);
      if (current.body.status !== "PENDING_CONFIRM") return current.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`booking ${id} stayed PENDING_CONFIRM`);
  }

  /** The engine's calls the metrics counted with this outcome. */
  async function counted(outcome: string): Promise<number> {
    const text = await ctx.stack.service.metrics.registry.getSingleMetricAsString("activities_engine_call_duration_seconds");
    return text
      .split("\n")
      .filter((line) => line.startsWith("activities_engine_call_duration_seconds_count{") && line.includes(`engine="${engine}"`) && line.includes(`outcome="${outcome}"`))
      .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
  }

  it("sells a product priced per booking at the booking's price, whatever the party, and holds and confirms it at that price", async () => {
    const buyer = await consumer(ctx.stack);
    const { id, prices } = await choose(buyer.rest, "seine-private-cruise", inDays(12), ["18:00"]);
    // The boat's price, shared by whoever comes: the first person pays it all.
    expect(prices.unitOptions.map((unit: { id: string; price: { retail: number } }) => [unit.id, unit.price.retail])).toEqual([["adult", 390], ["child", 390]]);
    const three = await setQuantities(buyer.rest, "seine-private-cruise", id, { adult: 2, child: 1 });
    expect(three.status).toBe(200);
    expect(three.body).toMatchObject({ totalPrice: { retail: 390, currency: "EUR" }, participants: 3, isPricingStepCompleted: true, minParticipants: 2, maxParticipants: 8 });
    const created = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: id, resellerRef: newRef() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.totalPrice).toEqual({ retail: 390, currency: "EUR" });
    expect(supplierBooking(created.body.id)).toMatchObject({ status: "ON_HOLD", productId: "seine-private-cruise", bookingRetail: 39000, pax: 3 });
    await buyer.rest.put(`/booking-flow/v1/bookings/${created.body.id}/questions`, validAnswers(created.body));
    await buyer.rest.post(`/booking-flow/v1/bookings/${created.body.id}/confirm`, {});
    expect(await statusAfterJobs(buyer.rest, created.body.id)).toMatchObject({ status: "CONFIRMED" });
    expect(supplierBooking(created.body.id).status).toBe("CONFIRMED");
  });

  it("takes a booking answered with no price anywhere as the departure's price when the product is priced per booking", async () => {
    const cruise = supplier.state.products.find((product) => product.id === "seine-private-cruise")!;
    // As OCTO's own mock supplier answers a per-booking product: a booking-level total of 0, unit items of 0.
    cruise.bookingPricing = "UNIT_ITEMS_ONLY";
    try {
      const buyer = await consumer(ctx.stack);
      const { id } = await choose(buyer.rest, "seine-private-cruise", inDays(13), ["20:30"]);
      await setQuantities(buyer.rest, "seine-private-cruise", id, { adult: 2 });
      const created = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: id, resellerRef: newRef() });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.totalPrice).toEqual({ retail: 390, currency: "EUR" });
    } finally {
      delete cruise.bookingPricing;
    }
  });

  it("reads a hold's total from its unit items when the booking-level price is 0, and still compares it with the selection", async () => {
    const buyer = await consumer(ctx.stack);
    const { id } = await choose(buyer.rest, "seine-day-pass", inDays(14), []);
    await setQuantities(buyer.rest, "seine-day-pass", id, { adult: 2, child: 1 });
    const created = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: id, resellerRef: newRef() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.totalPrice).toEqual({ retail: 55, currency: "EUR" });
    // The supplier's answer: a total of 0, and 22 + 22 + 11 on its unit items.
    expect(supplierBooking(created.body.id).unitItems.map((item) => item.retail)).toEqual([2200, 2200, 1100]);

    // A selection a euro below what the unit items say: the hold is let go, 9573.
    const adapter = engineRegistry.for(engine, "OCTO", ctx.stack.service.octo);
    const facts = { id: ids["seine-day-pass"], externalId: "seine-day-pass", bookingEngineName: engine, bookingEngineKind: "OCTO" } as ProductFacts;
    const setup = (await adapter.setupOf(ctx.database.db, facts))!;
    const now = new Date();
    const [slot] = await adapter.slots(ctx.database.db, facts, setup, inDays(15), now);
    const quoted = { ...setup, offeredStartTimes: [], units: setup.units.map((unit) => ({ ...unit, price: unit.price - 1 })) };
    const bookingId = randomUUID();
    const hold = adapter.upstream!.hold({ bookingId, product: facts, setup: quoted, slot, selections: {}, quantities: { adult: 2 }, resellerRef: newRef(), until: new Date(now.getTime() + 3_600_000), now });
    await expect(hold).rejects.toBeInstanceOf(EngineRefusal);
    await expect(hold).rejects.toMatchObject({ reason: "PRICES_CHANGED", message: expect.stringContaining("44 EUR for these tickets (was 42)") });
    expect(supplierBooking(bookingId).status).toBe("CANCELLED");
  });

  it("enforces an option's and a departure's limits of a booking before any hold, with the contract's codes", async () => {
    const buyer = await consumer(ctx.stack);
    // The group takes ten tickets a booking, its departures eight.
    const group = await choose(buyer.rest, "louvre-highlights", inDays(16), ["group", "11:00"]);
    const nine = await setQuantities(buyer.rest, "louvre-highlights", group.id, { adult: 9 });
    expect(nine.status).toBe(400);
    expect(nine.body).toMatchObject({ code: "INVALID_QUANTITIES", details: [expect.objectContaining({ rule: "maxUnits" })] });
    const eight = await setQuantities(buyer.rest, "louvre-highlights", group.id, { adult: 8 });
    expect(eight.body.isPricingStepCompleted).toBe(true);
    // The departure's limit falls to five before the booking: no hold is asked for, 9563.
    const option = supplier.state.products.find((product) => product.id === "louvre-highlights")!.options.find((candidate) => candidate.id === "group")!;
    option.departureMaxUnits = 5;
    try {
      const refused = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: group.id, resellerRef: newRef() });
      expect(refused.status).toBe(500);
      expect(refused.body).toMatchObject({ code: "NO_LONGER_AVAILABLE", errorCode: 9563 });
      expect(await ourBookings(group.id)).toHaveLength(0);
      expect(supplier.state.find({}).filter((booking) => booking.availabilityId.startsWith(inDays(16)))).toHaveLength(0);
    } finally {
      option.departureMaxUnits = 8;
    }

    // The boat: two to eight people, four children at most.
    const boat = await choose(buyer.rest, "seine-private-cruise", inDays(17), ["18:00"]);
    expect((await setQuantities(buyer.rest, "seine-private-cruise", boat.id, { child: 5 })).body).toMatchObject({ code: "INVALID_QUANTITIES", details: [expect.objectContaining({ rule: "maxQuantity" })] });
    expect((await setQuantities(buyer.rest, "seine-private-cruise", boat.id, { adult: 5, child: 4 })).body).toMatchObject({ code: "INVALID_QUANTITIES", details: expect.arrayContaining([expect.objectContaining({ rule: "maxParticipants" }), expect.objectContaining({ rule: "maxUnits" })]) });
    const alone = await setQuantities(buyer.rest, "seine-private-cruise", boat.id, { adult: 1 });
    expect(alone.body).toMatchObject({ isPricingStepCompleted: false, pricingIssues: expect.arrayContaining([expect.objectContaining({ rule: "minUnits" }), expect.objectContaining({ rule: "minParticipants" })]) });
    const incomplete = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: boat.id, resellerRef: newRef() });
    expect(incomplete.body).toMatchObject({ code: "AVAILABILITY_INCOMPLETE", errorCode: 9510 });
    expect((await setQuantities(buyer.rest, "seine-private-cruise", boat.id, { adult: 4, child: 4 })).body.isPricingStepCompleted).toBe(true);
    expect((await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: boat.id, resellerRef: newRef() })).status).toBe(201);
  });

  it("answers a key the supplier refuses with ENGINE_REFUSED at every step, never PRODUCT_NOT_BOOKABLE, and counts the refusals", async () => {
    const buyer = await consumer(ctx.stack);
    const date = inDays(18);
    const chosen = await choose(buyer.rest, "louvre-highlights", date, ["private", "10:00"]);
    await setQuantities(buyer.rest, "louvre-highlights", chosen.id, { adult: 2 });
    const before = await counted("refused");
    // The key is revoked: every call is refused with FORBIDDEN.
    supplier.faults.rules.push({ kind: "forbidden", times: 1000 });
    for (const path of [`${flow("louvre-highlights")}?startDate=${date}&endDate=${date}`, `${flow("louvre-highlights")}/${date}/options`]) {
      const refused = await buyer.rest.get(path);
      expect(refused.status, path).toBe(503);
      expect(refused.body).toMatchObject({ code: "ENGINE_REFUSED", message: expect.stringContaining("FORBIDDEN") });
    }
    const booked = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: chosen.id, resellerRef: newRef() });
    expect(booked.status).toBe(503);
    expect(booked.body.code).toBe("ENGINE_REFUSED");
    expect(await ourBookings(chosen.id)).toHaveLength(0);
    expect(await counted("refused")).toBeGreaterThanOrEqual(before + 3);
    // A refusal is the supplier's sound answer: the circuit stays closed, and a fixed key books at once.
    supplier.faults.rules.length = 0;
    const created = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: chosen.id, resellerRef: newRef() });
    expect(created.status).toBe(201);

    // A hold to extend when the key is refused again: the step is refused, and the booking and its hold stay as they were.
    const soon = new Date(Date.now() + 5 * 60_000);
    supplier.state.get(created.body.id).expiresAt = soon;
    await ctx.database.db.update(bookings).set({ holdExpiresAt: soon }).where(eq(bookings.id, created.body.id));
    supplier.faults.rules.push({ route: "POST /bookings/:uuid/extend", kind: "forbidden", times: 1 });
    const answered = await buyer.rest.put(`/booking-flow/v1/bookings/${created.body.id}/questions`, validAnswers(created.body));
    expect(answered.status).toBe(503);
    expect(answered.body.code).toBe("ENGINE_REFUSED");
    expect((await buyer.rest.get(`/booking-flow/v1/bookings/${created.body.id}`)).body).toMatchObject({ status: "ON_HOLD", isQuestionStepComplete: false });
    expect(supplierBooking(created.body.id)).toMatchObject({ status: "ON_HOLD", expiresAt: soon });
    expect((await buyer.rest.put(`/booking-flow/v1/bookings/${created.body.id}/questions`, validAnswers(created.body))).body.isQuestionStepComplete).toBe(true);
  });

  it("refuses a booking whose confirmation the supplier refuses the key for, after letting its hold go", async () => {
    const buyer = await consumer(ctx.stack);
    const chosen = await choose(buyer.rest, "louvre-highlights", inDays(19), ["group", "09:00"]);
    await setQuantities(buyer.rest, "louvre-highlights", chosen.id, { adult: 2 });
    const created = (await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: chosen.id, resellerRef: newRef() })).body;
    await buyer.rest.put(`/booking-flow/v1/bookings/${created.id}/questions`, validAnswers(created));
    const before = await counted("refused");
    supplier.faults.rules.push({ route: "POST /bookings/:uuid/confirm", kind: "forbidden", times: 1 });
    expect((await buyer.rest.post(`/booking-flow/v1/bookings/${created.id}/confirm`, {})).body.status).toBe("PENDING_CONFIRM");
    const ended = await statusAfterJobs(buyer.rest, created.id);
    expect(ended).toMatchObject({ status: "REJECTED", paymentStatus: "REFUND", rejectionReason: expect.stringMatching(/^ENGINE_REFUSED: .*FORBIDDEN.*its hold was let go$/) });
    // The places held for it are free again at the supplier.
    expect(supplierBooking(created.id)).toMatchObject({ status: "CANCELLED", cancellation: { reason: "The confirmation was refused" } });
    expect(await counted("refused")).toBe(before + 1);
  });

  it("passes the customer's cancellation reason on to the supplier, and refuses to cancel when the supplier refuses the key", async () => {
    const buyer = await consumer(ctx.stack);
    const held = await choose(buyer.rest, "louvre-highlights", inDays(20), ["group", "11:00"]);
    await setQuantities(buyer.rest, "louvre-highlights", held.id, { adult: 1 });
    const onHold = (await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: held.id, resellerRef: newRef() })).body;
    expect((await buyer.rest.delete(`/booking-flow/v1/bookings/${onHold.id}?cancellationReason=Plans%20changed`)).status).toBe(200);
    expect(supplierBooking(onHold.id)).toMatchObject({ status: "CANCELLED", cancellation: { reason: "Plans changed" } });

    const chosen = await choose(buyer.rest, "louvre-highlights", inDays(20), ["group", "09:00"]);
    await setQuantities(buyer.rest, "louvre-highlights", chosen.id, { adult: 1 });
    const created = (await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: chosen.id, resellerRef: newRef() })).body;
    await buyer.rest.put(`/booking-flow/v1/bookings/${created.id}/questions`, validAnswers(created));
    await buyer.rest.post(`/booking-flow/v1/bookings/${created.id}/confirm`, {});
    expect((await statusAfterJobs(buyer.rest, created.id)).status).toBe("CONFIRMED");
    supplier.faults.rules.push({ route: "POST /bookings/:uuid/cancel", kind: "forbidden", times: 1 });
    const refused = await buyer.rest.delete(`/booking-flow/v1/bookings/${created.id}?cancellationReason=Weather`);
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe("ENGINE_REFUSED");
    expect((await buyer.rest.get(`/booking-flow/v1/bookings/${created.id}`)).body.status).toBe("CONFIRMED");
    const cancelled = await buyer.rest.delete(`/booking-flow/v1/bookings/${created.id}?cancellationReason=Weather`);
    expect(cancelled.body.cancellationInformation).toMatchObject({ cancellationReason: "Weather" });
    expect(supplierBooking(created.id)).toMatchObject({ status: "CANCELLED", cancellation: { reason: "Weather" } });
  });
});
