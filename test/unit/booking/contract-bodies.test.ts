import { describe, expect, it } from "vitest";
import { choiceMap, contractCancellationTier, percentageOfRate, rateOfPercentage, withoutNulls } from "../../../subgraphs/booking/contract.bodies.js";

/** The graph writes shares as exact decimals (0 to 1); the contract as percentages: the two are moved by text, not float arithmetic. */
describe("spec 2's bodies from the graph's", () => {
  it("writes a percentage as a rate and back exactly", () => {
    const cases: [number, string][] = [
      [0, "0"],
      [0.5, "0.005"],
      [5, "0.05"],
      [12.5, "0.125"],
      [33.33, "0.3333"],
      [50, "0.5"],
      [100, "1"],
    ];
    for (const [percentage, rate] of cases) {
      expect(rateOfPercentage(percentage)).toBe(rate);
      expect(percentageOfRate(rate)).toBe(percentage);
    }
    // Float arithmetic would not: 0.07 * 100 is 7.000000000000001.
    expect(percentageOfRate("0.07")).toBe(7);
    expect(contractCancellationTier({ label: "Free", duration: "P2D", refundRate: "0.07" })).toEqual({ label: "Free", duration: "P2D", refundPercentage: 7 });
  });

  it("keeps a partner's choice keys as keys, __proto__ included, and drops what is unset", () => {
    const map = choiceMap([{ key: "__proto__", label: "Odd" }, { key: "lake", label: "Lake" }]);
    expect(Object.keys(map)).toEqual(["__proto__", "lake"]);
    expect(Object.getPrototypeOf(map)).toBe(Object.prototype);
    expect(withoutNulls({ a: null, b: { c: undefined, d: [null, 1] }, e: map })).toEqual({ b: { d: [null, 1] }, e: map });
  });
});
