import type { Product } from "@octocloud/types";
import { describe, expect, it } from "vitest";
import { octoSaleCurrency } from "../../subgraphs/common/octo/octo-sellable.js";
import { availabilityView, visibleOptions } from "../../subgraphs/booking/availability/availability-view.js";
import { offerOf } from "../../subgraphs/booking/availability/availability.service.js";
import { setupOfOctoProduct } from "../../subgraphs/booking/engines/octo/octo-setup.js";

const price = (retail: number, currency = "EUR") => ({ original: retail, retail, net: null, currency, currencyPrecision: 2, includedTaxes: [] });
const unit = (id: string, retail: number, currency?: string) => ({
  id,
  internalName: id,
  reference: null,
  type: "ADULT",
  restrictions: { minAge: 18, maxAge: 99, idRequired: false, minQuantity: null, maxQuantity: null, paxCount: 1, accompaniedBy: [] },
  requiredContactFields: [],
  pricingFrom: [price(retail, currency)],
});
const option = (id: string, retail: number, extra: Record<string, unknown> = {}) => ({
  id,
  default: false,
  internalName: id,
  reference: null,
  availabilityLocalStartTimes: ["09:00"],
  cancellationCutoff: "1 day",
  cancellationCutoffAmount: 24,
  cancellationCutoffUnit: "hour",
  requiredContactFields: [],
  restrictions: { minUnits: 1, maxUnits: 8 },
  units: [unit("adult", retail)],
  ...extra,
});
const product = (extra: Record<string, unknown> = {}): Product =>
  ({ id: "tour", internalName: "Tour", reference: null, locale: "en", timeZone: "Europe/Paris", allowFreesale: false, instantConfirmation: true, instantDelivery: true, availabilityRequired: true, availabilityType: "START_TIME", deliveryFormats: [], deliveryMethods: [], redemptionMethod: "DIGITAL", defaultCurrency: "EUR", options: [option("group", 3500), option("private", 14500, { requiredContactFields: ["phoneNumber"] })], ...extra }) as unknown as Product;

describe("an OCTO product as the booking flow's setup", () => {
  it("offers the supplier's options, each with its own tickets and prices, and asks the contact fields they require", () => {
    const setup = setupOfOctoProduct(product())!;
    expect(setup.remote).toEqual({ productId: "tour", optionIds: ["group", "private"], optionKey: "option" });
    expect(setup.units.map((u) => [u.key, u.price, u.shownWhen?.equals])).toEqual([["adult", 35, "group"], ["adult", 145, "private"]]);
    expect(setup.questions.customer.map((q) => q.key)).toEqual(["firstName", "lastName", "emailAddress", "phoneNumber"]);
    expect(setup.cancellationTiers).toEqual([expect.objectContaining({ duration: "PT24H", refundPercentage: 100 })]);

    // A date where only the private tour runs offers only it, then its own start times.
    const offered = offerOf(setup, [
      { startsAt: new Date("2030-01-01T09:00:00Z"), time: "10:00", local: "", remaining: 6, choice: "private", ref: "a" },
      { startsAt: new Date("2030-01-01T14:00:00Z"), time: "15:00", local: "", remaining: 6, choice: "private", ref: "b" },
    ]);
    expect(offered.options[0].choices!.map((c) => c.key)).toEqual(["private"]);
    expect(visibleOptions(offered, {}).map((o) => o.key)).toEqual(["option"]);
    expect(visibleOptions(offered, { option: "private" }).map((o) => o.key)).toEqual(["option", "__startTime"]);
    const view = availabilityView({ id: "00000000-0000-4000-8000-000000000000", availabilityDate: "2030-01-01", language: "en", currency: "EUR", setup: offered, selections: { option: "private", __startTime: "10:00" }, quantities: { adult: 2 }, expiresAt: new Date() });
    expect(view.priced?.total).toEqual({ retail: 290, currency: "EUR" });
  });

  it("is not sold through the flow without a price for every unit, in a currency we convert", () => {
    expect(octoSaleCurrency(product())).toBe("EUR");
    expect(octoSaleCurrency(product({ defaultCurrency: "XXX" }))).toBeUndefined();
    expect(setupOfOctoProduct(product({ options: [option("group", 3500, { units: [{ ...unit("adult", 1), pricingFrom: [] }] })] }))).toBeUndefined();
    expect(setupOfOctoProduct(product({ options: [] }))).toBeUndefined();
  });
});

describe("a supplier's voucher", () => {
  it("takes a PDF it serves over http(s) and the code its ticket is scanned by, nothing else", async () => {
    const { supplierVoucher } = await import("../../subgraphs/booking/engines/octo/octo-engine.js");
    const ticket = (deliveryOptions: { deliveryFormat: string; deliveryValue: string }[]) => ({ redemptionMethod: "DIGITAL", utcRedeemedAt: null, deliveryOptions }) as never;
    expect(supplierVoucher(ticket([{ deliveryFormat: "QRCODE", deliveryValue: "PD-1" }, { deliveryFormat: "PDF_URL", deliveryValue: "https://s.example/t/1.pdf" }]))).toEqual({ code: "PD-1", url: "https://s.example/t/1.pdf" });
    expect(supplierVoucher(ticket([{ deliveryFormat: "PDF_URL", deliveryValue: "javascript:alert(1)" }, { deliveryFormat: "CODE128", deliveryValue: "x".repeat(501) }]))).toBeUndefined();
    expect(supplierVoucher(null)).toBeUndefined();
  });
});
