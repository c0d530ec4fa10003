import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { searchAndReport } from "../../examples/rest-client/search-and-report.js";
import { bookableAvailability, bookableProduct, consumer, newRef, validAnswers } from "../support/booking.js";
import { startProcess } from "../support/child-process.js";
import { ManualClock, useStack } from "../support/stack.js";

const clock = new ManualClock(new Date("2027-03-01T08:00:00Z"));
const t = useStack({ clock, env: { WORKER_LOOPS: "false" }, ownDatabase: true });

describe("the typed REST client example (examples/rest-client)", () => {
  it("signs in, finds a product by a search expression, reads it, and reads the caller's booking report", async () => {
    // A word no other product's title has, so the search finds exactly this one.
    const word = `glacier${randomUUID().replace(/[^a-f]/g, "").slice(0, 8)}`;
    const { productId } = await bookableProduct(t.stack, undefined, undefined, { title: { en: `Matterhorn ${word} hike` } });
    const buyer = await consumer(t.stack);
    const availability = await bookableAvailability(buyer.rest, productId, "2027-03-10", { adults: 2 });
    let booking = (await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() })).body;
    while (!booking.isQuestionStepComplete) booking = (await buyer.rest.put(`/booking-flow/v1/bookings/${booking.id}/questions`, validAnswers(booking))).body;
    expect((await buyer.rest.post(`/booking-flow/v1/bookings/${booking.id}/confirm`)).status).toBe(200);

    const result = await searchAndReport(t.stack.url, { username: buyer.username, password: buyer.password }, `title:${word} AND cityName:zermatt`);

    expect(result.totalFound).toBe(1);
    expect(result.product).toMatchObject({ id: productId, title: `Matterhorn ${word} hike`, externalId: expect.stringMatching(/^PRD-/), cityName: "Zermatt" });
    expect(result.bookingCount).toBe(1);
    expect(result.bookings).toEqual([
      expect.objectContaining({ id: booking.id, status: "PENDING_CONFIRM", productId, priceGross: availability.totalPrice.retail, priceCurrency: "EUR" }),
    ]);
  });

  it("finds nothing for a search without a match, and still reads the (empty) report", async () => {
    const buyer = await consumer(t.stack);
    const result = await searchAndReport(t.stack.url, buyer, `title:nothing${randomUUID().replace(/[^a-f]/g, "").slice(0, 8)}`);
    expect(result).toEqual({ totalFound: 0, product: undefined, bookings: [], bookingCount: 0 });
  });

  it("runs from the command line as the README says, printing what it found", async () => {
    const word = `fjord${randomUUID().replace(/[^a-f]/g, "").slice(0, 8)}`;
    const { productId } = await bookableProduct(t.stack, undefined, undefined, { title: { en: `Geiranger ${word} cruise` } });
    const buyer = await consumer(t.stack);
    const command = startProcess({}, [t.stack.url, buyer.username, buyer.password, `title:${word}`], { file: process.execPath, args: ["--import", "tsx", "examples/rest-client/search-and-report.ts"] });
    expect(await command.exited).toBe(0);
    expect(JSON.parse(command.output())).toEqual({ totalFound: 1, product: { id: productId, title: `Geiranger ${word} cruise`, cityName: expect.any(String) }, bookingCount: 0 });
  });

  it("reports the service's refusals: OAuth errors at sign-in, the error body's code after", async () => {
    const buyer = await consumer(t.stack);
    await expect(searchAndReport(t.stack.url, { username: buyer.username, password: "not-the-password" }, "title:museum")).rejects.toThrow(
      "sign-in refused (400): invalid_grant Invalid user credentials",
    );
    await expect(searchAndReport(t.stack.url, buyer, "title museum")).rejects.toThrow(/^400 INVALID_SEARCH: Search: /);
  });
});
