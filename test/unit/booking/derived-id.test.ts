import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { derivedUuid } from "../../../subgraphs/booking/booking.ids.js";

/** The name-based UUID of the input, computed here the long way. */
function expected(kind: string, owner: string, path: string): string {
  const hex = createHash("sha256").update(JSON.stringify([kind, owner, path])).digest("hex").slice(0, 32).split("");
  hex[12] = "5";
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

describe("derived ids", () => {
  it("are version-5-shaped UUIDs of their input, the same on every call", () => {
    const first = derivedUuid("question", "booking-1", "participants/0/name");
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first).toBe(expected("question", "booking-1", "participants/0/name"));
    expect(derivedUuid("question", "booking-1", "participants/0/name")).toBe(first);
  });

  it("tell apart inputs that join to the same text", () => {
    expect(derivedUuid("option", "a/b", "c")).not.toBe(derivedUuid("option", "a", "b/c"));
  });

  it("stay right for inputs seen before and after many others (the remembered ids are bounded)", () => {
    const early = derivedUuid("participant", "booking-2", "0");
    for (let i = 0; i < 50_000; i++) {
      const id = derivedUuid("question", `booking-${i}`, "q");
      if (i % 9973 === 0) expect(id).toBe(expected("question", `booking-${i}`, "q"));
    }
    expect(derivedUuid("participant", "booking-2", "0")).toBe(early);
    expect(derivedUuid("question", "booking-49999", "q")).toBe(expected("question", "booking-49999", "q"));
  });
});
