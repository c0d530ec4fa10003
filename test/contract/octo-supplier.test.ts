import { randomUUID } from "node:crypto";
import { zAvailability, zAvailabilityCalendar, zBaseError, zBooking, zCapability, zProduct, zSupplier } from "@octocloud/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOctoSupplier, type OctoSupplier } from "../../octo-supplier/octo-supplier.js";
import { zProductQuestions } from "../../core/octo-questions.js";
import { DEFAULT_HOLD_MINUTES, octoLocalDateTime } from "../../octo-supplier/supplier-state.js";
import { morningSupplierClock } from "../support/octo-supplier-clock.js";
import { startProcess, until } from "../support/child-process.js";
import { addDays, instantOf, localDate } from "../../core/local-time.js";

const KEY = "test-key-0123456789";
const BOTH = "octo/content, octo/pricing";

/**
 * The local OCTO supplier answers as the OCTO standard describes: every answer is checked against
 * the schemas `@octocloud/types` ships, so our adapter is tested against a conforming supplier.
 */
describe("local OCTO supplier", () => {
  let supplier: OctoSupplier;
  let base: string;

  beforeAll(async () => {
    supplier = await createOctoSupplier({ apiKey: KEY, hangMs: 1_500, clock: morningSupplierClock() });
    base = await supplier.listen();
  });
  afterAll(async () => supplier?.close());

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, "octo-capabilities": BOTH, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  /** Parses with the standard's schema: a non-conforming answer fails the test with the path. */
  const conforms = <T>(schema: { parse(value: unknown): T }, value: unknown): T => schema.parse(value);

  const today = () => localDate(supplier.clock.now(), "Europe/Paris");
  const tomorrow = () => addDays(today(), 1);
  const departure = (date: string, time: string) => octoLocalDateTime(instantOf(date, time, "Europe/Paris"));
  const reserve = (overrides: Record<string, unknown> = {}) =>
    call("POST", "/bookings", { uuid: randomUUID(), productId: "louvre-highlights", optionId: "group", availabilityId: departure(tomorrow(), "09:00"), unitItems: [{ unitId: "adult" }, { unitId: "child" }], ...overrides });
  const vacancies = async (time: string, date = tomorrow()) => {
    const { body } = await call("POST", "/availability", { productId: "louvre-highlights", optionId: "group", availabilityIds: [departure(date, time)] });
    return body[0].vacancies as number;
  };

  describe("access and capabilities", () => {
    it("refuses a missing key with UNAUTHORIZED and a wrong one with FORBIDDEN, in OCTO's error body", async () => {
      const missing = await fetch(`${base}/products`);
      expect(missing.status).toBe(401);
      expect(conforms(zBaseError, await missing.json()).error).toBe("UNAUTHORIZED");
      const wrong = await call("GET", "/products", undefined, { authorization: "Bearer not-the-key" });
      expect(wrong.status).toBe(403);
      expect(conforms(zBaseError, wrong.body).error).toBe("FORBIDDEN");
    });

    it("initialises only the capabilities asked for and offered, and answers content in the language asked", async () => {
      const plain = await call("GET", "/products/louvre-highlights", undefined, { "octo-capabilities": "" });
      expect(plain.headers.get("octo-capabilities")).toBe("");
      expect(plain.body.title).toBeUndefined();
      expect(plain.body.options[0].pricingFrom).toBeUndefined();

      const french = await call("GET", "/products/louvre-highlights", undefined, { "octo-capabilities": "octo/content, octo/pricing, octo/cart", "accept-language": "fr-FR,fr;q=0.9,en;q=0.5" });
      expect(french.headers.get("octo-capabilities")).toBe("octo/content, octo/pricing");
      expect(french.headers.get("content-language")).toBe("fr");
      expect(french.headers.get("available-languages")).toBe("en, fr, de");
      expect(conforms(zProduct, french.body).title).toBe("Visite guidée des chefs-d'œuvre du Louvre");
      expect(french.body.options[0].pricingFrom).toEqual([{ original: 3500, retail: 3500, net: 2800, currency: "EUR", currencyPrecision: 2, includedTaxes: [] }]);

      const capabilities = await call("GET", "/capabilities");
      expect(capabilities.body.map((capability: unknown) => conforms(zCapability, capability).id)).toEqual(["octo/content", "octo/pricing", "octo/questions"]);
    });
  });

  describe("content", () => {
    it("describes the supplier and its products, start-time and opening-hours, with several options and units", async () => {
      const about = await call("GET", "/supplier");
      expect(conforms(zSupplier, about.body)).toMatchObject({ id: "paris-discovery", endpoint: base });
      const products = await call("GET", "/products");
      const parsed = products.body.map((product: unknown) => conforms(zProduct, product));
      expect(parsed.map((product: { availabilityType: string }) => product.availabilityType).sort()).toEqual(["OPENING_HOURS", "START_TIME", "START_TIME"]);
      const louvre = parsed.find((product: { id: string }) => product.id === "louvre-highlights");
      expect(louvre.options.map((option: { id: string }) => option.id)).toEqual(["group", "private"]);
      expect(louvre.options[0].units.map((unit: { type: string }) => unit.type)).toEqual(["ADULT", "CHILD"]);
      expect(louvre.options[0].availabilityLocalStartTimes).toEqual(["09:00", "11:00", "14:00"]);

      const unknown = await call("GET", "/products/no-such-product");
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ error: "INVALID_PRODUCT_ID", errorMessage: expect.any(String), productId: "no-such-product" });
    });
  });

  describe("availability", () => {
    it("gives a calendar of days with prices for the units asked", async () => {
      const { body, status } = await call("POST", "/availability/calendar", {
        productId: "louvre-highlights",
        optionId: "group",
        localDateStart: tomorrow(),
        localDateEnd: addDays(tomorrow(), 6),
        units: [{ id: "adult", quantity: 2 }],
      });
      expect(status).toBe(200);
      expect(body).toHaveLength(7);
      body.forEach((day: unknown) => conforms(zAvailabilityCalendar, day));
      // Two departures of 60 places a day; the third is sold out. From the early departure's adult price.
      expect(body[0]).toMatchObject({ localDate: tomorrow(), available: true, status: "AVAILABLE", capacity: 120, pricingFrom: { retail: 11000, currency: "EUR" } });
    });

    it("lists departures with a sold-out one, and an opening-hours day as one all-day availability", async () => {
      const timed = await call("POST", "/availability", { productId: "louvre-highlights", optionId: "group", localDateStart: tomorrow(), localDateEnd: tomorrow() });
      const slots = timed.body.map((slot: unknown) => conforms(zAvailability, slot));
      expect(slots.map((slot: { id: string }) => slot.id)).toEqual(["09:00", "11:00", "14:00"].map((time) => departure(tomorrow(), time)));
      expect(slots[2]).toMatchObject({ status: "SOLD_OUT", available: false, vacancies: 0 });
      expect(slots[0]).toMatchObject({ allDay: false, openingHours: [], utcCutoffAt: instantOf(tomorrow(), "09:00", "Europe/Paris").toISOString().replace(".000", "") });

      const day = await call("POST", "/availability", { productId: "seine-day-pass", optionId: "day-pass", localDateStart: tomorrow(), localDateEnd: tomorrow() });
      expect(day.body).toHaveLength(1);
      expect(conforms(zAvailability, day.body[0])).toMatchObject({ allDay: true, openingHours: [{ from: "10:00", to: "18:00" }], capacity: 200 });
    });

    it("prices each departure: the early group departure's adult is cheaper, and pricingFrom is the lowest", async () => {
      const { body } = await call("POST", "/availability", { productId: "louvre-highlights", optionId: "group", localDateStart: tomorrow(), localDateEnd: tomorrow() });
      const adultAt = (index: number) => conforms(zAvailability, body[index]).unitPricing!.find((price) => price.unitId === "adult")!.retail;
      expect([adultAt(0), adultAt(1)]).toEqual([5500, 6500]);
      const product = conforms(zProduct, (await call("GET", "/products/louvre-highlights")).body);
      expect(product.options[0].units.find((unit) => unit.id === "adult")!.pricingFrom![0].retail).toBe(5500);
    });

    it("names the bad id or field of a request", async () => {
      const option = await call("POST", "/availability", { productId: "louvre-highlights", optionId: "vip", localDateStart: tomorrow(), localDateEnd: tomorrow() });
      expect(option.body).toMatchObject({ error: "INVALID_OPTION_ID", optionId: "vip" });
      const unit = await call("POST", "/availability", { productId: "louvre-highlights", optionId: "group", localDateStart: tomorrow(), localDateEnd: tomorrow(), units: [{ id: "pet", quantity: 1 }] });
      expect(unit.body).toMatchObject({ error: "INVALID_UNIT_ID", unitId: "pet" });
      const slot = await call("POST", "/availability", { productId: "louvre-highlights", optionId: "group", availabilityIds: [departure(tomorrow(), "08:00")] });
      expect(slot.body).toMatchObject({ error: "INVALID_AVAILABILITY_ID", availabilityId: departure(tomorrow(), "08:00") });
      const missing = await call("POST", "/availability/calendar", { optionId: "group", localDateStart: tomorrow(), localDateEnd: tomorrow() });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ error: "BAD_REQUEST", errorMessage: expect.stringContaining("productId") });
      const backwards = await call("POST", "/availability/calendar", { productId: "louvre-highlights", optionId: "group", localDateStart: tomorrow(), localDateEnd: today() });
      expect(backwards.body.error).toBe("BAD_REQUEST");
    });
  });

  describe("bookings", () => {
    it("holds places ON_HOLD until utcExpiresAt, once per uuid however often the reservation is sent", async () => {
      const before = await vacancies("09:00");
      const uuid = randomUUID();
      const first = await reserve({ uuid, resellerReference: "R-1" });
      expect(first.status).toBe(200);
      const booking = conforms(zBooking, first.body);
      // At the 09:00 departure's prices: 55 € an adult (65 € later in the day), 35 € a child.
      expect(booking).toMatchObject({ uuid, status: "ON_HOLD", resellerReference: "R-1", productId: "louvre-highlights", optionId: "group", pricing: { retail: 9000 } });
      const holdMs = new Date(booking.utcExpiresAt!).getTime() - supplier.clock.now().getTime();
      expect(holdMs).toBeGreaterThan((DEFAULT_HOLD_MINUTES * 60 - 5) * 1000);
      expect(holdMs).toBeLessThanOrEqual(DEFAULT_HOLD_MINUTES * 60_000);
      const again = await reserve({ uuid, resellerReference: "R-1" });
      expect(again.body.id).toBe(booking.id);
      expect(await vacancies("09:00")).toBe(before - 2);
      const found = await call("GET", "/bookings?resellerReference=R-1");
      expect(found.body.map((b: { uuid: string }) => b.uuid)).toEqual([uuid]);
    });

    it("refuses a sold-out departure and a party larger than the places left with UNPROCESSABLE_ENTITY", async () => {
      const soldOut = await reserve({ availabilityId: departure(tomorrow(), "14:00") });
      expect(soldOut.status).toBe(400);
      expect(soldOut.body).toEqual({ error: "UNPROCESSABLE_ENTITY", errorMessage: expect.stringContaining("sold out") });
      const date = addDays(tomorrow(), 3);
      const full = await call("POST", "/bookings", { productId: "louvre-highlights", optionId: "private", availabilityId: departure(date, "10:00"), unitItems: Array.from({ length: 6 }, () => ({ unitId: "adult" })) });
      expect(full.body.status).toBe("ON_HOLD");
      const over = await call("POST", "/bookings", { productId: "louvre-highlights", optionId: "private", availabilityId: departure(date, "10:00"), unitItems: [{ unitId: "adult" }] });
      expect(over.body).toMatchObject({ error: "UNPROCESSABLE_ENTITY" });
      const unit = await reserve({ unitItems: [{ unitId: "pet" }] });
      expect(unit.body).toMatchObject({ error: "INVALID_UNIT_ID", unitId: "pet" });
      const reused = await reserve({ uuid: full.body.uuid });
      expect(reused.body).toMatchObject({ error: "UNPROCESSABLE_ENTITY" });
    });

    it("lets a hold expire by the supplier's clock: EXPIRED, places back, no confirmation; extension keeps it", async () => {
      const before = await vacancies("11:00");
      const lapsing = await reserve({ availabilityId: departure(tomorrow(), "11:00"), expirationMinutes: 10 });
      const kept = await reserve({ availabilityId: departure(tomorrow(), "11:00"), expirationMinutes: 10 });
      expect(await vacancies("11:00")).toBe(before - 4);
      supplier.clock.advance(8);
      const extended = await call("POST", `/bookings/${kept.body.uuid}/extend`, { expirationMinutes: 30 });
      expect(conforms(zBooking, extended.body).status).toBe("ON_HOLD");
      const moved = await call("POST", "/_control/clock", { minutes: 3 });
      expect(moved.status).toBe(200);
      const expired = await call("GET", `/bookings/${lapsing.body.uuid}`);
      expect(conforms(zBooking, expired.body).status).toBe("EXPIRED");
      expect(await vacancies("11:00")).toBe(before - 2);
      const late = await call("POST", `/bookings/${lapsing.body.uuid}/confirm`, { contact: { fullName: "Ada Lovelace" } });
      expect(late.body).toMatchObject({ error: "UNPROCESSABLE_ENTITY", errorMessage: expect.stringContaining("expired") });
      const confirmed = await call("POST", `/bookings/${kept.body.uuid}/confirm`, { contact: { fullName: "Ada Lovelace", emailAddress: "ada@example.com" } });
      expect(confirmed.body.status).toBe("CONFIRMED");
    });

    it("confirms with contact and units once, gives a voucher, and cancels idempotently, giving the places back", async () => {
      // Far enough ahead to be outside the product's 24-hour cancellation cutoff.
      const date = addDays(tomorrow(), 5);
      const held = await reserve({ availabilityId: departure(date, "09:00") });
      const uuid = held.body.uuid;
      const before = await vacancies("09:00", date);
      const body = { resellerReference: "R-CONF", contact: { fullName: "Grace Hopper", emailAddress: "grace@example.com", locales: ["en"] }, unitItems: [{ unitId: "adult" }, { unitId: "child" }] };
      const confirmed = await call("POST", `/bookings/${uuid}/confirm`, body);
      const booking = conforms(zBooking, confirmed.body);
      expect(booking).toMatchObject({ status: "CONFIRMED", resellerReference: "R-CONF", utcExpiresAt: null, contact: { fullName: "Grace Hopper" }, voucher: { deliveryOptions: [{ deliveryFormat: "QRCODE", deliveryValue: booking.supplierReference }] } });
      expect(booking.unitItems.every((item) => item.status === "CONFIRMED" && item.ticket!.deliveryOptions[0].deliveryFormat === "QRCODE")).toBe(true);
      const twice = await call("POST", `/bookings/${uuid}/confirm`, body);
      expect(twice.body.supplierReference).toBe(booking.supplierReference);

      const cancelled = await call("POST", `/bookings/${uuid}/cancel`, { reason: "Change of plans" });
      expect(conforms(zBooking, cancelled.body)).toMatchObject({ status: "CANCELLED", cancellation: { refund: "FULL", reason: "Change of plans" } });
      const again = await call("POST", `/bookings/${uuid}/cancel`, {});
      expect(again.body.cancellation.utcCancelledAt).toBe(cancelled.body.cancellation.utcCancelledAt);
      expect(await vacancies("09:00", date)).toBe(before + 2);
      expect((await call("GET", `/bookings/${randomUUID()}`)).body).toMatchObject({ error: "INVALID_BOOKING_UUID" });
      // Tomorrow's departure, brought within the 24-hour cutoff whatever the time of day: a
      // confirmed booking then stays, unless forced.
      const hoursAhead = (instantOf(tomorrow(), "09:00", "Europe/Paris").getTime() - supplier.clock.now().getTime()) / 3_600_000;
      if (hoursAhead > 23) supplier.clock.advance((hoursAhead - 23) * 60);
      const soon = (await reserve()).body.uuid;
      await call("POST", `/bookings/${soon}/confirm`, { contact: { fullName: "Alan Turing" } });
      const tooLate = await call("POST", `/bookings/${soon}/cancel`, {});
      expect(tooLate.body).toMatchObject({ error: "UNPROCESSABLE_ENTITY", errorMessage: expect.stringContaining("cutoff") });
      expect((await call("GET", `/bookings/${soon}`)).body).toMatchObject({ status: "CONFIRMED", cancellable: false });
      expect((await call("POST", `/bookings/${soon}/cancel`, { force: true })).body.status).toBe("CANCELLED");
      const noContact = await call("POST", `/bookings/${(await reserve()).body.uuid}/confirm`, {});
      expect(noContact.body).toMatchObject({ error: "BAD_REQUEST", errorMessage: expect.stringContaining("contact") });
    });
  });

  describe("the variety real suppliers have", () => {
    const cruise = (date: string, time = "18:00") => ({ productId: "seine-private-cruise", optionId: "boat", availabilityId: departure(date, time) });
    const units = (adults: number, children = 0) => [...Array.from({ length: adults }, () => ({ unitId: "adult" })), ...Array.from({ length: children }, () => ({ unitId: "child" }))];

    it("prices a product per booking: on its option, its departures and its bookings, never on its units", async () => {
      const raw = (await call("GET", "/products/seine-private-cruise")).body;
      const product = conforms(zProduct, raw);
      expect(product.pricingPer).toBe("BOOKING");
      const [boat] = product.options;
      expect(boat.pricingFrom).toEqual([expect.objectContaining({ retail: 39000, currency: "EUR" })]);
      expect(boat.units.every((unit) => unit.pricingFrom === undefined)).toBe(true);
      expect(boat.units.find((unit) => unit.id === "child")!.restrictions.maxQuantity).toBe(4);
      // Fields of the standard the package's 2.x schemas leave out (they are read from the answer as sent):
      // limits of people, and the length as an amount and a unit (1.x content, Ventrata), no minutes.
      expect(raw.options[0].restrictions).toEqual({ minUnits: 2, maxUnits: 8, minPaxCount: 2, maxPaxCount: 8 });
      expect(raw.options[0]).toMatchObject({ duration: "2 hours", durationAmount: "2", durationUnit: "hour" });
      expect(raw.options[0].durationMinutesFrom).toBeUndefined();
      expect(raw.durationMinutesFrom).toBeUndefined();

      const date = addDays(tomorrow(), 4);
      const [evening] = (await call("POST", "/availability", { productId: "seine-private-cruise", optionId: "boat", localDateStart: date, localDateEnd: date })).body;
      expect(conforms(zAvailability, evening)).toMatchObject({ pricing: { retail: 39000 }, maxUnits: 8 });
      expect(evening.maxPaxCount).toBe(8);
      expect(evening.unitPricing).toBeUndefined();
      const held = conforms(zBooking, (await call("POST", "/bookings", { ...cruise(date), unitItems: units(3) })).body);
      expect(held.pricing).toMatchObject({ retail: 39000, currency: "EUR" });
      expect(held.unitItems.every((item) => item.pricing === undefined)).toBe(true);
    });

    it("states a day pass's price on its unit items only, with a booking-level total of 0, as OCTO's own mock supplier does", async () => {
      const held = conforms(zBooking, (await call("POST", "/bookings", { productId: "seine-day-pass", optionId: "day-pass", availabilityId: departure(addDays(tomorrow(), 2), "00:00"), unitItems: units(2, 1) })).body);
      expect(held.pricing).toMatchObject({ retail: 0, currency: "EUR" });
      expect(held.unitItems.map((item) => item.pricing!.retail)).toEqual([2200, 2200, 1100]);
    });

    it("refuses a booking beyond its option's, its departure's or its unit's limits, or below them, with UNPROCESSABLE_ENTITY", async () => {
      const date = addDays(tomorrow(), 6);
      // The group option takes 10 tickets, its departures 8.
      const group = await call("POST", "/availability", { productId: "louvre-highlights", optionId: "group", availabilityIds: [departure(date, "09:00")] });
      expect(group.body[0]).toMatchObject({ maxUnits: 8 });
      const nine = await reserve({ availabilityId: departure(date, "09:00"), unitItems: units(9) });
      expect(nine.body).toMatchObject({ error: "UNPROCESSABLE_ENTITY", errorMessage: expect.stringContaining("1 to 8 units") });
      expect((await reserve({ availabilityId: departure(date, "09:00"), unitItems: units(8) })).body.status).toBe("ON_HOLD");
      const alone = await call("POST", "/bookings", { ...cruise(date), unitItems: units(1) });
      expect(alone.body).toMatchObject({ error: "UNPROCESSABLE_ENTITY", errorMessage: expect.stringContaining("2 to 8 units") });
      const children = await call("POST", "/bookings", { ...cruise(date), unitItems: units(2, 5) });
      expect(children.body).toMatchObject({ error: "UNPROCESSABLE_ENTITY", errorMessage: expect.stringContaining("Unit child takes at most 4") });
      // Eight people, four of them children: the boat's every limit, reached and kept.
      expect((await call("POST", "/bookings", { ...cruise(date, "20:30"), unitItems: units(4, 4) })).body.status).toBe("ON_HOLD");
    });

    it("changes a booking with PATCH /bookings/{uuid}: departure, units, contact and product, checked like a reservation", async () => {
      const date = addDays(tomorrow(), 8);
      const held = await reserve({ availabilityId: departure(date, "09:00"), resellerReference: "R-PATCH" });
      const uuid = held.body.uuid;
      const later = await call("PATCH", `/bookings/${uuid}`, { availabilityId: departure(date, "11:00"), unitItems: units(3), contact: { fullName: "Ada Lovelace" }, notes: "Window seats" });
      expect(conforms(zBooking, later.body)).toMatchObject({ availabilityId: departure(date, "11:00"), status: "ON_HOLD", contact: { fullName: "Ada Lovelace" }, notes: "Window seats", pricing: { retail: 19500 } });
      expect(later.body.unitItems).toHaveLength(3);
      expect(await vacancies("09:00", date)).toBe(60);
      expect(await vacancies("11:00", date)).toBe(57);
      const boat = await call("PATCH", `/bookings/${uuid}`, { ...cruise(date), unitItems: units(2) });
      expect(conforms(zBooking, boat.body)).toMatchObject({ productId: "seine-private-cruise", optionId: "boat", pricing: { retail: 39000 } });
      expect(await vacancies("11:00", date)).toBe(60);
      const tooMany = await call("PATCH", `/bookings/${uuid}`, { unitItems: units(9) });
      expect(tooMany.body).toMatchObject({ error: "UNPROCESSABLE_ENTITY" });
      const unknown = await call("PATCH", `/bookings/${uuid}`, { unitItems: [{ unitId: "pet" }] });
      expect(unknown.body).toMatchObject({ error: "INVALID_UNIT_ID", unitId: "pet" });
      // Refusals changed nothing.
      expect((await call("GET", `/bookings/${uuid}`)).body).toMatchObject({ productId: "seine-private-cruise", unitItems: [expect.anything(), expect.anything()] });
      await call("POST", `/bookings/${uuid}/cancel`, {});
      expect((await call("PATCH", `/bookings/${uuid}`, { notes: "too late" })).body).toMatchObject({ error: "UNPROCESSABLE_ENTITY" });
      expect((await call("PATCH", `/bookings/${randomUUID()}`, { notes: "x" })).body).toMatchObject({ error: "INVALID_BOOKING_UUID" });
      expect((await call("PATCH", `/bookings/${uuid}`, { unitItems: "adult" })).body).toMatchObject({ error: "BAD_REQUEST" });
    });

    it("gives every booking a voucher and every unit item a ticket, with codes once confirmed", async () => {
      const held = conforms(zBooking, (await reserve({ availabilityId: departure(addDays(tomorrow(), 9), "09:00") })).body);
      expect(held.deliveryMethods).toEqual(["VOUCHER", "TICKET"]);
      expect(held.voucher).toEqual({ redemptionMethod: "DIGITAL", utcRedeemedAt: null, deliveryOptions: [] });
      expect(held.unitItems.map((item) => item.ticket)).toEqual([held.voucher, held.voucher]);
      // A confirmation may change the units held, within the same limits.
      const confirmed = conforms(zBooking, (await call("POST", `/bookings/${held.uuid}/confirm`, { contact: { fullName: "Ada Lovelace" }, unitItems: units(3) })).body);
      expect(confirmed.unitItems.map((item) => item.ticket!.deliveryOptions[0].deliveryValue)).toEqual([1, 2, 3].map((n) => `${confirmed.supplierReference}-${n}`));
    });

    it("refuses the key for the routes it is told to (forbidden), as once a key is revoked", async () => {
      const put = await call("PUT", "/_control/faults", { latencyMs: 0, rules: [{ route: "POST /bookings/:uuid/confirm", kind: "forbidden", times: 1 }] });
      expect(put.status).toBe(200);
      const held = await reserve({ availabilityId: departure(addDays(tomorrow(), 9), "11:00") });
      const refused = await call("POST", `/bookings/${held.body.uuid}/confirm`, { contact: { fullName: "Ada Lovelace" } });
      expect(refused.status).toBe(403);
      expect(conforms(zBaseError, refused.body).error).toBe("FORBIDDEN");
      expect((await call("GET", `/bookings/${held.body.uuid}`)).body.status).toBe("ON_HOLD");
      expect((await call("POST", `/bookings/${held.body.uuid}/confirm`, { contact: { fullName: "Ada Lovelace" } })).body.status).toBe("CONFIRMED");
    });
  });

  describe("questions (octo/questions)", () => {
    const ASKED = "octo/content, octo/pricing, octo/questions";
    const asked = (method: string, path: string, body?: unknown) => call(method, path, body, { "octo-capabilities": ASKED });
    const contact = { fullName: "Ada Lovelace", emailAddress: "ada@example.com" };

    it("shows its questions on the product, its options and its units only to a reseller that asked for them", async () => {
      expect((await call("GET", "/products/louvre-highlights")).body.questions).toBeUndefined();
      const french = await call("GET", "/products/louvre-highlights", undefined, { "octo-capabilities": ASKED, "accept-language": "fr" });
      expect(french.headers.get("octo-capabilities")).toBe(ASKED);
      // Each schema keeps only its own fields: the package's checks the product, ours its questions.
      conforms(zProduct, french.body);
      const product = conforms(zProductQuestions, french.body);
      expect(product.questions!.map((question) => [question.id, question.required, question.inputType])).toEqual([
        ["step-free-access", true, "select"],
        ["guide-notes", false, "textarea"],
      ]);
      expect(product.questions![0].title).toBe("Une personne de votre groupe a-t-elle besoin d'un accès sans marches ?");
      expect(product.options.map((option) => (option.questions ?? []).map((question) => question.id))).toEqual([[], ["guide-language"]]);
      expect(product.options[0].units.map((unit) => (unit.questions ?? []).map((question) => question.id))).toEqual([[], ["child-birth-date"]]);
    });

    it("confirms only with every required answer, on the booking and on each unit item, and keeps answers given at the hold", async () => {
      const held = await asked("POST", "/bookings", {
        uuid: randomUUID(),
        productId: "louvre-highlights",
        optionId: "group",
        availabilityId: departure(addDays(tomorrow(), 2), "11:00"),
        unitItems: [{ unitId: "adult" }, { unitId: "child", questionAnswers: [{ questionId: "child-birth-date", value: "2016-05-04" }] }],
      });
      expect(held.body.status).toBe("ON_HOLD");
      const uuid = held.body.uuid;
      const missing = await asked("POST", `/bookings/${uuid}/confirm`, { contact });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ error: "BAD_REQUEST", questionId: "step-free-access", errorMessage: expect.stringContaining("required") });
      const wrongChoice = await asked("POST", `/bookings/${uuid}/confirm`, { contact, questionAnswers: [{ questionId: "step-free-access", value: "maybe" }] });
      expect(wrongChoice.body).toMatchObject({ error: "BAD_REQUEST", questionId: "step-free-access", errorMessage: expect.stringContaining("no, yes") });
      const unknown = await asked("POST", `/bookings/${uuid}/confirm`, { contact, questionAnswers: [{ questionId: "shoe-size", value: "42" }] });
      expect(unknown.body).toMatchObject({ error: "BAD_REQUEST", questionId: "shoe-size" });
      const badDate = await asked("POST", `/bookings/${uuid}/confirm`, {
        contact,
        questionAnswers: [{ questionId: "step-free-access", value: "yes" }],
        unitItems: [{ unitId: "adult" }, { unitId: "child", questionAnswers: [{ questionId: "child-birth-date", value: "4 May 2016" }] }],
      });
      expect(badDate.body).toMatchObject({ error: "BAD_REQUEST", questionId: "child-birth-date", errorMessage: expect.stringContaining("unit item 2") });
      // Nothing refused changed the hold.
      expect((await asked("GET", `/bookings/${uuid}`)).body.status).toBe("ON_HOLD");

      const confirmed = await asked("POST", `/bookings/${uuid}/confirm`, { contact, questionAnswers: [{ questionId: "step-free-access", value: "yes" }] });
      conforms(zBooking, confirmed.body);
      const booking = confirmed.body;
      expect(booking.status).toBe("CONFIRMED");
      expect(booking.questionAnswers.map((answer: { questionId: string; value: string | null }) => [answer.questionId, answer.value])).toEqual([
        ["step-free-access", "yes"],
        ["guide-notes", null],
      ]);
      expect(booking.unitItems[1].questionAnswers).toEqual([expect.objectContaining({ questionId: "child-birth-date", value: "2016-05-04", question: expect.objectContaining({ inputType: "date" }) })]);
    });

    it("asks nothing of a reseller that did not initialise octo/questions", async () => {
      const held = await reserve({ availabilityId: departure(addDays(tomorrow(), 2), "11:00") });
      expect((await call("POST", `/bookings/${held.body.uuid}/confirm`, { contact })).body.status).toBe("CONFIRMED");
    });
  });

  describe("injected faults", () => {
    const faults = (body: unknown) => call("PUT", "/_control/faults", body);
    it("answers 500 for the next calls it is told to, then recovers", async () => {
      await faults({ latencyMs: 0, rules: [{ route: "GET /products", kind: "error", times: 2 }] });
      expect((await call("GET", "/products")).body).toMatchObject({ error: "INTERNAL_SERVER_ERROR" });
      expect((await call("GET", "/products")).status).toBe(500);
      expect((await call("GET", "/products")).status).toBe(200);
      expect((await call("GET", "/supplier")).status).toBe(200);
    });

    it("does the work and then answers too late (hang-after), or answers late having done nothing (hang)", async () => {
      const held = await reserve();
      await faults({ latencyMs: 0, rules: [{ route: "POST /bookings/:uuid/confirm", kind: "hang-after", times: 1 }] });
      await expect(call("POST", `/bookings/${held.body.uuid}/confirm`, { contact: { fullName: "Ada" } }, {}, AbortSignal.timeout(300))).rejects.toThrow();
      expect((await call("GET", `/bookings/${held.body.uuid}`)).body.status).toBe("CONFIRMED");

      const other = await reserve();
      await faults({ latencyMs: 0, rules: [{ route: "POST /bookings/:uuid/cancel", kind: "hang", times: 1 }] });
      await expect(call("POST", `/bookings/${other.body.uuid}/cancel`, {}, {}, AbortSignal.timeout(300))).rejects.toThrow();
      expect((await call("GET", `/bookings/${other.body.uuid}`)).body.status).toBe("ON_HOLD");
    });

    it("adds latency to every call, and refuses a malformed fault", async () => {
      await faults({ latencyMs: 250, rules: [] });
      const started = performance.now();
      await call("GET", "/supplier");
      expect(performance.now() - started).toBeGreaterThanOrEqual(240);
      await faults({ latencyMs: 0, rules: [] });
      expect((await faults({ latencyMs: -1, rules: [] })).status).toBe(400);
      expect((await faults({ latencyMs: 0, rules: [{ kind: "explode", times: 1 }] })).status).toBe(400);
    });
  });

  it("runs on its own with `npm run octo-supplier` and stops on SIGTERM with exit 0", async () => {
    const running = startProcess({ OCTO_SUPPLIER_PORT: "0", OCTO_SUPPLIER_API_KEY: "cli-key" }, [], { file: "npm", args: ["run", "--silent", "octo-supplier"] });
    const url = await until("the supplier's address", async () => /Local OCTO supplier at (\S+)/.exec(running.output())?.[1], 30_000);
    expect(running.output()).not.toContain("cli-key");
    const products = await fetch(`${url}/products`, { headers: { authorization: "Bearer cli-key" } });
    expect(products.status).toBe(200);
    // npm passes the signal on to the supplier and exits with its code.
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
  }, 60_000);
});
