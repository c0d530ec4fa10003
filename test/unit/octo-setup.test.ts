import type { Product } from "@octocloud/types";
import { describe, expect, it } from "vitest";
import { octoSaleCurrency } from "../../subgraphs/common/octo/octo.sellable.js";
import { availabilityView, visibleOptions } from "../../subgraphs/booking/availability/availability.view.js";
import { offerOf } from "../../subgraphs/booking/availability/availability.steps.js";
import { setupOfOctoProduct } from "../../subgraphs/booking/engines/octo/octo.setup.js";

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
    expect(setup.remote).toEqual({ productId: "tour", optionIds: ["group", "private"], optionKey: "option", limits: { group: { minUnits: 1, maxUnits: 8 }, private: { minUnits: 1, maxUnits: 8 } } });
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

describe("a supplier's questions (octo/questions) in the setup", () => {
  const question = (id: string, inputType: string, extra: Record<string, unknown> = {}) => ({ id, title: `Title of ${id}`, shortDescription: null, required: true, inputType, selectOptions: [], coverImageUrl: null, ...extra });
  const withQuestions = () =>
    product({
      questions: [
        question("pickup", "select", { selectOptions: [{ label: "Hotel", value: "hotel" }, { label: "Port (north)", value: "port north" }, { label: "Same", value: "hotel" }] }),
        question("remarks", "textarea", { required: false }),
      ],
      options: [
        option("group", 3500, { questions: [question("pickup", "select", { selectOptions: [{ label: "Hotel", value: "hotel" }] })], units: [{ ...unit("adult", 3500), questions: [question("weight", "number")] }, { ...unit("child", 2000), questions: [question("weight", "number"), question("birth", "date")] }] }),
        option("private", 14500, { questions: [question("language", "select", { selectOptions: [{ label: "English", value: "en" }] }), question("arrival", "datetime-local")] }),
      ],
    });

  it("asks the required ones: the product's and an option's for the booking, a unit's of each holder of its tickets", () => {
    const setup = setupOfOctoProduct(withQuestions())!;
    const booking = setup.questions.booking;
    expect(booking.map((q) => [q.key, q.dataType, q.shownWhen?.equals])).toEqual([
      ["q1", "OPTIONS", undefined],
      ["q4", "OPTIONS", "private"],
      ["q5", "DATE_AND_TIME", "private"],
    ]);
    // A value that fits a key is the key; one that does not, or repeats, is keyed by its position.
    expect(booking[0].choices).toEqual([{ key: "hotel", label: "Hotel" }, { key: "c2", label: "Port (north)" }, { key: "c3", label: "Same" }]);
    expect(setup.remote!.questions!.q1).toEqual({ id: "pickup", values: { hotel: "hotel", c2: "port north", c3: "hotel" } });
    // The same question of two units is asked once of each holder; a required number refuses null.
    expect(setup.questions.participant.map((q) => [q.key, setup.remote!.questions![q.key].id, q.units, q.shownWhen?.equals, q.nullAllowed])).toEqual([
      ["q2", "weight", ["adult", "child"], "group", false],
      ["q3", "birth", ["child"], "group", undefined],
    ]);
  });

  it("keeps a product out of the flow when it requires an answer the flow cannot take", () => {
    const file = product({ questions: [question("passport-scan", "file")] });
    expect(octoSaleCurrency(file)).toBeUndefined();
    expect(setupOfOctoProduct(file)).toBeUndefined();
    // An optional upload stands in nobody's way: it is not asked.
    const optional = product({ questions: [question("passport-scan", "file", { required: false })] });
    expect(octoSaleCurrency(optional)).toBe("EUR");
    expect(setupOfOctoProduct(optional)!.questions.booking).toEqual([]);
    const many = product({ questions: Array.from({ length: 31 }, (_, i) => question(`q${i}`, "text")) });
    expect(octoSaleCurrency(many)).toBeUndefined();
  });

  it("counts the people a ticket admits as participants, and prices a departure at the supplier's price for it", () => {
    const family = { ...unit("family", 5500), restrictions: { ...unit("family", 1).restrictions, paxCount: 4 } };
    const setup = setupOfOctoProduct(product({ options: [option("day", 2200, { units: [unit("adult", 2200), family] })] }))!;
    expect(setup.units.map((u) => [u.key, u.paxCount])).toEqual([["adult", undefined], ["family", 4]]);
    // Eight tickets, up to four people each.
    expect(setup.maxParticipants).toBe(32);
    const offered = offerOf(setup, [
      { startsAt: new Date("2030-01-01T08:00:00Z"), time: "09:00", local: "", remaining: 30, ref: "a", unitPrices: { adult: 19, family: 50 } },
      { startsAt: new Date("2030-01-01T13:00:00Z"), time: "14:00", local: "", remaining: 30, ref: "b" },
    ]);
    const priced = (time: string) =>
      availabilityView({ id: "00000000-0000-4000-8000-000000000000", availabilityDate: "2030-01-01", language: "en", currency: "EUR", setup: offered, selections: { __startTime: time }, quantities: { adult: 1, family: 1 }, expiresAt: new Date() }).priced!;
    expect(priced("09:00").total).toEqual({ retail: 69, currency: "EUR" });
    expect(priced("14:00").total).toEqual({ retail: 77, currency: "EUR" });
    expect(priced("09:00").participants).toBe(5);
  });
});

describe("a supplier's voucher", () => {
  it("takes a PDF it serves over http(s) and the code its ticket is scanned by, nothing else", async () => {
    const { supplierVoucher } = await import("../../subgraphs/booking/engines/octo/octo.engine.js");
    const ticket = (deliveryOptions: { deliveryFormat: string; deliveryValue: string }[]) => ({ redemptionMethod: "DIGITAL", utcRedeemedAt: null, deliveryOptions }) as never;
    expect(supplierVoucher(ticket([{ deliveryFormat: "QRCODE", deliveryValue: "PD-1" }, { deliveryFormat: "PDF_URL", deliveryValue: "https://s.example/t/1.pdf" }]))).toEqual({ code: "PD-1", url: "https://s.example/t/1.pdf" });
    expect(supplierVoucher(ticket([{ deliveryFormat: "PDF_URL", deliveryValue: "javascript:alert(1)" }, { deliveryFormat: "CODE128", deliveryValue: "x".repeat(501) }]))).toBeUndefined();
    expect(supplierVoucher(null)).toBeUndefined();
  });
});

describe("what suppliers send beyond the first shape (issue 40)", () => {
  const view = (setup: ReturnType<typeof offerOf>, selections: Record<string, string>, quantities: Record<string, number>) =>
    availabilityView({ id: "00000000-0000-4000-8000-000000000000", availabilityDate: "2030-01-01", language: "en", currency: "EUR", setup, selections, quantities, expiresAt: new Date() });
  const boat = (extra: Record<string, unknown> = {}) => {
    const { pricingFrom: _, ...unpriced } = unit("adult", 0);
    return option("boat", 0, { units: [unpriced, { ...unpriced, id: "child" }], pricingFrom: [price(39000)], restrictions: { minUnits: 2, maxUnits: 8, minPaxCount: 2, maxPaxCount: 6 }, ...extra });
  };

  it("prices a product priced per booking at its option's price, then its departure's, whatever the party", () => {
    const cruise = product({ pricingPer: "BOOKING", options: [boat()] });
    expect(octoSaleCurrency(cruise)).toBe("EUR");
    const setup = setupOfOctoProduct(cruise)!;
    expect(setup.remote!.bookingPrices).toEqual({ boat: 390 });
    expect(setup.units.map((u) => u.price)).toEqual([0, 0]);
    const offered = offerOf(setup, [
      { startsAt: new Date("2030-01-01T17:00:00Z"), time: "18:00", local: "", remaining: 8, ref: "a", terms: { fee: 420 } },
      { startsAt: new Date("2030-01-01T19:30:00Z"), time: "20:30", local: "", remaining: 8, ref: "b" },
    ]);
    expect(view(offered, { __startTime: "18:00" }, { adult: 2, child: 1 }).priced!.total).toEqual({ retail: 420, currency: "EUR" });
    expect(view(offered, { __startTime: "20:30" }, { adult: 3 }).priced!.total).toEqual({ retail: 390, currency: "EUR" });
    // Without the option's price it is not sold: its units carry none.
    expect(octoSaleCurrency(product({ pricingPer: "BOOKING", options: [boat({ pricingFrom: [] })] }))).toBeUndefined();
  });

  it("applies the chosen option's and departure's limits of tickets and people", () => {
    const setup = setupOfOctoProduct(product({ options: [option("group", 3500, { restrictions: { minUnits: 2, maxUnits: 10, minPaxCount: 2, maxPaxCount: 9 } }), option("private", 14500)] }))!;
    expect(setup.remote!.limits).toEqual({ group: { minUnits: 2, maxUnits: 10, minPax: 2, maxPax: 9 }, private: { minUnits: 1, maxUnits: 8 } });
    const offered = offerOf(setup, [
      { startsAt: new Date("2030-01-01T08:00:00Z"), time: "09:00", local: "", remaining: 20, choice: "group", ref: "a", terms: { maxUnits: 5 } },
      { startsAt: new Date("2030-01-01T10:00:00Z"), time: "11:00", local: "", remaining: 20, choice: "group", ref: "b" },
    ]);
    const early = view(offered, { option: "group", __startTime: "09:00" }, { adult: 6 });
    expect(early).toMatchObject({ minParticipants: 2, maxParticipants: 9, isPricingStepCompleted: false });
    expect(early.priced!.issues).toEqual([expect.objectContaining({ rule: "maxUnits", message: expect.stringContaining("At most 5 tickets") })]);
    const late = view(offered, { option: "group", __startTime: "11:00" }, { adult: 1 });
    expect(late.priced!.issues.map((issue) => issue.rule)).toEqual(["minParticipants", "minUnits"]);
    expect(view(offered, { option: "group", __startTime: "11:00" }, { adult: 9 }).isPricingStepCompleted).toBe(true);
    expect(view(offered, { option: "group", __startTime: "11:00" }, { adult: 10 }).priced!.issues.map((issue) => issue.rule)).toEqual(["maxParticipants"]);
    // Limits that are not sound numbers are no limits.
    const odd = setupOfOctoProduct(product({ options: [option("group", 3500, { restrictions: { minUnits: "two", maxUnits: -1, maxPaxCount: 1e9 } })] }))!;
    expect(odd.remote!.limits).toEqual({ group: {} });
  });

  it("reads a held total from the booking, else from its unit items, each at its own precision", async () => {
    const { heldTotal } = await import("../../subgraphs/booking/engines/octo/octo.engine.js");
    const booking = (pricing: unknown, items: unknown[]) => ({ pricing, unitItems: items.map((item) => ({ pricing: item })) }) as never;
    const zero = { ...price(0), currencyPrecision: 0 };
    expect(heldTotal(booking(price(5500), [price(2200), price(3300)]), "EUR", false)).toBe(55);
    expect(heldTotal(booking(zero, [price(2200), price(3300)]), "EUR", false)).toBe(55);
    expect(heldTotal(booking(undefined, [price(2200), { ...price(330), currencyPrecision: 1 }]), "EUR", false)).toBe(55);
    // Per unit, nothing but zeros is a price of 0; per booking, it states nothing.
    expect(heldTotal(booking(zero, [zero]), "EUR", false)).toBe(0);
    expect(heldTotal(booking(zero, [zero]), "EUR", true)).toBeUndefined();
    expect(heldTotal(booking(price(39000), []), "EUR", true)).toBe(390);
    // No price in the product's currency, or none at all: nothing to compare.
    expect(heldTotal(booking(price(5500, "USD"), [price(5500, "USD")]), "EUR", false)).toBeUndefined();
    expect(heldTotal(booking(undefined, [undefined]), "EUR", false)).toBeUndefined();
  });
});
