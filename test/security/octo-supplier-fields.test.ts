import type { Product } from "@octocloud/types";
import { describe, expect, it } from "vitest";
import { heldTotal } from "../../subgraphs/booking/engines/octo/octo.engine.js";
import { setupOfOctoProduct } from "../../subgraphs/booking/engines/octo/octo.setup.js";
import { productRequestFromOcto } from "../../subgraphs/catalogue/import/octo-import.content.js";
import { productProblems } from "../../subgraphs/catalogue/product/product.rules.js";
import { availabilityLimits, octoDurationMinutes } from "../../subgraphs/common/octo/octo.fields.js";
import type { ProductWithQuestions } from "../../core/octo-questions.js";

const price = (retail: number, currencyPrecision = 2) => ({ original: retail, retail, net: null, currency: "EUR", currencyPrecision, includedTaxes: [] });
const product = (option: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({
    id: "tour",
    internalName: "Tour",
    reference: null,
    timeZone: "Europe/Paris",
    availabilityType: "START_TIME",
    instantConfirmation: true,
    instantDelivery: true,
    redemptionMethod: "DIGITAL",
    defaultCurrency: "EUR",
    options: [
      {
        id: "group",
        default: true,
        internalName: "Group",
        cancellationCutoff: "1 day",
        cancellationCutoffAmount: 24,
        cancellationCutoffUnit: "hour",
        requiredContactFields: [],
        restrictions: { minUnits: 1, maxUnits: 8 },
        units: [{ id: "adult", internalName: "Adult", type: "ADULT", restrictions: { minAge: 18, maxAge: 99, minQuantity: null, maxQuantity: null, paxCount: 1, accompaniedBy: [] }, requiredContactFields: [], pricingFrom: [price(3500)] }],
        ...option,
      },
    ],
    ...extra,
  }) as unknown as ProductWithQuestions;

/**
 * Fields of the standard that `@octocloud/types` 2.x does not check (durations as amount and unit,
 * limits of people, a departure's limits) come from the supplier as it wrote them. A supplier
 * sending nonsense there must neither crash a step nor open a limit: what is not a sound number
 * is no duration and no limit.
 */
describe("a supplier's unchecked OCTO fields", () => {
  it("takes no duration from amounts that are no sound number of minutes, hours or days", () => {
    for (const durationAmount of ["1e400", "9".repeat(10_000), "-2", "0x10", "2 hours", {}, [], null, Number.MAX_SAFE_INTEGER, 1e6]) {
      const hostile = product({ durationAmount, durationUnit: "hour" });
      expect(octoDurationMinutes(hostile), JSON.stringify(durationAmount)?.slice(0, 20)).toBeUndefined();
      const request = productRequestFromOcto([{ language: "en", product: hostile as unknown as Product }], "ENGINE");
      expect(request.duration).toBeNull();
      expect(productProblems(request).list).toEqual([]);
    }
    for (const durationUnit of ["hours", "__proto__", "constructor", "week", 2]) expect(octoDurationMinutes(product({ durationAmount: "2", durationUnit }))).toBeUndefined();
  });

  it("takes no limit from limits that are no sound count, and keeps the flow's own bounds", () => {
    const setup = setupOfOctoProduct(product({ restrictions: { minUnits: -4, maxUnits: "8; DROP TABLE", minPaxCount: 1e12, maxPaxCount: { valueOf: 3 } } }))!;
    expect(setup.remote!.limits).toEqual({ group: {} });
    expect(setup).toMatchObject({ minParticipants: 1, maxParticipants: 1000 });
    expect(availabilityLimits({ maxUnits: -1, maxPaxCount: "lots" } as never)).toEqual({});
    expect(availabilityLimits({ maxUnits: 5, maxPaxCount: 9 } as never)).toEqual({ maxUnits: 5, maxPax: 9 });
  });

  it("compares a hold priced below zero or at an absurd precision with the quote, never taking it as unstated", () => {
    const booking = (pricing: unknown, items: unknown[]) => ({ pricing, unitItems: items.map((item) => ({ pricing: item })) }) as never;
    // Negative unit items on a zero total: a price of 0, which differs from any quote above 0.
    expect(heldTotal(booking(price(0), [price(-5000), price(-1)]), "EUR", false)).toBe(0);
    expect(heldTotal(booking(price(5500, 400), []), "EUR", false)).toBe(0);
  });
});
