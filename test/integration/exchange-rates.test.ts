import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RatesFileError } from "../../core/exchange-rates.js";
import { createService } from "../../server/service.js";
import { bookableAvailability, bookableProduct, consumer, familySetup, newRef } from "../support/booking.js";
import { ecbDaily } from "../support/exchange-rates.js";
import { testConfig, useStack } from "../support/stack.js";

const folder = mkdtempSync(path.join(tmpdir(), "activities-rates-"));
const ratesFile = path.join(folder, "eurofxref-daily.xml");
writeFileSync(ratesFile, ecbDaily([{ date: "2026-11-23", rates: { USD: "1.2000", GBP: "0.8500", CHF: "0.9500" } }]));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const logLines: string[] = [];
const ctx = useStack({ env: { EXCHANGE_RATES_FILE: ratesFile }, logLines });
const BOOKINGS = "/booking-flow/v1/bookings";

async function until<T>(probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("exchange rates from a file", () => {
  it("prices at the file's rates and says which; a booking keeps the rates it was made at when the file changes", async () => {
    const { productId, partner } = await bookableProduct(ctx.stack, familySetup({ fixedFee: 0 }));
    const buyer = await consumer(ctx.stack);
    const availability = await bookableAvailability(buyer.rest, productId, "2027-05-10", { currency: "USD", adults: 2 });
    // 50 EUR a ticket at 1.20 USD per euro.
    expect(availability.unitOptions.find((u: { id: string }) => u.id === "adult").price).toEqual({ retail: 60, currency: "USD" });
    expect(availability.totalPrice).toEqual({ retail: 120, currency: "USD" });
    expect(availability.exchangeRates).toEqual({ date: "2026-11-23", source: `ECB reference rates (${ratesFile})` });
    const booking = (await buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: newRef() })).body;
    expect(booking).toMatchObject({ totalPrice: { retail: 120, currency: "USD" }, exchangeRates: { date: "2026-11-23" } });

    // A currency the ECB does not publish keeps the bundled rate, and says so.
    const aed = await bookableAvailability(buyer.rest, productId, "2027-05-11", { currency: "AED", adults: 1 });
    expect(aed.exchangeRates).toEqual({ date: "2026-11-20", source: "bundled reference rates" });

    // The next day's file: new quotes use it at once; the booking does not move.
    const quoted = await bookableAvailability(buyer.rest, productId, "2027-05-12", { currency: "USD", adults: 1 });
    writeFileSync(ratesFile, ecbDaily([{ date: "2026-11-24", rates: { USD: "1.5000", GBP: "0.8500", CHF: "0.9500" } }]));
    const base = `/booking-flow/v1/products/${productId}/availabilities`;
    const repriced = await until(async () => {
      const prices = (await buyer.rest.get(`${base}/${quoted.id}/prices?currencyCode=USD`)).body;
      return prices.exchangeRates.date === "2026-11-24" ? prices : undefined;
    });
    expect(repriced.totalPrice).toEqual({ retail: 75, currency: "USD" });
    const kept = (await buyer.rest.get(`${BOOKINGS}/${booking.id}`)).body;
    expect(kept).toMatchObject({ totalPrice: { retail: 120, currency: "USD" }, exchangeRates: { date: "2026-11-23" } });
    expect(kept.availability).toMatchObject({ totalPrice: { retail: 120, currency: "USD" }, exchangeRates: { date: "2026-11-23" } });

    // Recommendations convert their display prices at the same rates, and say so.
    const recommended = await buyer.rest.post("/recommendation/v2/activities?page[limit]=100", { currencyCode: "USD", bookingEngines: { include: [partner.engineName] } });
    const ours = recommended.body.data.find((item: { id: number }) => item.id === productId);
    expect(ours).toMatchObject({ priceCurrency: "USD", exchangeRates: { date: "2026-11-24", source: `ECB reference rates (${ratesFile})` } });

    // A broken file later keeps the rates in force, and is logged.
    writeFileSync(ratesFile, "<not-rates/>");
    const refused = await until(async () => logLines.find((line) => line.includes("exchange rates file not reloaded")));
    expect(JSON.parse(refused)).toMatchObject({ level: 40, file: ratesFile, msg: "exchange rates file not reloaded; the rates in force stay" });
    expect((await buyer.rest.get(`${base}/${quoted.id}/prices?currencyCode=USD`)).body.exchangeRates.date).toBe("2026-11-24");
  }, 60_000);

  it("refuses to start on a rates file it cannot read, naming the variable", async () => {
    const broken = path.join(folder, "broken.xml");
    writeFileSync(broken, "<rates/>");
    await expect(createService(testConfig({ EXCHANGE_RATES_FILE: broken }), { database: ctx.database })).rejects.toThrow(RatesFileError);
    await expect(createService(testConfig({ EXCHANGE_RATES_FILE: path.join(folder, "missing.xml") }), { database: ctx.database })).rejects.toThrow(/EXCHANGE_RATES_FILE=.*missing\.xml/);
  });
});
