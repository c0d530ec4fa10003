import { describe, expect, it } from "vitest";
import { parseEcbRates, RatesFileError } from "../../core/exchange-rates.js";
import { ecbDaily } from "../support/exchange-rates.js";

describe("ECB reference rates", () => {
  it("reads the day, each currency's units per euro, and the euro itself", () => {
    const rates = parseEcbRates(ecbDaily([{ date: "2026-11-23", rates: { USD: "1.0921", JPY: "161.23", GBP: "0.8566" } }]), "test");
    expect(Object.fromEntries([...rates].map(([currency, rate]) => [currency, rate.perEuro]))).toEqual({ EUR: 1, USD: 1.0921, JPY: 161.23, GBP: 0.8566 });
    expect(rates.get("USD")).toMatchObject({ date: "2026-11-23", source: "test" });
  });

  it("takes the newest day of a 90-day file", () => {
    const rates = parseEcbRates(ecbDaily([{ date: "2026-11-20", rates: { USD: "1.05" } }, { date: "2026-11-23", rates: { USD: "1.10" } }, { date: "2026-11-19", rates: { USD: "1.01" } }]), "test");
    expect(rates.get("USD")).toMatchObject({ perEuro: 1.1, date: "2026-11-23" });
  });

  it.each([
    ["another format", "<rates><USD>1.08</USD></rates>", /not the ECB reference rates format/],
    ["an impossible day", ecbDaily([{ date: "2026-13-45", rates: { USD: "1.08" } }]), /2026-13-45.*not a calendar date/],
    ["a rate that is no positive number", ecbDaily([{ date: "2026-11-23", rates: { USD: "-1" } }]), /rate='-1' of USD/],
    ["a rate of zero", ecbDaily([{ date: "2026-11-23", rates: { USD: "0" } }]), /rate='0' of USD/],
    ["a currency that is no ISO code", ecbDaily([{ date: "2026-11-23", rates: { usd: "1.08" } }]), /currency='usd'/],
    ["a day without rates", ecbDaily([{ date: "2026-11-23", rates: {} }]), /holds no/],
  ])("refuses %s, saying what is wrong", (_what, xml, message) => {
    expect(() => parseEcbRates(xml, "test")).toThrow(RatesFileError);
    expect(() => parseEcbRates(xml, "test")).toThrow(message);
  });
});
