import type { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { signVoucherLink } from "../../../subgraphs/booking/voucher/voucher.link.js";
import { availabilityService } from "../../../subgraphs/booking/availability/availability.service.js";
import { bookingService, BOOKING_HOLD_MS } from "../../../subgraphs/booking/booking/booking.service.js";
import type { Availability } from "../../../subgraphs/booking/availability/availability.type.js";
import type { Booking } from "../../../subgraphs/booking/booking/booking.type.js";
import { EngineRefusal, TransientEngineError } from "../../../subgraphs/booking/engines/booking.engine.js";
import type { BookingSetupDocument } from "../../../subgraphs/booking/engines/inventory/booking-setup.schema.js";
import { bookingWorld, SupplierHolds, type BookingWorld } from "../../support/booking-fakes.js";

/*
 * The service tier of the booking flow: every refusal of every step, judged by the real services
 * over in-memory stores, a table engine and the catalogue's facts passed through the context (no
 * database, no graph). Each refusal is asked for by the condition that causes it, and where a step
 * must change nothing, what is stored is compared before and after.
 */

const DAY = "2026-12-10";
const SETUP: BookingSetupDocument = {
  timeZone: "Europe/Paris",
  startTimes: ["09:00", "14:00"],
  capacityPerSlot: 6,
  maxParticipants: 6,
  currency: "EUR",
  options: [{ key: "guide", label: "Guide", dataType: "OPTIONS", choices: [{ key: "en", label: "English" }, { key: "fr", label: "French" }] }],
  units: [
    { key: "adult", label: "Adult", minAge: 18, unitPriceType: "PER_PERSON", price: 50, maxQuantity: 6 },
    { key: "child", label: "Child", minAge: 3, maxAge: 17, unitPriceType: "PER_PERSON", price: 20, maxQuantity: 4, accompaniedBy: ["adult"] },
  ],
  questions: {
    customer: [
      { key: "firstName", question: "First name", dataType: "TEXT" },
      { key: "lastName", question: "Last name", dataType: "TEXT" },
      { key: "emailAddress", question: "E-mail", dataType: "TEXT", dataFormat: "EMAIL_ADDRESS" },
    ],
  },
  cancellationTiers: [{ label: "Free until a day before", duration: "P1D", refundPercentage: 100 }],
  leadTravellerName: ["firstName", "lastName"],
};

/** The refusal's name (its `reason`, else its code): what REST and the graph's userErrors answer. */
async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    const extensions = (error as GraphQLError).extensions ?? {};
    return String(extensions.reason ?? extensions.code ?? (error as Error).message);
  }
  throw new Error("the step was not refused");
}

const option = (availability: Availability, label: string) => availability.options.find((o) => o.label === label)!.id;
const unit = (availability: Availability, label: string) => availability.units!.find((u) => u.label === label)!.id;

/** Steps 2a to 3b: an availability with its options set, priced in EUR, for `adults` adults. */
async function priced(world: BookingWorld, productId: number, adults = 2, ctx = world.ctx()): Promise<Availability> {
  const made = await availabilityService.create(ctx, productId, DAY);
  const timed = await availabilityService.setOption(ctx, productId, made.legacyResourceId, option(made, "Start time"), "09:00");
  const guided = await availabilityService.setOption(ctx, productId, made.legacyResourceId, option(timed, "Guide"), "en");
  const prices = await availabilityService.prices(ctx, productId, guided.legacyResourceId, "EUR");
  return availabilityService.setQuantities(ctx, productId, prices.legacyResourceId, "EUR", [{ unitId: unit(prices, "Adult"), value: adults }]);
}

async function held(world: BookingWorld, productId = world.product(SETUP), ctx = world.ctx()): Promise<Booking> {
  const availability = await priced(world, productId, 2, ctx);
  return bookingService.create(ctx, { availabilityId: availability.legacyResourceId, resellerRef: "REF1" });
}

const ANSWERS: Record<string, string> = { "First name": "Ada", "Last name": "Lovelace", "E-mail": "ada@example.com" };
const answersOf = (booking: Booking) => booking.questions.customer.map((q) => ({ id: q.id, value: ANSWERS[q.text] }));

async function pending(world: BookingWorld, ctx = world.ctx()): Promise<Booking> {
  const booking = await held(world, undefined, ctx);
  await bookingService.answer(ctx, booking.legacyResourceId, answersOf(booking));
  return bookingService.confirm(ctx, booking.legacyResourceId, null);
}

/** As the confirmation job leaves a booking its supplier confirmed. */
async function confirmed(world: BookingWorld, ctx = world.ctx()): Promise<Booking> {
  const booking = await pending(world, ctx);
  const now = world.clock.now();
  await world.bookings.update(undefined as never, booking.legacyResourceId, { status: "CONFIRMED", bookingCode: "CODE1", confirmedAt: now, voucherCreatedAt: now });
  return (await bookingService.byId(ctx, booking.legacyResourceId))!;
}

const another = { organisationId: 2, accountId: "00000000-0000-4000-8000-000000000002" };
const noBookingScope = { scopes: ["catalogue"] };

describe("step 1, dates", () => {
  it("lists the dates with places, and refuses what the contract refuses", async () => {
    const world = bookingWorld();
    const productId = world.product(SETUP);
    const ctx = world.ctx();
    expect(await availabilityService.dates(ctx, productId, "2026-12-02", "2026-12-04")).toEqual(["2026-12-02", "2026-12-03", "2026-12-04"]);
    expect(await refusal(availabilityService.dates(world.ctx(noBookingScope), productId, null, null))).toBe("FORBIDDEN");
    expect(await refusal(availabilityService.dates(ctx, 999, null, null))).toBe("NOT_FOUND");
    expect(await refusal(availabilityService.dates(ctx, productId, "2026-13-01", null))).toBe("BAD_USER_INPUT");
    expect(await refusal(availabilityService.dates(ctx, productId, "2026-12-05", "2026-12-04"))).toBe("INVALID_DATE_RANGE");
    expect(await refusal(availabilityService.dates(ctx, productId, "2026-12-05", "2028-12-05"))).toBe("INVALID_DATE_RANGE");
  });

  it("refuses a deprecated product and one without a setup as not bookable", async () => {
    const world = bookingWorld();
    const deprecated = world.product(SETUP, { deprecated: true });
    const unset = world.product(SETUP);
    world.engine.setups.delete(unset);
    expect(await refusal(availabilityService.dates(world.ctx(), deprecated, null, null))).toBe("PRODUCT_NOT_BOOKABLE");
    expect(await refusal(availabilityService.nextDates(world.ctx(), unset))).toBe("PRODUCT_NOT_BOOKABLE");
  });
});

describe("step 2, options", () => {
  it("makes an availability of a date with places, and refuses a date without or not a date", async () => {
    const world = bookingWorld();
    const productId = world.product(SETUP);
    const made = await availabilityService.create(world.ctx(), productId, DAY);
    expect(made.options.map((o) => o.label)).toEqual(["Start time"]);
    expect(await refusal(availabilityService.create(world.ctx(), productId, "10/12/2026"))).toBe("BAD_USER_INPUT");
    for (const time of ["09:00", "14:00"]) world.engine.places.set(`${productId}@${new Date(`${DAY}T${time === "09:00" ? "08" : "13"}:00:00Z`).toISOString()}`, 0);
    expect(await refusal(availabilityService.create(world.ctx(), productId, DAY))).toBe("DATE_NOT_AVAILABLE");
  });

  it("refuses an option not offered, a choice not offered, and another organisation's, unknown or expired availability", async () => {
    const world = bookingWorld();
    const productId = world.product(SETUP);
    const ctx = world.ctx();
    const made = await availabilityService.create(ctx, productId, DAY);
    const startTime = option(made, "Start time");
    expect(await refusal(availabilityService.setOption(ctx, productId, made.legacyResourceId, "not-an-option", "09:00"))).toBe("INVALID_OPTION");
    expect(await refusal(availabilityService.setOption(ctx, productId, made.legacyResourceId, startTime, "10:30"))).toBe("INVALID_OPTION");
    expect(await refusal(availabilityService.setOption(world.ctx(another), productId, made.legacyResourceId, startTime, "09:00"))).toBe("FORBIDDEN");
    expect(await refusal(availabilityService.setOption(ctx, productId + 1, made.legacyResourceId, startTime, "09:00"))).toBe("NOT_FOUND");
    expect(await refusal(availabilityService.setOption(ctx, productId, crypto.randomUUID(), startTime, "09:00"))).toBe("NOT_FOUND");
    expect(world.availabilities.rows.get(made.legacyResourceId)!.selections).toEqual({});
    world.clock.advance(3600);
    expect(await refusal(availabilityService.setOption(ctx, productId, made.legacyResourceId, startTime, "09:00"))).toBe("AVAILABILITY_EXPIRED");
  });
});

describe("step 3, prices and quantities", () => {
  it("refuses prices before every option, in a currency not converted, and in another than the flow's", async () => {
    const world = bookingWorld();
    const productId = world.product(SETUP);
    const ctx = world.ctx();
    const made = await availabilityService.create(ctx, productId, DAY);
    expect(await refusal(availabilityService.prices(ctx, productId, made.legacyResourceId, "EUR"))).toBe("OPTIONS_INCOMPLETE");
    const timed = await availabilityService.setOption(ctx, productId, made.legacyResourceId, option(made, "Start time"), "09:00");
    await availabilityService.setOption(ctx, productId, made.legacyResourceId, option(timed, "Guide"), "fr");
    expect(await refusal(availabilityService.prices(ctx, productId, made.legacyResourceId, "XYZ"))).toBe("UNSUPPORTED_CURRENCY");
    expect(await refusal(availabilityService.setQuantities(ctx, productId, made.legacyResourceId, "EUR", []))).toBe("PRICING_INCOMPLETE");
    expect((await availabilityService.prices(ctx, productId, made.legacyResourceId, "EUR")).totalPrice).toEqual(expect.objectContaining({ currencyCode: "EUR" }));
    expect(await refusal(availabilityService.prices(ctx, productId, made.legacyResourceId, "GBP"))).toBe("CURRENCY_CHANGE");
    expect(await refusal(availabilityService.setQuantities(ctx, productId, made.legacyResourceId, "GBP", []))).toBe("CURRENCY_CHANGE");
    expect(await refusal(availabilityService.setQuantities(ctx, productId, made.legacyResourceId, "XYZ", []))).toBe("UNSUPPORTED_CURRENCY");
  });

  it("takes quantities within the rules and the places left, refuses the others, and a refusal changes nothing", async () => {
    const world = bookingWorld();
    const productId = world.product(SETUP);
    const ctx = world.ctx();
    const availability = await priced(world, productId, 2, ctx);
    expect(availability.totalPrice!.amount).toBe("100.00");
    const id = availability.legacyResourceId;
    const before = structuredClone(world.availabilities.rows.get(id));
    const child = unit(availability, "Child");
    const adult = unit(availability, "Adult");
    expect(await refusal(availabilityService.setQuantities(ctx, productId, id, "EUR", [{ unitId: adult, value: 1 }, { unitId: adult, value: 2 }]))).toBe("INVALID_QUANTITIES");
    expect(await refusal(availabilityService.setQuantities(ctx, productId, id, "EUR", [{ unitId: adult, value: 7 }]))).toBe("INVALID_QUANTITIES");
    expect(await refusal(availabilityService.setQuantities(ctx, productId, id, "EUR", [{ unitId: "no-such-unit", value: 1 }]))).toBe("INVALID_QUANTITIES");
    world.engine.places.set(`${productId}@${new Date(`${DAY}T08:00:00Z`).toISOString()}`, 2);
    expect(await refusal(availabilityService.setQuantities(ctx, productId, id, "EUR", [{ unitId: adult, value: 3 }]))).toBe("INVALID_QUANTITIES");
    expect(world.availabilities.rows.get(id)).toEqual(before);
    expect(await refusal(availabilityService.setQuantities(ctx, productId + 1, id, "EUR", []))).toBe("NOT_FOUND");
    const two = await availabilityService.setQuantities(ctx, productId, id, "EUR", [{ unitId: adult, value: 2 }, { unitId: child, value: 0 }]);
    expect(two.isPricingStepCompleted).toBe(true);
  });
});

describe("step 4, booking", () => {
  it("holds the places and answers the same booking to the same request", async () => {
    const world = bookingWorld();
    const productId = world.product(SETUP);
    const ctx = world.ctx();
    const availability = await priced(world, productId, 2, ctx);
    const booking = await bookingService.create(ctx, { availabilityId: availability.legacyResourceId, resellerRef: "REF1" });
    expect(booking.status).toBe("ON_HOLD");
    expect(world.engine.placesLeft(productId, new Date(`${DAY}T08:00:00Z`))).toBe(4);
    expect(world.announced).toEqual([`${booking.legacyResourceId} ON_HOLD`]);
    const again = await bookingService.create(ctx, { availabilityId: availability.legacyResourceId, resellerRef: "REF1" });
    expect(again.legacyResourceId).toBe(booking.legacyResourceId);
    expect(world.engine.placesLeft(productId, new Date(`${DAY}T08:00:00Z`))).toBe(4);
    expect(await refusal(bookingService.create(ctx, { availabilityId: availability.legacyResourceId, resellerRef: "REF2" }))).toBe("AVAILABILITY_USED");
  });

  it("refuses references that are not letters or digits, and an availability that is none or another's", async () => {
    const world = bookingWorld();
    const availability = await priced(world, world.product(SETUP));
    const ctx = world.ctx();
    const availabilityId = availability.legacyResourceId;
    expect(await refusal(bookingService.create(ctx, { availabilityId, resellerRef: "" }))).toBe("BAD_USER_INPUT");
    expect(await refusal(bookingService.create(ctx, { availabilityId, resellerRef: "REF 1" }))).toBe("BAD_USER_INPUT");
    expect(await refusal(bookingService.create(ctx, { availabilityId, resellerRef: "REF1", externalClientId: "x-1" }))).toBe("BAD_USER_INPUT");
    expect(await refusal(bookingService.create(ctx, { availabilityId: "not-a-uuid", resellerRef: "REF1" }))).toBe("INVALID_AVAILABILITY");
    expect(await refusal(bookingService.create(ctx, { availabilityId: crypto.randomUUID(), resellerRef: "REF1" }))).toBe("INVALID_AVAILABILITY");
    expect(await refusal(bookingService.create(world.ctx(another), { availabilityId, resellerRef: "REF1" }))).toBe("FORBIDDEN");
    expect(await refusal(bookingService.create(world.ctx(noBookingScope), { availabilityId, resellerRef: "REF1" }))).toBe("FORBIDDEN");
    expect(world.bookings.rows.size).toBe(0);
  });

  it("refuses an incomplete or expired availability, and another currency or language than the flow's", async () => {
    const world = bookingWorld();
    const productId = world.product(SETUP);
    const ctx = world.ctx();
    const made = await availabilityService.create(ctx, productId, DAY);
    expect(await refusal(bookingService.create(ctx, { availabilityId: made.legacyResourceId, resellerRef: "REF1" }))).toBe("AVAILABILITY_INCOMPLETE");
    const availabilityId = (await priced(world, productId, 2, ctx)).legacyResourceId;
    expect(await refusal(bookingService.create(ctx, { availabilityId, resellerRef: "REF1", currencyCode: "GBP" }))).toBe("CURRENCY_CHANGE");
    expect(await refusal(bookingService.create(world.ctx({}, ["fr", "en"]), { availabilityId, resellerRef: "REF1" }))).toBe("LANGUAGE_CHANGE");
    world.clock.advance(3600);
    expect(await refusal(bookingService.create(ctx, { availabilityId, resellerRef: "REF1" }))).toBe("AVAILABILITY_EXPIRED");
    expect(world.bookings.rows.size).toBe(0);
  });

  it("refuses a product no longer sold, tickets no longer offered, a start gone, and too few places left", async () => {
    const world = bookingWorld();
    const productId = world.product(SETUP);
    const ctx = world.ctx();
    const gone = await priced(world, productId, 2, ctx);
    world.products.set(productId, { ...world.products.get(productId)!, deprecated: true });
    expect(await refusal(bookingService.create(world.ctx(), { availabilityId: gone.legacyResourceId, resellerRef: "REF1" }))).toBe("NO_LONGER_AVAILABLE");
    world.products.set(productId, { ...world.products.get(productId)!, deprecated: false });

    const tickets = await priced(world, productId, 2, ctx);
    const setup = world.engine.setups.get(productId)!;
    world.engine.setups.set(productId, { ...setup, units: setup.units.map((u) => ({ ...u, key: `${u.key}2` })) });
    expect(await refusal(bookingService.create(ctx, { availabilityId: tickets.legacyResourceId, resellerRef: "REF1" }))).toBe("NO_LONGER_AVAILABLE");
    world.engine.setups.set(productId, { ...setup, startTimes: ["14:00"] });
    expect(await refusal(bookingService.create(ctx, { availabilityId: tickets.legacyResourceId, resellerRef: "REF1" }))).toBe("NO_LONGER_AVAILABLE");
    world.engine.setups.set(productId, setup);

    const full = await priced(world, productId, 2, ctx);
    world.engine.places.set(`${productId}@${new Date(`${DAY}T08:00:00Z`).toISOString()}`, 1);
    expect(await refusal(bookingService.create(ctx, { availabilityId: full.legacyResourceId, resellerRef: "REF1" }))).toBe("NO_LONGER_AVAILABLE");
    expect(world.engine.placesLeft(productId, new Date(`${DAY}T08:00:00Z`))).toBe(1);
    expect(world.bookings.rows.size).toBe(0);
  });

  it("refuses new prices once (9573) with the availability repriced, and books at them when asked again", async () => {
    const world = bookingWorld();
    const productId = world.product(SETUP);
    const ctx = world.ctx();
    const availability = await priced(world, productId, 2, ctx);
    const setup = world.engine.setups.get(productId)!;
    world.engine.setups.set(productId, { ...setup, units: setup.units.map((u) => (u.key === "adult" ? { ...u, price: 60 } : u)) });
    expect(await refusal(bookingService.create(ctx, { availabilityId: availability.legacyResourceId, resellerRef: "REF1" }))).toBe("PRICES_CHANGED");
    expect(world.availabilities.rows.get(availability.legacyResourceId)!.quotedTotal).toBe(120);
    expect(world.bookings.rows.size).toBe(0);
    const booking = await bookingService.create(ctx, { availabilityId: availability.legacyResourceId, resellerRef: "REF1" });
    expect(booking.totalPrice).toEqual(expect.objectContaining({ amount: "120.00" }));
  });

  it("tells a request on a used availability where its booking went: confirmed, cancelled, expired or refused", async () => {
    for (const [status, refused] of [
      ["PENDING_CONFIRM", "BOOKING_ALREADY_CONFIRMED"],
      ["CANCELLED", "BOOKING_ALREADY_CANCELLED"],
      ["EXPIRED", "BOOKING_ALREADY_CANCELLED"],
      ["REJECTED", "NO_LONGER_AVAILABLE"],
    ] as const) {
      const world = bookingWorld();
      const booking = await held(world);
      await world.bookings.update(undefined as never, booking.legacyResourceId, { status });
      const availabilityId = world.bookings.rows.get(booking.legacyResourceId)!.availabilityId;
      expect(await refusal(bookingService.create(world.ctx(), { availabilityId, resellerRef: "REF1" }))).toBe(refused);
    }
  });

  it("expires a lapsed hold found on the availability, giving its places back, and refuses the request", async () => {
    const world = bookingWorld();
    const booking = await held(world);
    const row = world.bookings.rows.get(booking.legacyResourceId)!;
    world.clock.advance(BOOKING_HOLD_MS / 1000);
    expect(await refusal(bookingService.create(world.ctx(), { availabilityId: row.availabilityId, resellerRef: "REF1" }))).toBe("BOOKING_ALREADY_CANCELLED");
    expect(world.bookings.rows.get(row.id)!.status).toBe("EXPIRED");
    expect(world.engine.placesLeft(row.productId, row.startsAt)).toBe(6);
    expect(world.announced.at(-1)).toBe(`${row.id} EXPIRED`);
  });
});

describe("step 5, questions", () => {
  it("takes valid answers, refuses others and any on a booking no longer on hold, another's or unknown", async () => {
    const world = bookingWorld();
    const ctx = world.ctx();
    const booking = await held(world, undefined, ctx);
    const id = booking.legacyResourceId;
    const email = booking.questions.customer.find((q) => q.text === "E-mail")!;
    expect(await refusal(bookingService.answer(ctx, id, [...answersOf(booking).filter((a) => a.id !== email.id), { id: email.id, value: "not an address" }]))).toBe("INVALID_ANSWERS");
    expect(await refusal(bookingService.answer(ctx, id, [{ id: "no-such-question", value: "Ada" }]))).toBe("INVALID_ANSWERS");
    expect(world.bookings.rows.get(id)!.answers).toEqual({});
    expect(await refusal(bookingService.answer(world.ctx(another), id, answersOf(booking)))).toBe("FORBIDDEN");
    expect(await refusal(bookingService.answer(ctx, crypto.randomUUID(), answersOf(booking)))).toBe("NOT_FOUND");
    const answered = await bookingService.answer(ctx, id, answersOf(booking));
    expect(answered.questions.customer.map((q) => q.value)).toEqual(["Ada", "Lovelace", "ada@example.com"]);
    await bookingService.confirm(ctx, id, null);
    expect(await refusal(bookingService.answer(ctx, id, answersOf(booking)))).toBe("BOOKING_NOT_EDITABLE");
  });
});

describe("step 6, confirmation", () => {
  it("refuses before every question is answered, then writes the confirmation job once, however often asked", async () => {
    const world = bookingWorld();
    const ctx = world.ctx();
    const booking = await held(world, undefined, ctx);
    const id = booking.legacyResourceId;
    expect(await refusal(bookingService.confirm(ctx, id, null))).toBe("QUESTIONS_INCOMPLETE");
    expect(await refusal(bookingService.confirm(ctx, id, "not valid!"))).toBe("BAD_USER_INPUT");
    await bookingService.answer(ctx, id, answersOf(booking));
    expect((await bookingService.confirm(ctx, id, "CLIENT1")).status).toBe("PENDING_CONFIRM");
    expect((await bookingService.confirm(ctx, id, null)).status).toBe("PENDING_CONFIRM");
    expect(world.bookings.jobs.map((job) => job.kind)).toEqual(["confirm"]);
    expect(world.bookings.rows.get(id)).toEqual(expect.objectContaining({ paymentStatus: "PAID", externalClientId: "CLIENT1" }));
  });

  it("asks for answers again once they were erased for privacy", async () => {
    const world = bookingWorld();
    const booking = await held(world);
    await world.bookings.update(undefined as never, booking.legacyResourceId, { answers: {}, answersRedactedAt: world.clock.now() });
    const error = await bookingService.confirm(world.ctx(), booking.legacyResourceId, null).catch((e: GraphQLError) => e);
    expect((error as GraphQLError).extensions.reason).toBe("QUESTIONS_INCOMPLETE");
    expect((error as GraphQLError).message).toMatch(/erased for privacy/);
  });

  it("refuses a cancelled, expired or rejected booking, and expires one past its hold", async () => {
    for (const [status, refused] of [
      ["CANCELLED", "BOOKING_ALREADY_CANCELLED"],
      ["EXPIRED", "BOOKING_ALREADY_CANCELLED"],
      ["REJECTED", "BOOKING_REJECTED"],
    ] as const) {
      const world = bookingWorld();
      const booking = await held(world);
      await world.bookings.update(undefined as never, booking.legacyResourceId, { status });
      expect(await refusal(bookingService.confirm(world.ctx(), booking.legacyResourceId, null))).toBe(refused);
    }
    const world = bookingWorld();
    const booking = await held(world);
    await bookingService.answer(world.ctx(), booking.legacyResourceId, answersOf(booking));
    world.clock.advance(BOOKING_HOLD_MS / 1000);
    expect(await refusal(bookingService.confirm(world.ctx(), booking.legacyResourceId, null))).toBe("BOOKING_EXPIRED");
    expect(world.bookings.rows.get(booking.legacyResourceId)!.status).toBe("EXPIRED");
    expect(world.bookings.jobs).toEqual([]);
  });
});

describe("step 7, cancellation", () => {
  it("cancels a hold and a confirmed booking within its tier, telling the supplier of the confirmed one first", async () => {
    const world = bookingWorld();
    const hold = await held(world);
    const cancelled = await bookingService.cancel(world.ctx(), hold.legacyResourceId, null);
    expect(cancelled.booking.status).toBe("CANCELLED");
    expect(world.engine.cancelled).toEqual([]);
    const booking = await confirmed(world);
    const information = await bookingService.cancel(world.ctx(), booking.legacyResourceId, "Plans changed");
    expect(Number(information.refundRate)).toBe(1);
    expect(world.bookings.rows.get(booking.legacyResourceId)!.paymentStatus).toBe("REFUND");
    expect(world.engine.cancelled).toEqual([{ bookingId: booking.legacyResourceId, reason: "Plans changed" }]);
  });

  it("refuses a reason too long, a booking cancelled already, one awaiting its supplier, and one past its last tier", async () => {
    const world = bookingWorld();
    const booking = await held(world);
    expect(await refusal(bookingService.cancel(world.ctx(), booking.legacyResourceId, "x".repeat(501)))).toBe("BAD_USER_INPUT");
    expect(await refusal(bookingService.cancel(world.ctx(), booking.legacyResourceId, ""))).toBe("BAD_USER_INPUT");
    await bookingService.cancel(world.ctx(), booking.legacyResourceId, null);
    expect(await refusal(bookingService.cancel(world.ctx(), booking.legacyResourceId, null))).toBe("BOOKING_ALREADY_CANCELLED");

    const waiting = await pending(world);
    expect(await refusal(bookingService.cancel(world.ctx(), waiting.legacyResourceId, null))).toBe("BOOKING_NOT_CANCELLABLE");
    const lateWorld = bookingWorld(new Date("2026-12-09T10:00:00Z"));
    const within = await confirmed(lateWorld);
    expect(await refusal(bookingService.cancel(lateWorld.ctx(), within.legacyResourceId, null))).toBe("BOOKING_NOT_CANCELLABLE");
    expect(lateWorld.bookings.rows.get(within.legacyResourceId)!.status).toBe("CONFIRMED");
  });

  it("answers the supplier's refusal and cancels nothing", async () => {
    const world = bookingWorld();
    const booking = await confirmed(world);
    world.engine.cancelRefusal = new EngineRefusal("BOOKING_NOT_CANCELLABLE", "The supplier will not cancel it");
    expect(await refusal(bookingService.cancel(world.ctx(), booking.legacyResourceId, null))).toBe("BOOKING_NOT_CANCELLABLE");
    expect(world.bookings.rows.get(booking.legacyResourceId)!.status).toBe("CONFIRMED");
    expect(await refusal(bookingService.cancel(world.ctx(another), booking.legacyResourceId, null))).toBe("FORBIDDEN");
  });
});

describe("a supplier that holds places in its own system", () => {
  function supplierWorld() {
    const world = bookingWorld();
    const supplier = new SupplierHolds();
    world.engine.upstream = supplier;
    return { world, supplier };
  }

  it("holds before the booking is written, and writes nothing when the supplier refuses or does not answer", async () => {
    const { world, supplier } = supplierWorld();
    const booking = await held(world);
    expect(supplier.held).toEqual([booking.legacyResourceId]);
    // Places are the supplier's to count: our table is not touched.
    expect(world.engine.placesLeft(world.bookings.rows.get(booking.legacyResourceId)!.productId, new Date(`${DAY}T08:00:00Z`))).toBe(6);

    for (const [thrown, refused] of [
      [new EngineRefusal("NO_LONGER_AVAILABLE", "sold out upstream"), "NO_LONGER_AVAILABLE"],
      [new EngineRefusal("PRICES_CHANGED", "the supplier's price moved"), "PRICES_CHANGED"],
      [new TransientEngineError("timed out"), "ENGINE_UNAVAILABLE"],
    ] as const) {
      const next = supplierWorld();
      next.supplier.holdRefusal = thrown;
      expect(await refusal(held(next.world))).toBe(refused);
      expect(next.world.bookings.rows.size).toBe(0);
    }
  });

  it("extends a shorter supplier hold when answering, and expires the booking once the supplier has let it go", async () => {
    const { world, supplier } = supplierWorld();
    supplier.holdFor = 10 * 60_000;
    const booking = await held(world);
    const id = booking.legacyResourceId;
    world.clock.advance(60);
    await bookingService.answer(world.ctx(), id, answersOf(booking));
    expect(world.bookings.rows.get(id)!.holdExpiresAt.getTime()).toBe(world.bookings.rows.get(id)!.creationDate.getTime() + BOOKING_HOLD_MS);

    const lapsing = supplierWorld();
    lapsing.supplier.holdFor = 10 * 60_000;
    const short = await held(lapsing.world);
    lapsing.world.clock.advance(60);
    lapsing.supplier.extendRefusal = new EngineRefusal("BOOKING_EXPIRED", "no longer held");
    expect(await refusal(bookingService.answer(lapsing.world.ctx(), short.legacyResourceId, answersOf(short)))).toBe("BOOKING_EXPIRED");
    expect(lapsing.world.bookings.rows.get(short.legacyResourceId)!.status).toBe("EXPIRED");
  });

  it("refuses a confirmation when the supplier refuses the service's key, leaving the booking as it was", async () => {
    const { world, supplier } = supplierWorld();
    supplier.holdFor = 10 * 60_000;
    const booking = await held(world);
    const id = booking.legacyResourceId;
    world.clock.advance(60);
    supplier.extendRefusal = undefined;
    await bookingService.answer(world.ctx(), id, answersOf(booking));
    // Answering extended the hold to our hour; shorten it again, as a supplier that keeps less would.
    await world.bookings.update(undefined as never, id, { holdExpiresAt: new Date(world.clock.now().getTime() + 5 * 60_000) });
    const before = structuredClone(world.bookings.rows.get(id));
    supplier.extendRefusal = new EngineRefusal("ENGINE_REFUSED", "the key is refused");
    expect(await refusal(bookingService.confirm(world.ctx(), id, null))).toBe("ENGINE_REFUSED");
    expect(world.bookings.rows.get(id)).toEqual(before);
    expect(world.bookings.jobs).toEqual([]);
  });

  it("lets the supplier's hold go when a held booking is cancelled", async () => {
    const { world, supplier } = supplierWorld();
    const booking = await held(world);
    await bookingService.cancel(world.ctx(), booking.legacyResourceId, null);
    expect(supplier.released).toEqual([booking.legacyResourceId]);
  });
});

describe("the voucher", () => {
  const SECRET = Buffer.alloc(32, 7);
  const linkOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

  it("renders behind a valid link, and refuses one expired, one tampered with, and a booking not confirmed", async () => {
    const world = bookingWorld();
    const booking = await confirmed(world);
    const id = booking.legacyResourceId;
    const { expires, signature } = linkOf(booking.voucherUrl!);
    const voucher = await bookingService.voucher(world.ctx(), id, expires, signature);
    expect(voucher.fileName).toBe("voucher-CODE1.pdf");
    expect(Buffer.from(voucher.pdfBase64, "base64").subarray(0, 5).toString()).toBe("%PDF-");
    expect(await refusal(bookingService.voucher(world.ctx(), id, expires, `${signature.slice(0, -2)}xx`))).toBe("VOUCHER_LINK_INVALID");
    expect(await refusal(bookingService.voucher(world.ctx(), "not-a-uuid", expires, signature))).toBe("BAD_USER_INPUT");
    world.clock.advance(25 * 3600);
    expect(await refusal(bookingService.voucher(world.ctx(), id, expires, signature))).toBe("VOUCHER_LINK_EXPIRED");

    const hold = await held(world);
    const unconfirmed = linkOf(signVoucherLink(SECRET, "https://activities.test", hold.legacyResourceId, new Date(world.clock.now().getTime() + 3600_000)));
    expect(await refusal(bookingService.voucher(world.ctx(), hold.legacyResourceId, unconfirmed.expires, unconfirmed.signature))).toBe("NOT_FOUND");
  });
});
