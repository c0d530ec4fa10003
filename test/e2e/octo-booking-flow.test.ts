import { toGlobalId } from "../../core/global-id.js";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { createClient, type Client, type ExecutionResult } from "graphql-ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { bookings } from "../../drizzle/schema.js";
import { createOctoSupplier, type OctoSupplier } from "../../octo-supplier/octo-supplier.js";
import type { ProductFacts } from "../../subgraphs/booking/catalogue.facts.js";
import { EngineRefusal } from "../../subgraphs/booking/engines/booking.engine.js";
import { engineRegistry } from "../../subgraphs/booking/engines/engine.registry.js";
import { resetCircuitBreakers } from "../../subgraphs/common/octo/octo.client.js";
import { pdfLines } from "../support/pdf-text.js";
import { consumer, newRef, validAnswers, validGraphAnswers, type BookingClient } from "../support/booking.js";
import { getJson, graphql, useStack } from "../support/stack.js";

const SUPPLIER_KEY = `octo-key-${randomUUID()}`;

/**
 * Products of an OCTO engine booked through the flow, on REST and GraphQL, against the local OCTO
 * supplier (issue 14, item 3): the supplier's options, times and prices; the hold, confirmation
 * and cancellation in its system under our booking id; its refusals and failures as the flow's
 * documented answers, with nothing half done.
 */
describe("booking an OCTO engine's products", () => {
  const ctx = useStack({ env: { OCTO_CALL_TIMEOUT_MS: "800" } });
  let supplier: OctoSupplier;
  let louvre: number;
  let seine: number;
  let engine: string;
  let supplierUrl: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    supplier = await createOctoSupplier({ apiKey: SUPPLIER_KEY, hangMs: 3_000 });
    supplierUrl = await supplier.listen();
    const platform = await ctx.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
    engine = `OCTO_BOOK_${randomUUID().slice(0, 6).toUpperCase()}`;
    const headers = { authorization: `Bearer ${platform}`, "content-type": "application/json" };
    const registered = await fetch(`${ctx.stack.url}/api/booking-engines/octo/${engine}`, { method: "PUT", headers, body: JSON.stringify({ baseUrl: supplierUrl, apiKey: SUPPLIER_KEY, country: "FR" }) });
    expect(registered.status).toBe(200);
    const imported = await fetch(`${ctx.stack.url}/api/booking-engines/octo/${engine}/import`, { method: "POST", headers: { authorization: `Bearer ${platform}` } });
    const { supplierId } = (await imported.json()) as { supplierId: number };
    const products = (await getJson(`${ctx.stack.url}/api/supplier/${supplierId}/products`, platform)).body as { id: number; externalId: string }[];
    louvre = products.find((p) => p.externalId === "louvre-highlights")!.id;
    seine = products.find((p) => p.externalId === "seine-day-pass")!.id;
  });
  afterEach(() => {
    supplier.faults.rules.length = 0;
    supplier.faults.latencyMs = 0;
    resetCircuitBreakers();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await supplier?.close();
  });

  /** A date a week ahead, in Paris: every departure of it is on sale. */
  const inAWeek = (days = 7) => new Date(Date.now() + days * 86400_000).toISOString().slice(0, 10);
  const flow = (productId: number) => `/booking-flow/v1/products/${productId}/availabilities`;

  /** Options (the supplier's option, then its start time) and tickets, through REST. */
  async function chooseLouvre(rest: BookingClient, date: string, option: "group" | "private", time: string, adults: number) {
    const created = await rest.get(`${flow(louvre)}/${date}/options`);
    expect(created.status).toBe(200);
    const first = created.body.availabilityOptions[0];
    // The supplier's options come first (only those with a departure that day): their times differ.
    expect(first.optionChoices).toEqual({ group: "Small group", private: "Private tour" });
    const chosen = await rest.put(`${flow(louvre)}/${created.body.id}/options`, { optionId: first.id, value: option });
    expect(chosen.status).toBe(200);
    const timeOption = chosen.body.availabilityOptions[1];
    // The group's 14:00 departure is sold out: never offered.
    expect(Object.keys(timeOption.optionChoices)).toEqual(option === "group" ? ["09:00", "11:00"] : ["10:00", "15:00"]);
    const timed = await rest.put(`${flow(louvre)}/${created.body.id}/options`, { optionId: timeOption.id, value: time });
    expect(timed.body.isOptionStepCompleted).toBe(true);
    const prices = await rest.get(`${flow(louvre)}/${created.body.id}/prices?currencyCode=EUR`);
    const priced = await rest.put(`${flow(louvre)}/${created.body.id}/prices?currencyCode=EUR`, [{ unitId: "adult", value: adults }]);
    expect(priced.status).toBe(200);
    return { id: created.body.id as string, units: prices.body.unitOptions as { id: string; price: { retail: number } }[], total: priced.body.totalPrice };
  }

  const supplierBooking = (id: string) => supplier.state.get(id);
  const ourBooking = async (id: string) => (await ctx.database.db.select().from(bookings).where(eq(bookings.id, id)))[0];
  async function statusAfterJobs(rest: BookingClient, id: string, until: (status: string) => boolean) {
    for (let i = 0; i < 100; i++) {
      const current = await rest.get(`/booking-flow/v1/bookings/${id}`);
      if (until(current.body.status)) return current.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`booking ${id} never reached the status`);
  }

  it("runs the REST flow: the supplier's options, times and prices per option, its hold, its confirmation and its cancellation", async () => {
    const buyer = await consumer(ctx.stack);
    const date = inAWeek();
    const dates = await buyer.rest.get(`${flow(louvre)}?startDate=${date}&endDate=${date}`);
    expect(dates.body.availabilityDates).toEqual([date]);

    const privateTour = await chooseLouvre(buyer.rest, date, "private", "10:00", 2);
    // The private tour's own prices (OCTO prices units per option): 145 and 90 euros.
    expect(privateTour.units.map((u) => [u.id, u.price.retail])).toEqual([["adult", 145], ["child", 90]]);
    expect(privateTour.total).toEqual({ retail: 290, currency: "EUR" });

    const resellerRef = newRef();
    const created = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: privateTour.id, resellerRef });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "ON_HOLD", totalPrice: { retail: 290, currency: "EUR" } });
    // Our booking id is the supplier's uuid: its places are held there, at its price.
    const held = supplierBooking(created.body.id);
    expect(held).toMatchObject({ status: "ON_HOLD", optionId: "private", resellerReference: resellerRef, pax: 2 });
    expect(held.availabilityId).toMatch(new RegExp(`^${date}T10:00:00[+-]\\d{2}:\\d{2}$`));
    // The same request again is the same booking, not a second hold.
    const again = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: privateTour.id, resellerRef });
    expect(again.body.id).toBe(created.body.id);
    expect(supplier.state.find({ resellerReference: resellerRef })).toHaveLength(1);

    // The supplier confirms with a contact: the lead traveller's answers.
    const questions = created.body.questions.customer.map((q: { id: string; dataFormat?: string }) => q.dataFormat ?? q.id);
    expect(questions).toHaveLength(3);
    const answered = await buyer.rest.put(`/booking-flow/v1/bookings/${created.body.id}/questions`, validAnswers(created.body));
    expect(answered.body.isQuestionStepComplete).toBe(true);
    expect((await buyer.rest.post(`/booking-flow/v1/bookings/${created.body.id}/confirm`, {})).body.status).toBe("PENDING_CONFIRM");
    const confirmed = await statusAfterJobs(buyer.rest, created.body.id, (status) => status !== "PENDING_CONFIRM");
    const upstream = supplierBooking(created.body.id);
    expect(confirmed).toMatchObject({ status: "CONFIRMED", paymentStatus: "PAID", bookingEngineDetails: { bookingCode: upstream.supplierReference } });
    // The private tour asks its own question besides the product's; each answer reaches the supplier as its value.
    expect(created.body.questions.booking.map((q: { questionChoices: Record<string, string> }) => q.questionChoices)).toEqual([
      { no: "No", yes: "Yes" },
      { "en-GB": "English", "fr-FR": "French", "de-DE": "German" },
    ]);
    expect(upstream.questionAnswers).toEqual([
      { questionId: "step-free-access", value: "no" },
      { questionId: "guide-language", value: "en-GB" },
    ]);
    expect(upstream.status).toBe("CONFIRMED");
    expect(upstream.contact.emailAddress).toContain("@");
    expect(upstream.contact.firstName).toBeTruthy();
    // No PDF from this supplier for the tour: our voucher, carrying the code its ticket is scanned by.
    expect(confirmed.voucherUrl).toContain(`/booking-flow/v1/vouchers/${created.body.id}.pdf`);
    const voucher = new Uint8Array(await (await fetch(confirmed.voucherUrl)).arrayBuffer());
    expect((await pdfLines(voucher)).join("\n")).toContain(upstream.supplierReference);

    // Cancelled here only once cancelled there (the tour's cutoff is 24 hours; it is a week away).
    const cancelled = await buyer.rest.delete(`/booking-flow/v1/bookings/${created.body.id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.booking ?? cancelled.body).toBeTruthy();
    expect(supplierBooking(created.body.id).status).toBe("CANCELLED");
    expect((await ourBooking(created.body.id)).status).toBe("CANCELLED");
  });

  it("asks the supplier's required questions in the flow's language and confirms with the answers, the booking's and each ticket's", async () => {
    const buyer = await consumer(ctx.stack);
    const french = { "accept-language": "fr" };
    const send = (method: string, path: string, body?: unknown) => buyer.rest.send(method, path, body, french);
    const date = inAWeek(16);
    const created = await send("GET", `${flow(louvre)}/${date}/options`);
    const id = created.body.id;
    const option = await send("PUT", `${flow(louvre)}/${id}/options`, { optionId: created.body.availabilityOptions[0].id, value: "group" });
    await send("PUT", `${flow(louvre)}/${id}/options`, { optionId: option.body.availabilityOptions[1].id, value: "11:00" });
    await send("GET", `${flow(louvre)}/${id}/prices?currencyCode=EUR`);
    const priced = await send("PUT", `${flow(louvre)}/${id}/prices?currencyCode=EUR`, [{ unitId: "adult", value: 1 }, { unitId: "child", value: 1 }]);
    expect(priced.body.totalPrice).toEqual({ retail: 100, currency: "EUR" });

    const booking = await send("POST", "/booking-flow/v1/bookings", { availabilityId: id, resellerRef: newRef() });
    expect(booking.status).toBe(201);
    // The product's required question (not its optional one, nor the private tour's), in French.
    expect(booking.body.questions.booking).toEqual([
      expect.objectContaining({ question: "Une personne de votre groupe a-t-elle besoin d'un accès sans marches ?", dataType: "OPTIONS", questionChoices: { no: "Non", yes: "Oui" } }),
    ]);
    // The child's ticket holder is asked the child unit's question; the adult nothing more.
    expect(booking.body.questions.participants.map((p: { questions: { question: string }[] }) => p.questions.map((q) => q.question))).toEqual([[], ["Date de naissance de l'enfant"]]);
    const answers = validAnswers(booking.body).map((answer) =>
      answer.id === booking.body.questions.booking[0].id ? { ...answer, value: "yes" } : answer.id === booking.body.questions.participants[1].questions[0].id ? { ...answer, value: "2017-06-01" } : answer,
    );
    expect((await send("PUT", `/booking-flow/v1/bookings/${booking.body.id}/questions`, answers)).body.isQuestionStepComplete).toBe(true);
    const heldItems = supplierBooking(booking.body.id).unitItems.map((item) => item.uuid);
    await send("POST", `/booking-flow/v1/bookings/${booking.body.id}/confirm`, {});
    expect((await statusAfterJobs(buyer.rest, booking.body.id, (status) => status !== "PENDING_CONFIRM")).status).toBe("CONFIRMED");
    const upstream = supplierBooking(booking.body.id);
    expect(upstream.questionAnswers).toEqual([{ questionId: "step-free-access", value: "yes" }]);
    // The same unit items as held, in order, each with its holder's answers.
    expect(upstream.unitItems.map((item) => [item.uuid, item.unitId, item.questionAnswers])).toEqual([
      [heldItems[0], "adult", []],
      [heldItems[1], "child", [{ questionId: "child-birth-date", value: "2017-06-01" }]],
    ]);
  });

  it("sells a family ticket as the four people it admits, and asks its holder the family's question", async () => {
    const buyer = await consumer(ctx.stack);
    const date = inAWeek(17);
    const created = await buyer.rest.get(`${flow(seine)}/${date}/options`);
    await buyer.rest.get(`${flow(seine)}/${created.body.id}/prices?currencyCode=EUR`);
    const priced = await buyer.rest.put(`${flow(seine)}/${created.body.id}/prices?currencyCode=EUR`, [{ unitId: "adult", value: 1 }, { unitId: "family", value: 1 }]);
    expect(priced.body).toMatchObject({ isPricingStepCompleted: true, totalPrice: { retail: 77, currency: "EUR" } });
    const booking = (await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: created.body.id, resellerRef: newRef() })).body;
    // Five people: the adult, then the family ticket's holder and the three it brings.
    expect(booking.questions.participants.map((p: { questions: { question: string }[] }) => p.questions.map((q) => q.question))).toEqual([[], ["Names of the four travellers"], [], [], []]);
    expect(supplierBooking(booking.id).pax).toBe(5);
    await buyer.rest.put(`/booking-flow/v1/bookings/${booking.id}/questions`, validAnswers(booking));
    await buyer.rest.post(`/booking-flow/v1/bookings/${booking.id}/confirm`, {});
    expect((await statusAfterJobs(buyer.rest, booking.id, (status) => status !== "PENDING_CONFIRM")).status).toBe("CONFIRMED");
    expect(supplierBooking(booking.id).unitItems.map((item) => [item.unitId, item.questionAnswers.map((answer) => answer.questionId)])).toEqual([
      ["adult", []],
      ["family", ["family-names"]],
    ]);
  });

  it("prices each departure at the supplier's price for it, and answers 9573 when that price changed since the selection", async () => {
    const buyer = await consumer(ctx.stack);
    const early = await chooseLouvre(buyer.rest, inAWeek(18), "group", "09:00", 2);
    // The early group departure's adult costs 55 €, the later ones 65 €.
    expect(early.units.find((u) => u.id === "adult")!.price.retail).toBe(55);
    expect(early.total).toEqual({ retail: 110, currency: "EUR" });
    const group = supplier.state.products.find((p) => p.id === "louvre-highlights")!.options.find((o) => o.id === "group")!;
    group.departurePrices!["09:00"].adult = 6000;
    try {
      const refused = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: early.id, resellerRef: newRef() });
      expect(refused.body).toMatchObject({ code: "PRICES_CHANGED", errorCode: 9573 });
      const accepted = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: early.id, resellerRef: newRef() });
      expect(accepted.status).toBe(201);
      expect(accepted.body.totalPrice).toEqual({ retail: 120, currency: "EUR" });
    } finally {
      group.departurePrices!["09:00"].adult = 5500;
    }
  });

  it("answers a departure sold out since the selection with 9563 and keeps no booking; a supplier 500 with 503 and nothing changed", async () => {
    const buyer = await consumer(ctx.stack);
    const date = inAWeek(8);
    const chosen = await chooseLouvre(buyer.rest, date, "private", "15:00", 2);
    // Another reseller takes five of the six places directly at the supplier.
    supplier.state.reserve({ productId: "louvre-highlights", optionId: "private", availabilityId: supplierBooking2(date), unitItems: Array.from({ length: 5 }, () => ({ unitId: "adult" })) });
    const refused = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: chosen.id, resellerRef: newRef() });
    expect(refused.status).toBe(500);
    expect(refused.body).toMatchObject({ code: "NO_LONGER_AVAILABLE", errorCode: 9563 });
    expect(await ctx.database.db.select().from(bookings).where(eq(bookings.availabilityId, chosen.id))).toHaveLength(0);

    const other = await chooseLouvre(buyer.rest, date, "group", "09:00", 1);
    supplier.faults.rules.push({ route: "POST /bookings", kind: "error", times: 10 });
    const unavailable = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: other.id, resellerRef: newRef() });
    expect(unavailable.status, JSON.stringify(unavailable.body)).toBe(503);
    expect(unavailable.body.code).toBe("ENGINE_UNAVAILABLE");
    expect(await ctx.database.db.select().from(bookings).where(eq(bookings.availabilityId, other.id))).toHaveLength(0);
    supplier.faults.rules.length = 0;
    resetCircuitBreakers();
    const retried = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: other.id, resellerRef: newRef() });
    expect(retried.status).toBe(201);
    expect(supplierBooking(retried.body.id).status).toBe("ON_HOLD");
  });

  /** The supplier's availability id of the private tour's 15:00 departure on a date. */
  function supplierBooking2(date: string): string {
    const product = supplier.state.product("louvre-highlights");
    return supplier.state.departures(product, supplier.state.option(product, "private"), date, date).find((d) => d.time === "15:00")!.id;
  }

  it("answers a price the supplier changed since the selection with 9573", async () => {
    const buyer = await consumer(ctx.stack);
    const chosen = await chooseLouvre(buyer.rest, inAWeek(9), "group", "11:00", 2);
    const adult = supplier.state.products.find((p) => p.id === "louvre-highlights")!.options.find((o) => o.id === "group")!.units.find((u) => u.id === "adult")!;
    const before = adult.retail;
    adult.retail = before + 500;
    try {
      const refused = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: chosen.id, resellerRef: newRef() });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: "PRICES_CHANGED", errorCode: 9573 });
      const accepted = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: chosen.id, resellerRef: newRef() });
      expect(accepted.status).toBe(201);
      expect(accepted.body.totalPrice).toEqual({ retail: 140, currency: "EUR" });
      expect(supplierBooking(accepted.body.id).status).toBe("ON_HOLD");
    } finally {
      adult.retail = before;
    }
  });

  it("lets a hold go whose total is not the one quoted, answering 9573", async () => {
    const adapter = engineRegistry.for(engine, "OCTO", ctx.stack.service.octo);
    const facts = { id: louvre, externalId: "louvre-highlights", bookingEngineName: engine, bookingEngineKind: "OCTO" } as ProductFacts;
    const setup = (await adapter.setupOf(ctx.database.db, facts))!;
    const now = new Date();
    const slot = (await adapter.slots(ctx.database.db, facts, setup, inAWeek(13), now)).find((s) => s.choice === "group" && s.time === "09:00")!;
    // Quoted a euro below the supplier's price: what the supplier holds at differs.
    const quoted = { ...setup, offeredStartTimes: [], units: setup.units.map((u) => ({ ...u, price: u.price - 1 })) };
    const bookingId = randomUUID();
    const hold = adapter.upstream!.hold({ bookingId, product: facts, setup: quoted, slot, selections: { option: "group" }, quantities: { adult: 2 }, resellerRef: newRef(), until: new Date(now.getTime() + 3_600_000), now });
    await expect(hold).rejects.toBeInstanceOf(EngineRefusal);
    await expect(hold).rejects.toMatchObject({ reason: "PRICES_CHANGED" });
    expect(supplierBooking(bookingId).status).toBe("CANCELLED");
  });

  it("maps the supplier's INVALID_* refusals of a hold to 9510 naming availabilityId, or to a 400 naming unitId", async () => {
    const adapter = engineRegistry.for(engine, "OCTO", ctx.stack.service.octo);
    const facts = { id: louvre, externalId: "louvre-highlights", bookingEngineName: engine, bookingEngineKind: "OCTO" } as ProductFacts;
    const setup = (await adapter.setupOf(ctx.database.db, facts))!;
    const now = new Date();
    const slot = (await adapter.slots(ctx.database.db, facts, setup, inAWeek(13), now)).find((s) => s.choice === "group" && s.time === "11:00")!;
    const hold = (change: { slotRef?: string; unit?: string }) =>
      adapter.upstream!.hold({
        bookingId: randomUUID(),
        product: facts,
        setup: { ...setup, offeredStartTimes: [], ...(change.unit ? { units: setup.units.map((u) => ({ ...u, key: u.key === "adult" ? change.unit! : u.key })) } : {}) },
        slot: { ...slot, ref: change.slotRef ?? slot.ref },
        selections: { option: "group" },
        quantities: { [change.unit ?? "adult"]: 1 },
        resellerRef: newRef(),
        until: new Date(now.getTime() + 3_600_000),
        now,
      });
    await expect(hold({ slotRef: "1999-01-01T09:00:00+01:00" })).rejects.toMatchObject({ reason: "INVALID_AVAILABILITY", problems: [expect.objectContaining({ field: "availabilityId" })] });
    await expect(hold({ unit: "senior" })).rejects.toMatchObject({ reason: "INVALID_QUANTITIES", problems: [expect.objectContaining({ field: "unitId" })] });
  });

  it("keeps a short supplier hold for the booking's hour, and expires a booking whose supplier let the places go", async () => {
    const buyer = await consumer(ctx.stack);
    const chosen = await chooseLouvre(buyer.rest, inAWeek(14), "group", "11:00", 1);
    const created = (await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: chosen.id, resellerRef: newRef() })).body;
    // As a supplier whose holds last five minutes would have answered.
    const soon = new Date(Date.now() + 5 * 60_000);
    supplier.state.get(created.id).expiresAt = soon;
    await ctx.database.db.update(bookings).set({ holdExpiresAt: soon }).where(eq(bookings.id, created.id));
    const answered = await buyer.rest.put(`/booking-flow/v1/bookings/${created.id}/questions`, validAnswers(created));
    expect(answered.status).toBe(200);
    const extended = supplierBooking(created.id).expiresAt!.getTime();
    expect(extended).toBeGreaterThan(Date.now() + 50 * 60_000);
    // The supplier's utcExpiresAt, to its second.
    expect(Math.abs((await ourBooking(created.id)).holdExpiresAt.getTime() - extended)).toBeLessThan(1000);

    const other = await chooseLouvre(buyer.rest, inAWeek(14), "group", "09:00", 1);
    const lapsing = (await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: other.id, resellerRef: newRef() })).body;
    await ctx.database.db.update(bookings).set({ holdExpiresAt: soon }).where(eq(bookings.id, lapsing.id));
    supplier.state.cancel(lapsing.id, {});
    const refused = await buyer.rest.put(`/booking-flow/v1/bookings/${lapsing.id}/questions`, validAnswers(lapsing));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "BOOKING_EXPIRED", errorCode: 6606 });
    expect((await ourBooking(lapsing.id)).status).toBe("EXPIRED");
  });

  it("answers 503 when the supplier is slower than the call's timeout, and books once it answers in time", async () => {
    const buyer = await consumer(ctx.stack);
    const date = inAWeek(15);
    supplier.faults.latencyMs = 1_500;
    try {
      const slow = await buyer.rest.get(`${flow(louvre)}?startDate=${date}&endDate=${date}`);
      expect(slow.status).toBe(503);
      expect(slow.body.code).toBe("ENGINE_UNAVAILABLE");
    } finally {
      supplier.faults.latencyMs = 0;
    }
    resetCircuitBreakers();
    supplier.faults.latencyMs = 200;
    try {
      expect((await buyer.rest.get(`${flow(louvre)}?startDate=${date}&endDate=${date}`)).body.availabilityDates).toEqual([date]);
    } finally {
      supplier.faults.latencyMs = 0;
    }
  });

  it("refunds a confirmation only when the supplier certainly did not confirm: a lapsed hold ends REJECTED with REFUND", async () => {
    const buyer = await consumer(ctx.stack);
    const chosen = await chooseLouvre(buyer.rest, inAWeek(10), "group", "09:00", 1);
    const created = (await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: chosen.id, resellerRef: newRef() })).body;
    await buyer.rest.put(`/booking-flow/v1/bookings/${created.id}/questions`, validAnswers(created));
    // The supplier lets the hold go early (as a supplier with shorter holds would).
    supplier.state.get(created.id).expiresAt = new Date(Date.now() - 1000);
    const pending = await buyer.rest.post(`/booking-flow/v1/bookings/${created.id}/confirm`, {});
    expect(pending.body.status).toBe("PENDING_CONFIRM");
    const ended = await statusAfterJobs(buyer.rest, created.id, (status) => status !== "PENDING_CONFIRM");
    expect(ended).toMatchObject({ status: "REJECTED", paymentStatus: "REFUND" });
    expect(supplierBooking(created.id).status).toBe("EXPIRED");
  });

  it("settles a confirmation whose answer never came by reading the booking: CONFIRMED, once", async () => {
    const buyer = await consumer(ctx.stack);
    const chosen = await chooseLouvre(buyer.rest, inAWeek(11), "group", "11:00", 1);
    const resellerRef = newRef();
    const created = (await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: chosen.id, resellerRef })).body;
    await buyer.rest.put(`/booking-flow/v1/bookings/${created.id}/questions`, validAnswers(created));
    // The supplier confirms, then answers nothing until long after our timeout.
    supplier.faults.rules.push({ route: "POST /bookings/:uuid/confirm", kind: "hang-after", times: 1 });
    await buyer.rest.post(`/booking-flow/v1/bookings/${created.id}/confirm`, {});
    const confirmed = await statusAfterJobs(buyer.rest, created.id, (status) => status !== "PENDING_CONFIRM");
    expect(confirmed).toMatchObject({ status: "CONFIRMED", paymentStatus: "PAID", bookingEngineDetails: { bookingCode: supplierBooking(created.id).supplierReference } });
    expect(supplier.state.find({ resellerReference: resellerRef }).map((b) => b.status)).toEqual(["CONFIRMED"]);
  });

  it("runs the GraphQL flow on an opening-hours product and hears CONFIRMED on the subscription", async () => {
    const buyer = await consumer(ctx.stack);
    const gql = async (query: string, variables: Record<string, unknown> = {}) => {
      const result = await graphql(`${ctx.stack.url}/graphql`, buyer.token, query, variables);
      expect(result.body.errors, JSON.stringify(result.body.errors)).toBeUndefined();
      return result.body.data!;
    };
    const date = inAWeek(12);
    const availability = (await gql(`mutation($i: CreateAvailabilityInput!) { createAvailability(input: $i) { availability { id isOptionStepCompleted } userErrors { code } } }`, { i: { productId: toGlobalId("Product", seine), date } })).createAvailability.availability;
    // One option and one (all-day) start: nothing to choose.
    expect(availability.isOptionStepCompleted).toBe(true);
    const units = (await gql(`mutation($i: PriceAvailabilityInput!) { priceAvailability(input: $i) { availability { units { id price { amount currencyCode } } } } }`, { i: { availabilityId: availability.id, currencyCode: "EUR" } })).priceAvailability.availability;
    expect(units.units).toEqual([
      { id: "adult", price: { amount: "22.00", currencyCode: "EUR" } },
      { id: "child", price: { amount: "11.00", currencyCode: "EUR" } },
      { id: "family", price: { amount: "55.00", currencyCode: "EUR" } },
    ]);
    const priced = (
      await gql(`mutation($i: SetAvailabilityQuantitiesInput!) { setAvailabilityQuantities(input: $i) { availability { isPricingStepCompleted totalPrice { amount currencyCode } } userErrors { code } } }`, {
        i: { availabilityId: availability.id, currencyCode: "EUR", quantities: [{ unitId: "adult", quantity: 2 }, { unitId: "child", quantity: 1 }] },
      })
    ).setAvailabilityQuantities;
    expect(priced).toEqual({ availability: { isPricingStepCompleted: true, totalPrice: { amount: "55.00", currencyCode: "EUR" } }, userErrors: [] });
    let booking = (await gql(`mutation($i: CreateBookingInput!) { createBooking(input: $i) { booking { id legacyResourceId status questions { customer { id dataType dataFormat value } booking { id dataType choices { key } } participants { id questions { id text dataType } } } isQuestionStepComplete } } }`, { i: { availabilityId: availability.id, resellerRef: newRef() } })).createBooking.booking;
    const legacyId = booking.legacyResourceId;
    booking = (await gql(`mutation($i: AnswerBookingQuestionsInput!) { answerBookingQuestions(input: $i) { booking { id status isQuestionStepComplete } userErrors { code } } }`, { i: { bookingId: booking.id, answers: validGraphAnswers(booking) } })).answerBookingQuestions.booking;
    expect(booking.isQuestionStepComplete).toBe(true);

    const received: ExecutionResult[] = [];
    let first!: () => void;
    const subscribed = new Promise<void>((resolve) => (first = resolve));
    const client = createClient({ url: `${ctx.stack.url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { Authorization: `Bearer ${buyer.token}` } });
    clients.push(client);
    const completed = new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: `subscription($id: ID!) { bookingStatusChanged(bookingId: $id) { id status paymentStatus supplierBooking { bookingCode } } }`, variables: { id: booking.id } },
        { next: (r) => (received.push(r as ExecutionResult), first()), error: reject, complete: resolve },
      );
    });
    await subscribed;
    expect((await gql(`mutation($i: ConfirmBookingInput!) { confirmBooking(input: $i) { booking { status } } }`, { i: { bookingId: booking.id } })).confirmBooking.booking.status).toBe("PENDING_CONFIRM");
    await completed;
    expect(received.map((r) => (r.data as any).bookingStatusChanged.status)).toEqual(["ON_HOLD", "PENDING_CONFIRM", "CONFIRMED"]);
    expect((received.at(-1)!.data as any).bookingStatusChanged.supplierBooking.bookingCode).toBe(supplierBooking(legacyId).supplierReference);
    expect(supplierBooking(legacyId)).toMatchObject({ status: "CONFIRMED", optionId: "day-pass", pax: 3 });
    // The child's ticket carries the answer its holder gave.
    expect(supplierBooking(legacyId).unitItems.map((item) => item.questionAnswers)).toEqual([[], [], [{ questionId: "child-birth-date", value: "1990-04-01" }]]);
    // The day pass comes with the supplier's own ticket PDF: the booking's voucher is that one.
    const voucherUrl = (await gql(`query($b: ID!) { booking(id: $b) { voucherUrl } }`, { b: booking.id })).booking.voucherUrl;
    expect(voucherUrl).toBe(`${supplierUrl}/tickets/${supplierBooking(legacyId).id}.pdf`);
    const ticket = await fetch(voucherUrl);
    expect(ticket.headers.get("content-type")).toBe("application/pdf");
    expect((await pdfLines(new Uint8Array(await ticket.arrayBuffer()))).join("\n")).toContain(supplierBooking(legacyId).supplierReference);
  });
});
