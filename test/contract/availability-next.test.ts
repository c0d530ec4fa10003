import { describe, expect, it } from "vitest";
import { bookableProduct, consumer, everyDay, familySetup } from "../support/booking.js";
import { ManualClock, useStack } from "../support/stack.js";

/**
 * GET /booking-flow/v1/products/{productId}/availabilities/next (spec 2, step 1 alternative): the
 * first available date within a year and every other available date of that month, to its last
 * day; an empty list when there is none within the year.
 */
const clock = new ManualClock(new Date("2027-01-10T09:00:00Z"));
const t = useStack({ clock, env: { WORKER_LOOPS: "false" } });
const next = (productId: number) => `/booking-flow/v1/products/${productId}/availabilities/next`;

/** Every date of a month from `first` to its last day. */
const daysFrom = (first: string, last: string) => {
  const dates: string[] = [];
  for (let day = new Date(`${first}T00:00:00Z`); day <= new Date(`${last}T00:00:00Z`); day.setUTCDate(day.getUTCDate() + 1)) dates.push(day.toISOString().slice(0, 10));
  return dates;
};

const onlyMondays = (from: string, to: string) => {
  const periods = everyDay(from, to);
  for (const day of ["tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]) (periods.weeklyPeriods[0] as Record<string, unknown>)[day] = { open: false, hours: null };
  return periods;
};

describe("GET availabilities/next", () => {
  it("answers the first available date and the rest of its month, even months ahead", async () => {
    const { productId } = await bookableProduct(t.stack, undefined, everyDay("2027-03-05", "2027-12-31"));
    const buyer = await consumer(t.stack);
    const answer = await buyer.rest.get(next(productId));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ availabilityDates: daysFrom("2027-03-05", "2027-03-31") });
    expect(answer.headers.get("cache-control")).toBe("private, max-age=300");
  });

  it("keeps to the open days of that month", async () => {
    const { productId } = await bookableProduct(t.stack, undefined, onlyMondays("2027-02-01", "2027-06-30"));
    const buyer = await consumer(t.stack);
    expect((await buyer.rest.get(next(productId))).body).toEqual({ availabilityDates: ["2027-02-01", "2027-02-08", "2027-02-15", "2027-02-22"] });
  });

  it("runs to the end of the month of a first date found just inside the year, as far as the product is sold", async () => {
    // Today is 2027-01-10 in Zurich: a year ahead is 2028-01-10. Sold 400 days ahead, January 2028
    // is listed whole from its first date; sold 365 days ahead (the default), up to that day.
    const far = await bookableProduct(t.stack, familySetup({ bookingHorizonDays: 400 }), everyDay("2028-01-08", "2028-03-31"));
    const near = await bookableProduct(t.stack, familySetup(), everyDay("2028-01-08", "2028-03-31"));
    const buyer = await consumer(t.stack);
    expect((await buyer.rest.get(next(far.productId))).body).toEqual({ availabilityDates: daysFrom("2028-01-08", "2028-01-31") });
    expect((await buyer.rest.get(next(near.productId))).body).toEqual({ availabilityDates: daysFrom("2028-01-08", "2028-01-10") });
  });

  it("answers an empty list when no date is available within a year", async () => {
    const { productId } = await bookableProduct(t.stack, undefined, everyDay("2028-01-11", "2028-12-31"));
    const buyer = await consumer(t.stack);
    const answer = await buyer.rest.get(next(productId));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ availabilityDates: [] });
  });

  it("answers 404 for an unknown product, 400 for a non-numeric id, 403 for a content partner", async () => {
    const { productId, partner } = await bookableProduct(t.stack);
    const buyer = await consumer(t.stack);
    expect((await buyer.rest.get(next(2_147_483_000))).status).toBe(404);
    expect((await buyer.rest.get("/booking-flow/v1/products/abc/availabilities/next")).body).toMatchObject({ status: 400, details: [expect.objectContaining({ field: "productId" })] });
    expect((await partner.rest.get(next(productId))).status).toBe(403);
  });
});
