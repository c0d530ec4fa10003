import { toGlobalId } from "../../core/global-id.js";
import { createClient, type Client, type ExecutionResult } from "graphql-ws";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { bookableProduct, consumer, familySetup, newRef } from "../support/booking.js";
import { graphql, useStack } from "../support/stack.js";

/** The whole flow as a GraphQL client runs it, watching the booking's status over graphql-ws. */
const t = useStack({ ownDatabase: true });
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
});

const connect = (token: string) => {
  const client = createClient({ url: `${t.stack.url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { Authorization: `Bearer ${token}` } });
  clients.push(client);
  return client;
};

const AVAILABILITY = "id isOptionStepCompleted isPricingStepCompleted options { id label dataType choices { key label } selectedValue } units { id quantity price { amount currencyCode } } totalPrice { amount currencyCode }";
const ANSWER = `availability { ${AVAILABILITY} } userErrors { code message field rule errorCode }`;
const QUESTION = "id dataType dataFormat choices { key } value followUpQuestions { id dataType dataFormat value followUpQuestions { id dataType value } }";
const BOOKING = `id legacyResourceId status paymentStatus isQuestionStepComplete questions { customer { ${QUESTION} } booking { ${QUESTION} } participants { id questions { ${QUESTION} } } }`;

function answersFor(booking: any): { questionId: string; value: string }[] {
  const value = (q: any) => (q.dataFormat === "EMAIL_ADDRESS" ? "ada@example.org" : q.dataFormat === "PHONE_NUMBER" ? "+447911123456" : q.dataType === "INT" ? "36" : q.dataType === "BOOLEAN" ? "true" : "Ada");
  const out: { questionId: string; value: string }[] = [];
  const walk = (qs: any[]) => qs.forEach((q) => (out.push({ questionId: q.id, value: q.value ?? value(q) }), walk(q.followUpQuestions ?? [])));
  walk(booking.questions.customer);
  walk(booking.questions.booking);
  booking.questions.participants.forEach((p: any) => walk(p.questions));
  return out;
}

describe("booking through GraphQL with the status subscription", () => {
  it("runs every step as a mutation and sees PENDING_CONFIRM then CONFIRMED, with catalogue fields of the product", async () => {
    const { productId: productNumber } = await bookableProduct(t.stack, familySetup({ confirmationDelaySeconds: 1, startTimes: ["10:00"] }));
    const productId = toGlobalId("Product", productNumber);
    const buyer = await consumer(t.stack);
    const gql = async (query: string, variables: Record<string, unknown> = {}) => {
      const result = await graphql(`${t.stack.url}/graphql`, buyer.token, query, variables);
      expect(result.body.errors, JSON.stringify(result.body.errors)).toBeUndefined();
      return result.body.data!;
    };
    const date = new Date(Date.now() + 7 * 86400_000).toISOString().slice(0, 10);
    const dates = await gql(`query($p: ID!) { nextAvailableDates(productId: $p) }`, { p: productId });
    expect(dates.nextAvailableDates.length).toBeGreaterThan(0);
    // The range's ends left out are today and 30 days on, as REST's parameters left out are.
    const range = await gql(`query($p: ID!) { availableDates(productId: $p) }`, { p: productId });
    expect(range.availableDates.length).toBeGreaterThan(0);
    expect(range.availableDates).toEqual((await buyer.rest.get(`/booking-flow/v1/products/${productNumber}/availabilities`)).body.availabilityDates);
    // Each step answers its availability, and no refusal.
    const step = (payload: { availability: any; userErrors: unknown[] }) => {
      expect(payload.userErrors).toEqual([]);
      return payload.availability;
    };

    let availability = step((await gql(`mutation($i: CreateAvailabilityInput!) { createAvailability(input: $i) { ${ANSWER} } }`, { i: { productId, date } })).createAvailability);
    while (!availability.isOptionStepCompleted) {
      const next = availability.options.find((o: any) => o.selectedValue === null);
      const value = next.dataType === "BOOLEAN" ? "false" : next.choices[0].key;
      availability = step(
        (await gql(`mutation($i: SetAvailabilityOptionInput!) { setAvailabilityOption(input: $i) { ${ANSWER} } }`, { i: { availabilityId: availability.id, optionId: next.id, value } }))
          .setAvailabilityOption,
      );
    }
    const priced = step((await gql(`mutation($i: PriceAvailabilityInput!) { priceAvailability(input: $i) { ${ANSWER} } }`, { i: { availabilityId: availability.id, currencyCode: "GBP" } })).priceAvailability);
    expect(priced.units.map((u: any) => u.quantity)).toEqual([0, 0]);
    expect(priced.units[0].price.currencyCode).toBe("GBP");
    const setQuantities = `mutation($i: SetAvailabilityQuantitiesInput!) { setAvailabilityQuantities(input: $i) { ${ANSWER} } }`;
    // Too many of a unit: refused as data, on the quantity's field, and nothing changes.
    const refused = (await gql(setQuantities, { i: { availabilityId: availability.id, currencyCode: "GBP", quantities: [{ unitId: "adult", quantity: 1000 }] } })).setAvailabilityQuantities;
    expect(refused.availability).toBeNull();
    expect(refused.userErrors[0]).toMatchObject({ code: "INVALID_QUANTITIES", field: ["input", "quantities", "0", "quantity"] });
    const quantities = step((await gql(setQuantities, { i: { availabilityId: availability.id, currencyCode: "GBP", quantities: [{ unitId: "adult", quantity: 2 }] } })).setAvailabilityQuantities);
    expect(quantities.isPricingStepCompleted).toBe(true);
    expect(quantities.totalPrice).toEqual({ amount: "85.00", currencyCode: "GBP" }); // 2 × 50 EUR at 0.85
    // The availability is a Node: found by its global id, as it was last answered.
    expect((await gql(`query($id: ID!) { node(id: $id) { ... on Availability { id totalPrice { amount } } } }`, { id: availability.id })).node).toEqual({ id: availability.id, totalPrice: { amount: "85.00" } });
    const stranger = await consumer(t.stack);
    const hidden = await graphql(`${t.stack.url}/graphql`, stranger.token, `query($id: ID!) { node(id: $id) { id } }`, { id: availability.id });
    expect(hidden.body).toMatchObject({ data: { node: null } });
    // An id that names no availability, and one of another product than the one given: NOT_FOUND on the id.
    const strangerStep = await graphql(`${t.stack.url}/graphql`, stranger.token, `mutation($i: PriceAvailabilityInput!) { priceAvailability(input: $i) { ${ANSWER} } }`, { i: { availabilityId: toGlobalId("Availability", "not-a-uuid") } });
    expect(strangerStep.body.data?.priceAvailability).toEqual({ availability: null, userErrors: [{ code: "NOT_FOUND", message: expect.any(String), field: ["input", "availabilityId"], rule: null, errorCode: null }] });
    const otherProduct = (await gql(`mutation($i: PriceAvailabilityInput!) { priceAvailability(input: $i) { ${ANSWER} } }`, { i: { availabilityId: availability.id, productId: toGlobalId("Product", productNumber + 1) } })).priceAvailability;
    expect(otherProduct.userErrors).toEqual([expect.objectContaining({ code: "NOT_FOUND", field: ["input", "availabilityId"] })]);

    const booked = (payload: { booking: any; userErrors: unknown[] }) => {
      expect(payload.userErrors).toEqual([]);
      return payload.booking;
    };
    let booking = booked((await gql(`mutation($i: CreateBookingInput!) { createBooking(input: $i) { booking { ${BOOKING} } userErrors { code } } }`, { i: { availabilityId: availability.id, resellerRef: newRef() } })).createBooking);
    expect(booking).toMatchObject({ status: "ON_HOLD", paymentStatus: "ON_HOLD" });
    expect(booking.id).toBe(toGlobalId("Booking", booking.legacyResourceId));
    // Confirming before every question is answered: refused as data, with nothing changed.
    const early = (await gql(`mutation($i: ConfirmBookingInput!) { confirmBooking(input: $i) { booking { status } userErrors { code field } } }`, { i: { bookingId: booking.id } })).confirmBooking;
    expect(early).toEqual({ booking: null, userErrors: [{ code: "QUESTIONS_INCOMPLETE", field: null }] });
    // An answer that fits no question: refused on its field of the input.
    const stray = (await gql(`mutation($i: AnswerBookingQuestionsInput!) { answerBookingQuestions(input: $i) { booking { id } userErrors { code field } } }`, { i: { bookingId: booking.id, answers: [{ questionId: "no-such-question", value: "x" }] } })).answerBookingQuestions;
    expect(stray).toEqual({ booking: null, userErrors: [{ code: "INVALID_ANSWERS", field: ["input", "answers", "0", "questionId"] }] });
    while (!booking.isQuestionStepComplete) {
      booking = booked((await gql(`mutation($i: AnswerBookingQuestionsInput!) { answerBookingQuestions(input: $i) { booking { ${BOOKING} } userErrors { code } } }`, { i: { bookingId: booking.id, answers: answersFor(booking) } })).answerBookingQuestions);
    }
    // The booking is a Node, and booking(id) answers null for an id that names none.
    expect((await gql(`query($id: ID!) { node(id: $id) { ... on Booking { status } } }`, { id: booking.id })).node).toEqual({ status: "ON_HOLD" });
    expect((await gql(`query($id: ID!) { booking(id: $id) { id } }`, { id: toGlobalId("Booking", "00000000-0000-4000-8000-000000000000") })).booking).toBeNull();

    const received: ExecutionResult[] = [];
    let firstMessage: () => void;
    const subscribed = new Promise<void>((resolve) => (firstMessage = resolve));
    const completed = new Promise<void>((resolve, reject) => {
      connect(buyer.token).subscribe(
        {
          query: `subscription($id: ID!) { bookingStatusChanged(bookingId: $id) { id status paymentStatus voucherUrl supplierBooking { bookingCode } product { id legacyResourceId externalId cityName } } }`,
          variables: { id: booking.id },
        },
        { next: (r) => (received.push(r as ExecutionResult), firstMessage()), error: reject, complete: resolve },
      );
    });
    // The first message is the booking as it is: from then on no change can be missed.
    await subscribed;
    const confirmed = await gql(`mutation($i: ConfirmBookingInput!) { confirmBooking(input: $i) { booking { status paymentStatus } userErrors { code } } }`, { i: { bookingId: booking.id } });
    expect(confirmed.confirmBooking).toEqual({ booking: { status: "PENDING_CONFIRM", paymentStatus: "PAID" }, userErrors: [] });
    await completed;

    const statuses = received.map((r) => (r.data as any).bookingStatusChanged.status);
    expect(statuses).toEqual(["ON_HOLD", "PENDING_CONFIRM", "CONFIRMED"]);
    const last = (received.at(-1)!.data as any).bookingStatusChanged;
    expect(last).toMatchObject({ id: booking.id, paymentStatus: "PAID", product: { id: productId, legacyResourceId: productNumber, cityName: "Zermatt" } });
    expect(last.product.externalId).toMatch(/^PRD-/);
    expect(last.supplierBooking.bookingCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(last.voucherUrl).toContain(`/booking-flow/v1/vouchers/${booking.legacyResourceId}.pdf`);
  });

  it("lets only the booking's owner subscribe", async () => {
    const { productId } = await bookableProduct(t.stack);
    const owner = await consumer(t.stack);
    const stranger = await consumer(t.stack);
    const date = new Date(Date.now() + 9 * 86400_000).toISOString().slice(0, 10);
    const options = await owner.rest.get(`/booking-flow/v1/products/${productId}/availabilities/${date}/options`);
    expect(options.status).toBe(200);
    const { bookableAvailability } = await import("../support/booking.js");
    const availability = await bookableAvailability(owner.rest, productId, date);
    const booking = (await owner.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() })).body;
    const refused = await new Promise<readonly unknown[]>((resolve) => {
      connect(stranger.token).subscribe(
        { query: `subscription($id: ID!) { bookingStatusChanged(bookingId: $id) { status } }`, variables: { id: toGlobalId("Booking", booking.id) } },
        { next: (r) => resolve((r as ExecutionResult).errors ?? []), error: (e) => resolve(e as unknown[]), complete: () => {} },
      );
    });
    expect(refused[0]).toMatchObject({ extensions: { code: "FORBIDDEN", errorCode: 6501 } });
    const missing = await new Promise<readonly unknown[]>((resolve) => {
      connect(owner.token).subscribe(
        { query: `subscription($id: ID!) { bookingStatusChanged(bookingId: $id) { status } }`, variables: { id: toGlobalId("Booking", "00000000-0000-4000-8000-000000000000") } },
        { next: (r) => resolve((r as ExecutionResult).errors ?? []), error: (e) => resolve(e as unknown[]), complete: () => {} },
      );
    });
    expect(missing[0]).toMatchObject({ extensions: { code: "NOT_FOUND" } });
    const partner = await t.stack.tokenFor("CONTENT_PARTNER");
    const noScope = await new Promise<readonly unknown[]>((resolve) => {
      connect(partner).subscribe(
        { query: `subscription($id: ID!) { bookingStatusChanged(bookingId: $id) { status } }`, variables: { id: toGlobalId("Booking", booking.id) } },
        { next: (r) => resolve((r as ExecutionResult).errors ?? []), error: (e) => resolve(e as unknown[]), complete: () => {} },
      );
    });
    expect(noScope[0]).toMatchObject({ extensions: { code: "FORBIDDEN" } });
  });

  it("a subscription to a booking already final gets its state and completes", async () => {
    const { productId } = await bookableProduct(t.stack);
    const owner = await consumer(t.stack);
    const date = new Date(Date.now() + 10 * 86400_000).toISOString().slice(0, 10);
    const { bookableAvailability } = await import("../support/booking.js");
    const availability = await bookableAvailability(owner.rest, productId, date);
    const booking = (await owner.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() })).body;
    expect((await owner.rest.delete(`/booking-flow/v1/bookings/${booking.id}`)).status).toBe(200);
    const messages: ExecutionResult[] = [];
    await new Promise<void>((resolve, reject) => {
      connect(owner.token).subscribe(
        { query: `subscription($id: ID!) { bookingStatusChanged(bookingId: $id) { status } }`, variables: { id: toGlobalId("Booking", booking.id) } },
        { next: (r) => messages.push(r as ExecutionResult), error: reject, complete: resolve },
      );
    });
    expect(messages.map((m) => (m.data as any).bookingStatusChanged.status)).toEqual(["CANCELLED"]);
  });
});
