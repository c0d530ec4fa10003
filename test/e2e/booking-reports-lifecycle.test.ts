import { toGlobalId } from "../../core/global-id.js";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookableAvailability, bookableProduct, consumer, newRef, validAnswers } from "../support/booking.js";
import { getJson, graphql, ManualClock, useStack } from "../support/stack.js";

const clock = new ManualClock(new Date("2027-03-01T08:00:00Z"));
const ctx = useStack({ clock, env: { WORKER_LOOPS: "false" }, ownDatabase: true });

const MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A booking made through the REST flow, answered and ready to confirm. */
async function answeredBooking() {
  const { productId } = await bookableProduct(ctx.stack, undefined, undefined, { estCommFrpricePerc: 0.2, duration: "PT6H" });
  const buyer = await consumer(ctx.stack);
  const availability = await bookableAvailability(buyer.rest, productId, "2027-03-10", { time: "14:00", adults: 2, children: 1 });
  let booking = (await buyer.rest.send("POST", "/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() }, { externalClientId: "traveller7" })).body;
  while (!booking.isQuestionStepComplete) booking = (await buyer.rest.put(`/booking-flow/v1/bookings/${booking.id}/questions`, validAnswers(booking))).body;
  const report = () => getJson(`${ctx.stack.url}/reporting/v1/bookings/${booking.id}`, buyer.token);
  const listed = async () => (await buyer.rest.get("/reporting/v1/bookings")).body.data;
  return { productId, buyer, booking, report, listed };
}

describe("a booking walked through confirmation and cancellation, as reports show it", () => {
  it("shows each state the moment it is committed, with the detail record of spec 2", async () => {
    const { productId, buyer, booking, report, listed } = await answeredBooking();
    const gross = booking.availability.totalPrice.retail as number;

    // A cart is not a booking yet.
    expect(await listed()).toEqual([]);
    expect((await report()).status).toBe(404);

    const confirmAt = clock.now();
    expect((await buyer.rest.post(`/booking-flow/v1/bookings/${booking.id}/confirm`)).body.status).toBe("PENDING_CONFIRM");
    const pending = await listed();
    expect(pending).toEqual([
      {
        id: booking.id,
        externalClientId: "traveller7",
        bookingEngineName: expect.stringMatching(/^ENGINE_/),
        testMode: true,
        status: "PENDING_CONFIRM",
        bookedAt: `${booking.creationDate.slice(0, 19)}Z`,
        activityStartDate: "2027-03-10T13:00:00Z",
        priceGross: gross,
        priceCurrency: "EUR",
        flowType: "quick-connect",
        partnerChannelName: buyer.username,
        productId,
      },
    ]);
    expect(confirmAt.toISOString().slice(0, 19)).toBe(booking.creationDate.slice(0, 19));

    clock.advance(3);
    await ctx.stack.service.worker!.runOnce();
    const read = (await buyer.rest.get(`/booking-flow/v1/bookings/${booking.id}`)).body;
    expect(read.status).toBe("CONFIRMED");
    const [confirmed] = await listed();
    expect(confirmed).toMatchObject({
      status: "CONFIRMED",
      bookingCode: read.bookingEngineDetails.bookingCode,
      bookingExternalId: read.bookingEngineDetails.bookingExternalId,
      confirmedAt: "2027-03-01T08:00:03Z",
      voucherCreatedAt: "2027-03-01T08:00:03Z",
    });
    expect(confirmed.cancelledAt).toBeUndefined();

    const detail = await report();
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({
      ...confirmed,
      partnerId: expect.stringMatching(/^\d+$/),
      price: { gross, net: Math.round(gross * 0.8 * 100) / 100, currency: "EUR" },
      paxBooked: 3,
      activityEndDate: "2027-03-10T19:00:00Z",
      isCancellable: true,
      product: { id: productId, externalId: expect.stringMatching(/^PRD-/), title: "Matterhorn glacier hike" },
      options: {
        availabilityOptions: [
          expect.objectContaining({ label: "Start time", level: "0", dataType: "OPTIONS", selectedOptionId: "14:00", selectedOptionValue: "14:00" }),
          expect.objectContaining({ label: "Route", level: "1", dataType: "OPTIONS", optionChoices: { glacier: "Glacier", lake: "Lake" }, selectedOptionId: "glacier", selectedOptionValue: "Glacier" }),
          expect.objectContaining({ label: "Packed lunch", level: "2", dataType: "BOOLEAN", selectedOptionId: "true", selectedOptionValue: "true" }),
        ],
      },
      cancellationInformation: {
        cancellation: {
          cancellationPolicy: [
            { label: "Free cancellation up to 2 days before", duration: "P2D", refundPercentage: 100 },
            { label: "Half refund up to 12 hours before", duration: "PT12H", refundPercentage: 50 },
          ],
        },
      },
    });

    clock.advance(60);
    const cancelled = await buyer.rest.delete(`/booking-flow/v1/bookings/${booking.id}?cancellationReason=${encodeURIComponent("Traveller is ill")}`);
    expect(cancelled.status).toBe(200);
    const after = await report();
    expect(after.body).toMatchObject({ status: "CANCELLED", cancelledAt: "2027-03-01T08:01:03Z", isCancellable: false, confirmedAt: "2027-03-01T08:00:03Z" });
    expect(after.body.cancellationInformation).toEqual({
      cancellationRequestDateTime: "2027-03-01T08:01:03.000Z",
      cancellationReason: "Traveller is ill",
      cancellation: { cancellationPolicy: detail.body.cancellationInformation.cancellation.cancellationPolicy },
    });
    expect(after.body.cancellationInformation.cancellationRequestDateTime).toMatch(MILLIS);
    expect((await buyer.rest.get("/reporting/v1/bookings?status=CANCELLED")).body.data.map((r: { id: string }) => r.id)).toEqual([booking.id]);
  });

  it("shows a supplier's refusal as REJECTED", async () => {
    const { buyer, booking, listed } = await answeredBooking();
    await buyer.rest.post(`/booking-flow/v1/bookings/${booking.id}/confirm`);
    // The supplier withdraws the start time before it confirms: the confirmation job rejects.
    await ctx.database.db.execute(sql`update bookings set starts_at = starts_at + interval '7 minutes' where id = ${booking.id}`);
    clock.advance(3);
    await ctx.stack.service.worker!.runOnce();
    const [rejected] = await listed();
    expect(rejected).toMatchObject({ id: booking.id, status: "REJECTED" });
    expect(rejected.confirmedAt).toBeUndefined();
    expect(rejected.bookingCode).toBeUndefined();
  });

  it("commits a booking change and its report together: if the report cannot be written, the change does not happen", async () => {
    const { buyer, booking, report } = await answeredBooking();
    await buyer.rest.post(`/booking-flow/v1/bookings/${booking.id}/confirm`);
    clock.advance(3);
    await ctx.stack.service.worker!.runOnce();
    await ctx.database.db.execute(
      sql.raw("create function refuse_cancelled_report() returns trigger language plpgsql as $$ begin raise exception 'report store unavailable'; end $$"),
    );
    await ctx.database.db.execute(
      sql.raw("create trigger refuse_cancelled_report before update on booking_reports for each row when (new.status = 'CANCELLED') execute function refuse_cancelled_report()"),
    );
    try {
      const cancel = await buyer.rest.delete(`/booking-flow/v1/bookings/${booking.id}`);
      expect(cancel.status).toBe(500);
      expect((await buyer.rest.get(`/booking-flow/v1/bookings/${booking.id}`)).body.status).toBe("CONFIRMED");
      expect((await report()).body.status).toBe("CONFIRMED");
    } finally {
      await ctx.database.db.execute(sql.raw("drop trigger refuse_cancelled_report on booking_reports"));
      await ctx.database.db.execute(sql.raw("drop function refuse_cancelled_report()"));
    }
    expect((await buyer.rest.delete(`/booking-flow/v1/bookings/${booking.id}`)).status).toBe(200);
    expect((await report()).body.status).toBe("CANCELLED");
  });

  it("lets the GraphQL report carry the booking subgraph's terms and the catalogue's product in one query", async () => {
    const { buyer, booking } = await answeredBooking();
    await buyer.rest.post(`/booking-flow/v1/bookings/${booking.id}/confirm`);
    const response = await graphql(
      `${ctx.stack.url}/graphql`,
      buyer.token,
      `query ($id: ID!) { bookingReport(id: $id) { status isCancellable cancellationPolicy { refundRate } availabilityOptions { selectedLabel } product { cityName } netPrice { amount currencyCode } } }`,
      { id: toGlobalId("BookingReport", booking.id) },
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data!.bookingReport).toEqual({
      status: "PENDING_CONFIRM",
      isCancellable: false,
      cancellationPolicy: [{ refundRate: "1" }, { refundRate: "0.5" }],
      availabilityOptions: [{ selectedLabel: "14:00" }, { selectedLabel: "Glacier" }, { selectedLabel: "true" }],
      product: { cityName: "Zermatt" },
      netPrice: { amount: (Math.round(booking.availability.totalPrice.retail * 0.8 * 100) / 100).toFixed(2), currencyCode: booking.availability.totalPrice.currency },
    });
  });
});
