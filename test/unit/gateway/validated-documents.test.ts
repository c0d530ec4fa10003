import { describe, expect, it } from "vitest";
import { ValidatedDocuments } from "../../../gateway/operation-limits.js";

/** The caches of parsed texts (gateway/operation-limits.ts) are bounded by count, by text length and by the characters they hold in all. */
describe("ValidatedDocuments", () => {
  const text = (i: number, length: number) => `# ${i} `.padEnd(length, "x");

  it("forgets the oldest texts beyond its budget of characters, whatever their count", () => {
    const cache = new ValidatedDocuments<number>(500, 50_000, 100_000);
    for (let i = 0; i < 30; i++) cache.set(text(i, 4_000), i);
    expect(cache.size).toEqual({ documents: 25, characters: 100_000 });
    expect(cache.get(text(4, 4_000))).toBeUndefined();
    expect(cache.get(text(5, 4_000))).toBe(5);
    expect(cache.get(text(29, 4_000))).toBe(29);
  });

  it("forgets the oldest beyond its count, and keeps no text longer than its limit", () => {
    const cache = new ValidatedDocuments<number>(3, 100, 1_000);
    for (let i = 0; i < 5; i++) cache.set(text(i, 10), i);
    expect(cache.size).toEqual({ documents: 3, characters: 30 });
    expect([0, 1, 2, 3, 4].map((i) => cache.get(text(i, 10)))).toEqual([undefined, undefined, 2, 3, 4]);
    cache.set(text(9, 101), 9);
    expect(cache.get(text(9, 101))).toBeUndefined();
    expect(cache.size.documents).toBe(3);
  });

  it("counts a text set again once", () => {
    const cache = new ValidatedDocuments<number>(10, 100, 1_000);
    cache.set(text(1, 50), 1);
    cache.set(text(1, 50), 2);
    expect(cache.size).toEqual({ documents: 1, characters: 50 });
    expect(cache.get(text(1, 50))).toBe(2);
  });
});
