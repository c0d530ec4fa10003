import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings } from "../../drizzle/schema.js";
import { BOOKING_HOLD_MS } from "../../subgraphs/booking/booking/booking.service.js";
import { bookableAvailability, bookableProduct, bookingClient, consumer, familySetup, newRef, validAnswers } from "../support/booking.js";
import { ManualClock, useStack } from "../support/stack.js";

const clock = new ManualClock(new Date("2027-03-01T08:00:00Z"));
const ctx = useStack({ clock, env: { WORKER_LOOPS: "false" }, ownDatabase: true });

const BOOKINGS = "/booking-flow/v1/bookings";
const availabilities = (productId: number) => `/booking-flow/v1/products/${productId}/availabilities`;

/** Signs the buyer in again: moving the clock past 300 s outlives their token. */
async function again(buyer: Awaited<ReturnType<typeof consumer>>) {
  const token = (await ctx.stack.login(buyer.username, buyer.password)).access_token;
  return { ...buyer, token, rest: bookingClient(ctx.stack, token) };
}

async function answeredBooking(buyer: Awaited<ReturnType<typeof consumer>>, productId: number, date: string, choice = {}) {
  const availability = await bookableAvailability(buyer.rest, productId, date, choice);
  const created = await buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: newRef() });
  expect(created.status).toBe(201);
  let booking = created.body;
  while (!booking.isQuestionStepComplete) booking = (await buyer.rest.put(`${BOOKINGS}/${booking.id}/questions`, validAnswers(booking))).body;
  return { availability, booking };
}

describe("create booking: each documented error code from its real condition", () => {
  it("9510 for an unknown availability id, a malformed one, and an availability not yet bookable", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const unknown = await buyer.rest.post(BOOKINGS, { availabilityId: "9b2f7c1e-8d4a-4b0e-9f3c-2a1d5e6f7a8b", resellerRef: newRef() });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ status: 400, code: "INVALID_AVAILABILITY", errorCode: 9510 });
    const malformed = await buyer.rest.post(BOOKINGS, { availabilityId: "not-an-id", resellerRef: newRef() });
    expect(malformed.body).toMatchObject({ code: "INVALID_AVAILABILITY", errorCode: 9510 });
    const fresh = await buyer.rest.get(`${availabilities(productId)}/2027-03-10/options`);
    const incomplete = await buyer.rest.post(BOOKINGS, { availabilityId: fresh.body.id, resellerRef: newRef() });
    expect(incomplete.body).toMatchObject({ code: "AVAILABILITY_INCOMPLETE", errorCode: 9510 });
  });

  it("9510 once the availability is more than an hour old; the steps refuse it too", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    let buyer = await consumer(ctx.stack);
    const availability = await bookableAvailability(buyer.rest, productId, "2027-03-20");
    clock.advance(3601);
    buyer = await again(buyer);
    const late = await buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: newRef() });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ code: "AVAILABILITY_EXPIRED", errorCode: 9510 });
    const prices = await buyer.rest.get(`${availabilities(productId)}/${availability.id}/prices`);
    expect(prices.body).toMatchObject({ status: 400, code: "AVAILABILITY_EXPIRED" });
  });

  it("9573 when the supplier changed prices: the availability carries the new ones and a second submit books", async () => {
    const { productId, supplierId, partner } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const availability = await bookableAvailability(buyer.rest, productId, "2027-03-11", { adults: 2 });
    expect(availability.totalPrice.retail).toBe(100);
    const repriced = familySetup();
    (repriced.units as { price: number }[])[0].price = 65;
    expect((await partner.rest.put(`/api/supplier/${supplierId}/product/${productId}/booking-setup`, repriced)).status).toBe(200);

    const ref = newRef();
    const changed = await buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: ref });
    expect(changed.status).toBe(400);
    expect(changed.body).toMatchObject({ code: "PRICES_CHANGED", errorCode: 9573 });
    const newPrices = await buyer.rest.get(`${availabilities(productId)}/${availability.id}/prices?currencyCode=EUR`);
    expect(newPrices.body.totalPrice.retail).toBe(130);
    const accepted = await buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: ref });
    expect(accepted.status).toBe(201);
    expect(accepted.body.totalPrice).toEqual({ retail: 130, currency: "EUR" });
  });

  it("9563 (a 500 by contract) when the slot has no places left or the date was withdrawn", async () => {
    const { productId, supplierId, partner } = await bookableProduct(ctx.stack, familySetup({ capacityPerSlot: 3 }));
    const first = await consumer(ctx.stack);
    const second = await consumer(ctx.stack);
    const a = await bookableAvailability(first.rest, productId, "2027-03-12", { time: "09:00", adults: 2 });
    const b = await bookableAvailability(second.rest, productId, "2027-03-12", { time: "09:00", adults: 2 });
    expect((await first.rest.post(BOOKINGS, { availabilityId: a.id, resellerRef: newRef() })).status).toBe(201);
    const full = await second.rest.post(BOOKINGS, { availabilityId: b.id, resellerRef: newRef() });
    expect(full.status).toBe(500);
    expect(full.body).toMatchObject({ status: 500, code: "NO_LONGER_AVAILABLE", errorCode: 9563 });

    const c = await bookableAvailability(second.rest, productId, "2027-03-13");
    const closed = await partner.rest.put(`/api/supplier/${supplierId}/product/${productId}`, {
      ...(await import("../support/catalogue.js")).productRequest({
        availabilityPeriods: { weeklyPeriods: [{ description: "x", startDate: "2027-01-01", endDate: "2027-12-31", ...allOpen(), closedDayList: ["2027-03-13"] }] },
      }),
    });
    expect(closed.status).toBe(200);
    const withdrawn = await second.rest.post(BOOKINGS, { availabilityId: c.id, resellerRef: newRef() });
    expect(withdrawn.body).toMatchObject({ status: 500, errorCode: 9563 });
  });

  it("9548 for another currency than the flow's, at booking and at the prices step", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const availability = await bookableAvailability(buyer.rest, productId, "2027-03-14", { currency: "USD" });
    expect(availability.totalPrice.currency).toBe("USD");
    const other = await buyer.rest.post(`${BOOKINGS}?currencyCode=GBP`, { availabilityId: availability.id, resellerRef: newRef() });
    expect(other.body).toMatchObject({ status: 400, code: "CURRENCY_CHANGE", errorCode: 9548 });
    const prices = await buyer.rest.get(`${availabilities(productId)}/${availability.id}/prices?currencyCode=CHF`);
    expect(prices.body).toMatchObject({ status: 400, errorCode: 9548 });
    const unsupported = await buyer.rest.get(`${availabilities(productId)}/${availability.id}/prices?currencyCode=JPY`);
    expect(unsupported.body).toMatchObject({ status: 400, code: "UNSUPPORTED_CURRENCY" });
  });

  it("9520 when the booking is asked for in another language than the flow started in", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const german = await buyer.rest.send("GET", `${availabilities(productId)}/2027-03-15/options`, undefined, { "accept-language": "de-CH, de;q=0.9" });
    expect(german.body.availabilityOptions[0].label).toBe("Startzeit");
    const response = await buyer.rest.send("POST", BOOKINGS, { availabilityId: german.body.id, resellerRef: newRef() }, { "accept-language": "fr" });
    // The availability is incomplete as well, but the language check names the mismatch the caller caused.
    expect(response.status).toBe(400);
    expect([9520, 9510]).toContain(response.body.errorCode);
    const full = await bookableAvailability(buyer.rest, productId, "2027-03-15", { language: "de", adults: 1 });
    const french = await buyer.rest.send("POST", BOOKINGS, { availabilityId: full.id, resellerRef: newRef() }, { "accept-language": "fr" });
    expect(french.body).toMatchObject({ status: 400, code: "LANGUAGE_CHANGE", errorCode: 9520 });
  });

  it("one availability, one booking: the same resellerRef gives the same hold; 9531 once confirmed and 6606 once cancelled or expired, whatever the resellerRef", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const availability = await bookableAvailability(buyer.rest, productId, "2027-03-16");
    const ref = newRef();
    const [one, two] = await Promise.all([
      buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: ref }),
      buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: ref }),
    ]);
    expect(one.status).toBe(201);
    expect(two.status).toBe(201);
    expect(two.body.id).toBe(one.body.id);
    const otherRef = await buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: newRef() });
    expect(otherRef.body).toMatchObject({ code: "AVAILABILITY_USED", errorCode: 9510 });

    let booking = one.body;
    while (!booking.isQuestionStepComplete) booking = (await buyer.rest.put(`${BOOKINGS}/${booking.id}/questions`, validAnswers(booking))).body;
    expect((await buyer.rest.post(`${BOOKINGS}/${booking.id}/confirm`)).body.status).toBe("PENDING_CONFIRM");
    const confirmedAgain = await buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: ref });
    expect(confirmedAgain.body).toMatchObject({ status: 400, code: "BOOKING_ALREADY_CONFIRMED", errorCode: 9531 });
    const confirmedOtherRef = await buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: newRef() });
    expect(confirmedOtherRef.body).toMatchObject({ status: 400, code: "BOOKING_ALREADY_CONFIRMED", errorCode: 9531 });

    const second = await bookableAvailability(buyer.rest, productId, "2027-03-16");
    const ref2 = newRef();
    const held = await buyer.rest.post(BOOKINGS, { availabilityId: second.id, resellerRef: ref2 });
    expect((await buyer.rest.delete(`${BOOKINGS}/${held.body.id}`)).status).toBe(200);
    const cancelledAgain = await buyer.rest.post(BOOKINGS, { availabilityId: second.id, resellerRef: ref2 });
    expect(cancelledAgain.body).toMatchObject({ status: 400, code: "BOOKING_ALREADY_CANCELLED", errorCode: 6606 });
    const cancelledOtherRef = await buyer.rest.post(BOOKINGS, { availabilityId: second.id, resellerRef: newRef() });
    expect(cancelledOtherRef.body).toMatchObject({ status: 400, code: "BOOKING_ALREADY_CANCELLED", errorCode: 6606 });
    // Nothing was booked by the refusals: the cancelled booking is the availability's only one.
    expect(await ctx.database.db.select({ id: bookings.id }).from(bookings).where(eq(bookings.availabilityId, second.id))).toEqual([{ id: held.body.id }]);

    // A hold that lapsed unconfirmed: another resellerRef is told it expired, and the hold is EXPIRED.
    const third = await bookableAvailability(buyer.rest, productId, "2027-03-16");
    const lapsing = await buyer.rest.post(BOOKINGS, { availabilityId: third.id, resellerRef: newRef() });
    clock.advance(BOOKING_HOLD_MS / 1000 + 1);
    const later = bookingClient(ctx.stack, (await ctx.stack.login(buyer.username, buyer.password)).access_token);
    const afterHold = await later.post(BOOKINGS, { availabilityId: third.id, resellerRef: newRef() });
    expect(afterHold.body).toMatchObject({ status: 400, code: "BOOKING_ALREADY_CANCELLED", errorCode: 6606 });
    expect((await later.get(`${BOOKINGS}/${lapsing.body.id}`)).body.status).toBe("EXPIRED");
  });

  it("6501 (403) for another organisation's availability or booking, and for accounts that do not book", async () => {
    const { productId, partner } = await bookableProduct(ctx.stack);
    const owner = await consumer(ctx.stack);
    const stranger = await consumer(ctx.stack);
    const { availability, booking } = await answeredBooking(owner, productId, "2027-03-17");
    const theirs = await stranger.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: newRef() });
    expect(theirs.status).toBe(403);
    expect(theirs.body).toMatchObject({ status: 403, code: "FORBIDDEN", errorCode: 6501 });
    for (const [method, path] of [
      ["GET", `${BOOKINGS}/${booking.id}`],
      ["POST", `${BOOKINGS}/${booking.id}/confirm`],
      ["PUT", `${BOOKINGS}/${booking.id}/questions`],
      ["DELETE", `${BOOKINGS}/${booking.id}`],
    ] as const) {
      const response = await stranger.rest.send(method, path, method === "POST" ? {} : method === "PUT" ? validAnswers(booking) : undefined, {});
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.errorCode).toBe(6501);
    }
    const partnerTry = await partner.rest.get(`${availabilities(productId)}/2027-03-17/options`);
    expect(partnerTry.status).toBe(403);
    expect(partnerTry.body.errorCode).toBe(6501);
    expect((await owner.rest.get(`${BOOKINGS}/${booking.id}`)).body.status).toBe("ON_HOLD");
  });
});

describe("the other steps' refusals", () => {
  it("options are set one level at a time and checked against their type; a choice reveals the next level", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const base = availabilities(productId);
    let availability = (await buyer.rest.get(`${base}/2027-03-18/options`)).body;
    const startTime = availability.availabilityOptions[0];
    const wrongChoice = await buyer.rest.put(`${base}/${availability.id}/options`, { optionId: startTime.id, value: "11:00" });
    expect(wrongChoice.body).toMatchObject({ status: 400, code: "INVALID_OPTION", details: [{ field: "value", rule: "optionChoice" }] });
    const unknown = await buyer.rest.put(`${base}/${availability.id}/options`, { optionId: "1e0c9a52-0000-4000-8000-000000000000", value: "x" });
    expect(unknown.body).toMatchObject({ code: "INVALID_OPTION", details: [{ field: "optionId" }] });
    availability = (await buyer.rest.put(`${base}/${availability.id}/options`, { optionId: startTime.id, value: "09:00" })).body;
    const route = availability.availabilityOptions[1];
    expect(route).toMatchObject({ label: "Route", level: "1" });
    expect(availability.availabilityOptions[0]).toMatchObject({ selectedOptionId: "09:00", selectedOptionValue: "09:00" });
    availability = (await buyer.rest.put(`${base}/${availability.id}/options`, { optionId: route.id, value: "glacier" })).body;
    expect(availability.availabilityOptions.map((o: { label: string }) => o.label)).toEqual(["Start time", "Route", "Packed lunch"]);
    expect(availability.isOptionStepCompleted).toBe(false);
    const notBoolean = await buyer.rest.put(`${base}/${availability.id}/options`, { optionId: availability.availabilityOptions[2].id, value: "maybe" });
    expect(notBoolean.body).toMatchObject({ code: "INVALID_OPTION", details: [{ rule: "boolean" }] });
    // Choosing the lake hides the lunch option again: the step is complete without it.
    availability = (await buyer.rest.put(`${base}/${availability.id}/options`, { optionId: route.id, value: "lake" })).body;
    expect(availability.availabilityOptions).toHaveLength(2);
    expect(availability.isOptionStepCompleted).toBe(true);
    const earlyPrices = await buyer.rest.get(`${base}/${(await buyer.rest.get(`${base}/2027-03-18/options`)).body.id}/prices`);
    expect(earlyPrices.body).toMatchObject({ status: 400, code: "OPTIONS_INCOMPLETE" });
  });

  it("quantities: maxima refused with nothing changed, ratios and minimums leave the step incomplete with reasons", async () => {
    const { productId } = await bookableProduct(ctx.stack, familySetup({ capacityPerSlot: 6, fixedFee: 30 }));
    const buyer = await consumer(ctx.stack);
    const base = availabilities(productId);
    const availability = await bookableAvailability(buyer.rest, productId, "2027-03-19", { adults: 1 });
    expect(availability.totalPrice.retail).toBe(80);
    const prices = `${base}/${availability.id}/prices?currencyCode=EUR`;
    const kids = await buyer.rest.put(prices, [{ unitId: "child", value: 3 }]);
    expect(kids.status).toBe(200);
    expect(kids.body.isPricingStepCompleted).toBe(false);
    expect(kids.body.pricingIssues).toEqual([expect.objectContaining({ unitId: "child", rule: "accompaniedBy" })]);
    const fixed = await buyer.rest.put(prices, [{ unitId: "adult", value: 2 }]);
    expect(fixed.body.isPricingStepCompleted).toBe(true);
    // 30 fee + 2 × 50 + 3 × 20: the per-person prices include a share of the fee.
    expect(fixed.body.totalPrice.retail).toBe(190);
    const tooMany = await buyer.rest.put(prices, [{ unitId: "adult", value: 4 }]);
    expect(tooMany.body).toMatchObject({ status: 400, code: "INVALID_QUANTITIES", details: [expect.objectContaining({ rule: "capacity" })] });
    const negative = await buyer.rest.put(prices, [{ unitId: "adult", value: -1 }]);
    expect(negative.body).toMatchObject({ status: 400, code: "INVALID_QUANTITIES" });
    const unknownUnit = await buyer.rest.put(prices, [{ unitId: "dog", value: 1 }]);
    expect(unknownUnit.body.details[0]).toMatchObject({ rule: "unknownUnit" });
    const unchanged = await buyer.rest.get(prices);
    expect(unchanged.body.totalPrice.retail).toBe(190);
    const noAdult = await buyer.rest.put(prices, [{ unitId: "adult", value: 0 }, { unitId: "child", value: 0 }]);
    expect(noAdult.body.isPricingStepCompleted).toBe(false);
  });

  it("dates: a bad range is a 400 naming the field; an unknown product 404; a product without setup 400", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const base = availabilities(productId);
    expect((await buyer.rest.get(`${base}?startDate=2027-02-30`)).body).toMatchObject({ status: 400, details: [{ field: "startDate" }] });
    expect((await buyer.rest.get(`${base}?startDate=2027-03-10&endDate=2027-03-01`)).body).toMatchObject({ status: 400, code: "INVALID_DATE_RANGE" });
    expect((await buyer.rest.get(`${base}?startDate=2027-03-10&endDate=2029-03-01`)).body).toMatchObject({ status: 400, code: "INVALID_DATE_RANGE" });
    expect((await buyer.rest.get(`/booking-flow/v1/products/2147483000/availabilities`)).status).toBe(404);
    expect((await buyer.rest.get(`${base}/2027-02-01/options`)).body).toMatchObject({ status: 400, code: "DATE_NOT_AVAILABLE" });
    // Beyond the booking horizon and before today alike: refused before any slot is counted.
    for (const date of ["9999-12-31", "0001-01-01", "2029-03-01"]) {
      expect((await buyer.rest.get(`${base}/${date}/options`)).body).toMatchObject({ status: 400, code: "DATE_NOT_AVAILABLE" });
    }
    const past = await buyer.rest.get(`${base}?startDate=2027-02-20&endDate=2027-03-02`);
    expect(past.body.availabilityDates).toEqual(["2027-03-01", "2027-03-02"]);
    const { partner, supplierId } = await bookableProduct(ctx.stack);
    const plain = await partner.rest.post(`/api/supplier/${supplierId}/product`, (await import("../support/catalogue.js")).productRequest());
    expect((await buyer.rest.get(`/booking-flow/v1/products/${plain.body.id}/availabilities`)).body).toMatchObject({ status: 400, code: "PRODUCT_NOT_BOOKABLE" });
  });

  it("answers are validated as documented, and confirm waits for every question", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const availability = await bookableAvailability(buyer.rest, productId, "2027-03-21");
    const booking = (await buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: newRef() })).body;
    const early = await buyer.rest.post(`${BOOKINGS}/${booking.id}/confirm`);
    expect(early.body).toMatchObject({ status: 400, code: "QUESTIONS_INCOMPLETE" });
    const [firstName, email, phone] = booking.questions.customer;
    const bad = await buyer.rest.put(`${BOOKINGS}/${booking.id}/questions`, [
      { id: firstName.id, value: "" },
      { id: email.id, value: "not-an-address" },
      { id: phone.id, value: "0791234567" },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_ANSWERS");
    expect(bad.body.details.map((d: { rule: string }) => d.rule)).toEqual(["minLength", "emailAddress", "e164PhoneNumber"]);
    const unchanged = await buyer.rest.get(`${BOOKINGS}/${booking.id}/questions`);
    expect(unchanged.body.questions.customer.every((q: { value?: string }) => q.value === undefined)).toBe(true);
  });

  it("an ON_HOLD booking expires after its hold and gives its places back; confirming it then is refused", async () => {
    const { productId } = await bookableProduct(ctx.stack, familySetup({ capacityPerSlot: 2, startTimes: ["10:00"] }));
    let buyer = await consumer(ctx.stack);
    const { booking } = await answeredBooking(buyer, productId, "2027-03-22", { adults: 2 });
    expect((await buyer.rest.get(`${availabilities(productId)}?startDate=2027-03-22&endDate=2027-03-22`)).body.availabilityDates).toEqual([]);
    clock.advance(3601);
    await ctx.stack.service.worker!.runOnce();
    buyer = await again(buyer);
    expect((await buyer.rest.get(`${BOOKINGS}/${booking.id}`)).body).toMatchObject({ status: "EXPIRED", paymentStatus: "ON_HOLD" });
    expect((await buyer.rest.post(`${BOOKINGS}/${booking.id}/confirm`)).body).toMatchObject({ status: 400, errorCode: 6606 });
    expect((await buyer.rest.get(`${availabilities(productId)}?startDate=2027-03-22&endDate=2027-03-22`)).body.availabilityDates).toEqual(["2027-03-22"]);
  });

  it("answers are redacted after the retention window and asked for again before confirming", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    let buyer = await consumer(ctx.stack);
    const { booking } = await answeredBooking(buyer, productId, "2027-03-23");
    clock.advance(31 * 60);
    await ctx.stack.service.worker!.runOnce();
    buyer = await again(buyer);
    const read = (await buyer.rest.get(`${BOOKINGS}/${booking.id}`)).body;
    expect(read.isQuestionStepComplete).toBe(false);
    expect(read.answersRedactedAt).toBeDefined();
    expect(read.questions.customer.every((q: { value?: string }) => q.value === undefined)).toBe(true);
    const refused = await buyer.rest.post(`${BOOKINGS}/${booking.id}/confirm`);
    expect(refused.body).toMatchObject({ status: 400, code: "QUESTIONS_INCOMPLETE" });
    expect(refused.body.message).toMatch(/erased/);
    let again2 = read;
    while (!again2.isQuestionStepComplete) again2 = (await buyer.rest.put(`${BOOKINGS}/${booking.id}/questions`, validAnswers(again2))).body;
    expect((await buyer.rest.post(`${BOOKINGS}/${booking.id}/confirm`)).body.status).toBe("PENDING_CONFIRM");
  });

  it("cancellation: the most generous tier in force, none after the last tier, and never twice", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    let buyer = await consumer(ctx.stack);
    // 2027-03-26 09:00 Zurich is 08:00Z; the clock is days before.
    const { booking } = await answeredBooking(buyer, productId, "2027-03-26", { time: "09:00" });
    await buyer.rest.post(`${BOOKINGS}/${booking.id}/confirm`);
    clock.advance(5);
    await ctx.stack.service.worker!.runOnce();
    const now = clock.now().getTime();
    const start = Date.parse("2027-03-26T08:00:00Z");
    clock.advance((start - now) / 1000 - 24 * 3600); // a day before: only the half-refund tier applies
    buyer = await again(buyer);
    const read = (await buyer.rest.get(`${BOOKINGS}/${booking.id}`)).body;
    expect(read.cancellation.isCancellable).toBe(true);
    const cancelled = await buyer.rest.delete(`${BOOKINGS}/${booking.id}?cancellationReason=Weather`);
    expect(cancelled.body.cancellationInformation).toMatchObject({ cancellationReason: "Weather", refundPercentage: 50 });
    expect((await buyer.rest.delete(`${BOOKINGS}/${booking.id}`)).body).toMatchObject({ status: 400, errorCode: 6606 });

    const late = await answeredBooking(buyer, productId, "2027-03-26", { time: "14:00" });
    await buyer.rest.post(`${BOOKINGS}/${late.booking.id}/confirm`);
    clock.advance(5);
    await ctx.stack.service.worker!.runOnce();
    clock.advance(20 * 3600); // 14:00 local is 13:00Z: under 12 hours to go, no tier applies
    buyer = await again(buyer);
    const tooLate = await buyer.rest.delete(`${BOOKINGS}/${late.booking.id}`);
    expect(tooLate.body).toMatchObject({ status: 400, code: "BOOKING_NOT_CANCELLABLE" });
    expect((await buyer.rest.get(`${BOOKINGS}/${late.booking.id}`)).body.status).toBe("CONFIRMED");
  });
});

function allOpen() {
  return Object.fromEntries(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, { open: true, hours: null }]));
}
