import { describe, expect, it } from "vitest";
import type { FieldProblem } from "../../../core/errors.js";
import { convert } from "../../../core/exchange-rates.js";
import {
  bookingSetupSchema,
  type BookingSetup,
  type BookingSetupDocument,
} from "../../../subgraphs/booking/engines/inventory/booking-setup.schema.js";
import {
  ACCEPTED_CURRENCIES,
  applyQuantities,
  isAcceptedCurrency,
  priceUnits,
  type PricedAvailability,
  type Quantities,
  type UnitOptionView,
} from "../../../subgraphs/booking/pricing/price.rules.js";
import { unitsShown } from "../../../subgraphs/booking/availability/availability.view.js";

type UnitInput = BookingSetupDocument["units"][number];

const adult: UnitInput = { key: "adult", label: { en: "Adult", fr: "Adulte" }, minAge: 18, unitPriceType: "PER_PERSON", price: 20, minQuantity: 1, maxQuantity: 10 };
const child: UnitInput = {
  key: "child",
  label: "Child",
  description: { en: "Ages 4 to 17", fr: "De 4 à 17 ans" },
  minAge: 4,
  maxAge: 17,
  unitPriceType: "PER_PERSON",
  price: 10,
  maxQuantity: 10,
  accompaniedBy: ["adult"],
};

function setupWith(overrides: Partial<BookingSetupDocument> = {}): BookingSetup {
  return bookingSetupSchema.parse({
    timeZone: "Europe/Paris",
    capacityPerSlot: 50,
    maxParticipants: 12,
    currency: "EUR",
    units: [adult, child],
    ...overrides,
  });
}

const price = (setup: BookingSetup, quantities: Quantities, currency = "EUR"): PricedAvailability =>
  priceUnits(setup, quantities, currency, "en");
const unit = (priced: PricedAvailability, id: string): UnitOptionView => {
  const found = priced.units.find((u) => u.id === id);
  if (!found) throw new Error(`no unit ${id}`);
  return found;
};
const rules = (priced: PricedAvailability): string[] => priced.issues.map((issue) => issue.rule);

describe("unit option view", () => {
  it("shows every unit of the setup, localized, with its restrictions and quantity 0 to start", () => {
    const priced = priceUnits(setupWith(), {}, "EUR", "fr");
    expect(priced.units).toEqual<UnitOptionView[]>([
      {
        id: "adult",
        label: "Adulte",
        restrictions: { minQuantity: 1, maxQuantity: 10, accompagniedBy: [] },
        price: { retail: 20, currency: "EUR" },
        unitQuantity: 0,
        minAge: 18,
        unitPriceType: "PER_PERSON",
      },
      {
        id: "child",
        label: "Child",
        description: "De 4 à 17 ans",
        restrictions: { minQuantity: 0, maxQuantity: 10, accompagniedBy: ["adult"] },
        price: { retail: 10, currency: "EUR" },
        unitQuantity: 0,
        minAge: 4,
        maxAge: 17,
        unitPriceType: "PER_PERSON",
      },
    ]);
    expect(priced.total).toEqual({ retail: 0, currency: "EUR" });
    expect(priced.participants).toBe(0);
  });

  it("lists the accepted currencies of the contract", () => {
    expect(ACCEPTED_CURRENCIES).toHaveLength(24);
    expect(isAcceptedCurrency("USD")).toBe(true);
    expect(isAcceptedCurrency("JPY")).toBe(false);
  });
});

describe("ratios between ticket types", () => {
  it("needs an adult for children", () => {
    const setup = setupWith();
    const alone = price(setup, { child: 2 });
    expect(alone.isPricingStepCompleted).toBe(false);
    expect(alone.issues).toContainEqual(expect.objectContaining({ unitId: "child", rule: "accompaniedBy" }));

    const accompanied = price(setup, { adult: 1, child: 2 });
    expect(accompanied.issues).toEqual([]);
    expect(accompanied.isPricingStepCompleted).toBe(true);
  });

  it("limits children per adult with maxPerCompanion", () => {
    const setup = setupWith({ units: [adult, { ...child, maxPerCompanion: 2 }] });
    const tooMany = price(setup, { adult: 1, child: 3 });
    expect(tooMany.isPricingStepCompleted).toBe(false);
    expect(tooMany.issues).toEqual([expect.objectContaining({ unitId: "child", rule: "accompaniedBy" })]);

    expect(price(setup, { adult: 2, child: 3 }).isPricingStepCompleted).toBe(true);
    expect(price(setup, { adult: 1, child: 2 }).isPricingStepCompleted).toBe(true);
  });

  it("accepts children before adults in a PUT, since the ratio is not yet final", () => {
    const setup = setupWith();
    const first = applyQuantities(setup, {}, [{ unitId: "child", value: 2 }], 50);
    expect(first.problems).toEqual([]);
    expect(price(setup, first.quantities).isPricingStepCompleted).toBe(false);

    const second = applyQuantities(setup, first.quantities, [{ unitId: "adult", value: 1 }], 50);
    expect(second.problems).toEqual([]);
    expect(second.quantities).toEqual({ adult: 1, child: 2 });
    expect(price(setup, second.quantities).isPricingStepCompleted).toBe(true);
  });

  it("counts companions over every accompanying unit", () => {
    const senior: UnitInput = { key: "senior", label: "Senior", minAge: 65, unitPriceType: "PER_PERSON", price: 15, maxQuantity: 10 };
    const setup = setupWith({
      units: [{ ...adult, minQuantity: 0 }, senior, { ...child, accompaniedBy: ["adult", "senior"], maxPerCompanion: 2 }],
    });
    expect(price(setup, { senior: 1, child: 2 }).isPricingStepCompleted).toBe(true);
    expect(price(setup, { senior: 1, adult: 1, child: 4 }).isPricingStepCompleted).toBe(true);
    expect(rules(price(setup, { senior: 1, adult: 1, child: 5 }))).toEqual(["accompaniedBy"]);
  });
});

describe("minimums", () => {
  it("is not bookable with no participant", () => {
    const priced = price(setupWith({ units: [{ ...adult, minQuantity: 0 }, child] }), {});
    expect(rules(priced)).toEqual(["noParticipants"]);
    expect(priced.isPricingStepCompleted).toBe(false);
  });

  it("requires the setup's minimum participants", () => {
    const setup = setupWith({ minParticipants: 3 });
    const priced = price(setup, { adult: 2 });
    expect(rules(priced)).toEqual(["minParticipants"]);
    expect(price(setup, { adult: 2, child: 1 }).isPricingStepCompleted).toBe(true);
  });

  it("always applies a PER_PERSON minQuantity, so an adult is required", () => {
    const setup = setupWith({ units: [adult, { ...child, accompaniedBy: [] }] });
    const priced = price(setup, { child: 2 });
    expect(priced.issues).toEqual([expect.objectContaining({ unitId: "adult", rule: "minQuantity" })]);
    expect(rules(price(setup, {}))).toEqual(["noParticipants", "minQuantity"]);
  });
});

describe("hard limits of PUT prices", () => {
  it("refuses a quantity above the unit's maximum and changes nothing", () => {
    const setup = setupWith();
    const current: Quantities = { adult: 2 };
    const result = applyQuantities(setup, current, [{ unitId: "child", value: 1 }, { unitId: "adult", value: 11 }], 50);
    expect(result.problems).toEqual<FieldProblem[]>([{ field: "[1].value", rule: "maxQuantity", message: expect.any(String) }]);
    expect(result.quantities).toEqual(current);
  });

  it("refuses more participants than the setup's maximum and changes nothing", () => {
    const setup = setupWith({ maxParticipants: 5 });
    const current: Quantities = { adult: 3 };
    const result = applyQuantities(setup, current, [{ unitId: "child", value: 3 }], 50);
    expect(result.problems).toEqual<FieldProblem[]>([{ field: "[0].value", rule: "maxParticipants", message: expect.any(String) }]);
    expect(result.quantities).toEqual(current);
    expect(applyQuantities(setup, current, [{ unitId: "child", value: 2 }], 50).problems).toEqual([]);
  });

  it("refuses more participants than the places left", () => {
    const setup = setupWith();
    const result = applyQuantities(setup, { adult: 2 }, [{ unitId: "child", value: 2 }], 3);
    expect(result.problems).toEqual<FieldProblem[]>([{ field: "[0].value", rule: "capacity", message: expect.any(String) }]);
    expect(result.quantities).toEqual({ adult: 2 });
    expect(applyQuantities(setup, { adult: 2 }, [{ unitId: "child", value: 1 }], 3).problems).toEqual([]);
  });

  it("refuses quantities that are not counts", () => {
    const setup = setupWith();
    const result = applyQuantities(setup, {}, [{ unitId: "adult", value: -1 }, { unitId: "child", value: 1.5 }], 50);
    expect(result.problems.map((p) => [p.field, p.rule])).toEqual([
      ["[0].value", "nonNegativeInteger"],
      ["[1].value", "nonNegativeInteger"],
    ]);
    expect(result.quantities).toEqual({});
  });

  it("refuses an unknown unit", () => {
    const result = applyQuantities(setupWith(), { adult: 1 }, [{ unitId: "infant", value: 1 }], 50);
    expect(result.problems).toEqual<FieldProblem[]>([{ field: "[0].unitId", rule: "unknownUnit", message: expect.any(String) }]);
    expect(result.quantities).toEqual({ adult: 1 });
  });

  it("refuses a unit given twice in one call", () => {
    const result = applyQuantities(setupWith(), {}, [{ unitId: "adult", value: 1 }, { unitId: "child", value: 1 }, { unitId: "adult", value: 2 }], 50);
    expect(result.problems).toEqual<FieldProblem[]>([{ field: "[2].unitId", rule: "duplicateUnit", message: expect.any(String) }]);
    expect(result.quantities).toEqual({});
  });

  it("does not read unit keys from Object.prototype", () => {
    const setup = setupWith({ units: [{ ...adult, key: "constructor", minQuantity: 0 }] });
    expect(price(setup, {}).participants).toBe(0);
    const result = applyQuantities(setup, {}, [{ unitId: "constructor", value: 2 }], 50);
    expect(result.quantities).toEqual({ constructor: 2 });
    expect(price(setup, result.quantities).participants).toBe(2);
    expect(applyQuantities(setupWith(), {}, [{ unitId: "toString", value: 1 }], 50).problems[0].rule).toBe("unknownUnit");
  });
});

describe("applying several changes", () => {
  it("applies absolute values in order, keeping units not mentioned", () => {
    const setup = setupWith();
    const result = applyQuantities(setup, { adult: 1, child: 4 }, [{ unitId: "adult", value: 2 }, { unitId: "child", value: 3 }], 50);
    expect(result.problems).toEqual([]);
    expect(result.quantities).toEqual({ adult: 2, child: 3 });
    // Absolute, not a change: setting the same value again changes nothing.
    expect(applyQuantities(setup, result.quantities, [{ unitId: "adult", value: 2 }], 50).quantities).toEqual({ adult: 2, child: 3 });
    expect(applyQuantities(setup, result.quantities, [{ unitId: "child", value: 0 }], 50).quantities).toEqual({ adult: 2, child: 0 });
  });

  it("checks the participant limits on the state after all entries, whatever their order", () => {
    const setup = setupWith({ maxParticipants: 10 });
    const result = applyQuantities(setup, { adult: 10 }, [{ unitId: "child", value: 4 }, { unitId: "adult", value: 6 }], 10);
    expect(result.problems).toEqual([]);
    expect(result.quantities).toEqual({ adult: 6, child: 4 });
  });

  it("reports every problem of the call by entry index and applies none", () => {
    const setup = setupWith({ maxParticipants: 5 });
    const result = applyQuantities(
      setup,
      {},
      [
        { unitId: "adult", value: 3 },
        { unitId: "dog", value: 1 },
        { unitId: "child", value: 3 },
        { unitId: "child", value: 99 },
      ],
      50,
    );
    expect(result.problems.map((p) => [p.field, p.rule])).toEqual([
      ["[1].unitId", "unknownUnit"],
      ["[3].unitId", "duplicateUnit"],
      ["[3].value", "maxQuantity"],
      ["[2].value", "maxParticipants"],
    ]);
    expect(result.quantities).toEqual({});
  });
});

describe("group pricing", () => {
  const privateTour: UnitInput = { key: "private", label: "Private tour", minAge: 0, unitPriceType: "GROUP", price: 300, minQuantity: 2, maxQuantity: 8 };
  const bigGroup: UnitInput = { key: "big", label: "Large group", minAge: 0, unitPriceType: "GROUP", price: 500, minQuantity: 9, maxQuantity: 20 };
  const groupSetup = (): BookingSetup => setupWith({ maxParticipants: 20, units: [privateTour, bigGroup] });

  it("prices the whole group whatever its size", () => {
    const setup = groupSetup();
    for (const size of [2, 5, 8]) {
      const priced = price(setup, { private: size });
      expect(priced.total.retail).toBe(300);
      expect(unit(priced, "private").price.retail).toBe(300);
      expect(priced.participants).toBe(size);
      expect(priced.isPricingStepCompleted).toBe(true);
    }
  });

  it("applies the group limits only once the group is chosen", () => {
    const setup = groupSetup();
    expect(price(setup, { private: 1 }).issues).toEqual([expect.objectContaining({ unitId: "private", rule: "minQuantity" })]);
    expect(price(setup, { big: 12 }).issues).toEqual([]);
    expect(applyQuantities(setup, {}, [{ unitId: "private", value: 9 }], 50).problems[0]).toMatchObject({ field: "[0].value", rule: "maxQuantity" });
  });

  it("refuses a second group: a booking is a single group", () => {
    const setup = groupSetup();
    const result = applyQuantities(setup, { private: 4 }, [{ unitId: "big", value: 10 }], 50);
    expect(result.problems).toEqual<FieldProblem[]>([{ field: "[0].value", rule: "singleGroup", message: expect.any(String) }]);
    expect(result.quantities).toEqual({ private: 4 });

    const switched = applyQuantities(setup, { private: 4 }, [{ unitId: "big", value: 10 }, { unitId: "private", value: 0 }], 50);
    expect(switched.problems).toEqual([]);
    expect(switched.quantities).toEqual({ private: 0, big: 10 });
    expect(price(setup, switched.quantities).total.retail).toBe(500);
  });

  it("does not report stale quantities as bookable after the setup changed", () => {
    const priced = price(setupWith({ maxParticipants: 4, units: [{ ...privateTour, maxQuantity: 2 }, bigGroup] }), { private: 3, big: 10 });
    expect(rules(priced)).toEqual(["maxParticipants", "singleGroup", "maxQuantity"]);
    expect(priced.isPricingStepCompleted).toBe(false);
  });
});

describe("fixed plus variable pricing", () => {
  const setup = (): BookingSetup => setupWith({ fixedFee: 30, units: [{ ...adult, price: 20 }] });

  it("adds the fixed fee once to the total", () => {
    expect(price(setup(), { adult: 1 }).total.retail).toBe(50);
    expect(price(setup(), { adult: 3 }).total.retail).toBe(90);
  });

  it("shows a per-person price that falls with the number of participants", () => {
    expect(unit(price(setup(), { adult: 1 }), "adult").price.retail).toBe(50);
    expect(unit(price(setup(), { adult: 3 }), "adult").price.retail).toBe(30);
  });

  it("shows the price of booking alone before anyone is chosen, with a total of 0", () => {
    const priced = price(setup(), {});
    expect(unit(priced, "adult").price.retail).toBe(50);
    expect(priced.total.retail).toBe(0);
  });

  it("keeps the total exact when the per-person share is rounded", () => {
    const priced = price(setupWith({ fixedFee: 10, units: [{ ...adult, price: 20 }] }), { adult: 3 });
    expect(priced.total.retail).toBe(70);
    expect(unit(priced, "adult").price.retail).toBe(23.33);
  });

  it("does not spread the fee onto a group price, but charges it in the total", () => {
    const group: UnitInput = { key: "private", label: "Private", minAge: 0, unitPriceType: "GROUP", price: 200, maxQuantity: 6 };
    const priced = price(setupWith({ fixedFee: 30, units: [group] }), { private: 4 });
    expect(unit(priced, "private").price.retail).toBe(200);
    expect(priced.total.retail).toBe(230);
  });
});

describe("currency", () => {
  it("converts EUR to USD at the reference rate, in exact cents", () => {
    // 1.08 USD per EUR (core/exchange-rates.ts): 19.99 -> 21.59, 9.99 -> 10.79, fee 30 -> 32.40.
    const setup = setupWith({ fixedFee: 30, units: [{ ...adult, price: 19.99 }, { ...child, price: 9.99 }] });
    const priced = price(setup, { adult: 2, child: 1 }, "USD");
    expect(convert(19.99, "EUR", "USD")).toBe(21.59);
    expect(priced.total).toEqual({ retail: 86.37, currency: "USD" }); // 32.40 + 2 * 21.59 + 10.79
    expect(unit(priced, "adult").price).toEqual({ retail: 32.39, currency: "USD" }); // 21.59 + 10.80
    expect(unit(priced, "child").price).toEqual({ retail: 21.59, currency: "USD" }); // 10.79 + 10.80
  });

  it("totals the converted components, not the converted total", () => {
    // 1.05 EUR -> 1.13 USD; ten of them are 11.30 USD, while converting 10.50 EUR would give 11.34.
    const setup = setupWith({ units: [{ ...adult, price: 1.05 }] });
    const priced = price(setup, { adult: 10 }, "USD");
    expect(unit(priced, "adult").price.retail).toBe(1.13);
    expect(priced.total.retail).toBe(11.3);
  });

  it("adds up in cents, without float drift", () => {
    const setup = setupWith({ units: [{ ...adult, price: 0.1 }, { ...child, price: 0.2, accompaniedBy: [] }] });
    expect(price(setup, { adult: 1, child: 1 }).total.retail).toBe(0.3);
    expect(price(setup, { adult: 3 }).total.retail).toBe(0.3);
  });

  it("throws when a rate is missing, since callers validate the currency first", () => {
    expect(() => price(setupWith(), {}, "XXX")).toThrow(Error);
  });
});

describe("units shown for an option's choice", () => {
  const route = { key: "route", label: "Route", dataType: "OPTIONS" as const, choices: [{ key: "short", label: "Short" }, { key: "long", label: "Long" }] };

  it("prices only the units of the chosen option", () => {
    const setup = setupWith({ options: [route], units: [adult, { ...adult, key: "adultLong", price: 35, shownWhen: { option: "route", equals: "long" } }] });
    const offered = { ...setup, offeredStartTimes: ["10:00"] };
    const short = priceUnits(unitsShown(offered, { route: "short" }), { adult: 2, adultLong: 2 }, "EUR", "en");
    expect(short.units.map((u) => u.id)).toEqual(["adult"]);
    expect(short.total.retail).toBe(40);
    expect(priceUnits(unitsShown(offered, { route: "long" }), { adult: 1, adultLong: 2 }, "EUR", "en").total.retail).toBe(90);
  });

  it("refuses a unit shown for an option the setup does not have", () => {
    const parsed = bookingSetupSchema.safeParse({ timeZone: "Europe/Paris", capacityPerSlot: 5, maxParticipants: 5, currency: "EUR", units: [{ ...adult, shownWhen: { option: "route", equals: "long" } }] });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => issue.path.join("."))).toEqual(["units.0.shownWhen.option"]);
  });
});
