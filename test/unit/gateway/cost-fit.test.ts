import { describe, expect, it } from "vitest";
import { fitCostModel, type Observation } from "../../../bench/cost/fit.js";
import { answeredValues } from "../../../bench/cost/cost-core.js";

/** bench:cost's fit: what it reports is what sets ROOT_FIELD_COSTS, so it must find known costs back. */
describe("the cost model's fit", () => {
  it("recovers the request's cost, each root field's base, ms per value and each criterion's cost", () => {
    const truth = { request: 4, base: { "Query.a": 2, "Query.b": 9, "Mutation.c": 15 } as Record<string, number>, k: 0.004, fullText: 1.5, fuzzy: 6 };
    const observations: Observation[] = [];
    for (const [field, base] of Object.entries(truth.base)) {
      for (const aliases of [1, 3]) {
        for (const points of [2, 150, 4_000]) {
          const criteria = field === "Query.b" ? [[0, 0], [1, 0], [0, 3]] : [[0, 0]];
          for (const [fullText, fuzzy] of criteria) {
            const ms = truth.request + aliases * base + truth.k * points + truth.fullText * fullText * aliases + truth.fuzzy * fuzzy * aliases;
            observations.push({ occurrences: { [field]: aliases }, points, fullText: fullText * aliases, fuzzy: fuzzy * aliases, ms });
          }
        }
      }
    }
    const fit = fitCostModel(observations);
    expect(fit.requestMs).toBeCloseTo(truth.request, 6);
    expect(fit.msPerPoint).toBeCloseTo(truth.k, 9);
    for (const [field, base] of Object.entries(truth.base)) expect(fit.baseMs[field]).toBeCloseTo(base, 6);
    expect(fit.fullTextMs).toBeCloseTo(truth.fullText, 6);
    expect(fit.fuzzyMs).toBeCloseTo(truth.fuzzy, 6);
    expect(fit.rSquared).toBeCloseTo(1, 9);
    expect(Math.max(...fit.residuals.map(Math.abs))).toBeLessThan(1e-6);
  });

  it("says which term no operation varies, rather than inventing a number for it", () => {
    // One occurrence everywhere: the request's cost and the field's base cannot be told apart.
    const observations: Observation[] = [2, 50, 900].map((points) => ({ occurrences: { "Query.a": 1 }, points, fullText: 0, fuzzy: 0, ms: 3 + points / 100 }));
    expect(() => fitCostModel(observations)).toThrow(/underdetermined/);
  });

  it("counts an answer's values as the estimate counts a selection", () => {
    // Three fields at the root, then two per item of a list of two: 1 + 1 + 1 + 2 × 2.
    expect(answeredValues({ a: { total: 2, items: [{ id: 1, name: "x" }, { id: 2, name: null }] } })).toBe(1 + 1 + 1 + 2 * 2);
    expect(answeredValues(null)).toBe(0);
  });
});
