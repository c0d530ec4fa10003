import { describe, expect, it } from "vitest";
import { instantOf, offsetAt, zonedText } from "../../../core/local-time.js";

describe("local times of a zone", () => {
  it("gives each side of a transition its own offset, however often either instant is asked for", () => {
    // Europe/Paris leaves summer time at 01:00 UTC on 2026-10-25.
    const before = new Date("2026-10-25T00:59:59Z");
    const after = new Date("2026-10-25T01:00:00Z");
    for (let round = 0; round < 3; round++) {
      expect(offsetAt(before, "Europe/Paris")).toBe(2 * 3600_000);
      expect(offsetAt(after, "Europe/Paris")).toBe(3600_000);
      expect(offsetAt(after, "Asia/Kolkata")).toBe(5.5 * 3600_000);
    }
    expect(zonedText(before, "Europe/Paris")).toBe("2026-10-25T02:59:59+02:00[Europe/Paris]");
    expect(zonedText(after, "Europe/Paris")).toBe("2026-10-25T02:00:00+01:00[Europe/Paris]");
  });

  it("moves a wall time in a spring-forward gap forward by the gap, as 03:30 would be", () => {
    expect(instantOf("2026-03-29", "02:30", "Europe/Paris").toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(instantOf("2026-03-29", "03:30", "Europe/Paris").toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(instantOf("2026-07-01", "09:00", "America/New_York").toISOString()).toBe("2026-07-01T13:00:00.000Z");
  });

  it("keeps answering the same after more instants than it keeps", () => {
    const start = Date.UTC(2026, 0, 1);
    const zones = ["Europe/Paris", "America/New_York"];
    for (let i = 0; i < 110_000; i++) offsetAt(new Date(start + i * 60_000), zones[i % 2]);
    expect(offsetAt(new Date(start), "Europe/Paris")).toBe(3600_000);
    expect(offsetAt(new Date(Date.UTC(2026, 6, 1)), "America/New_York")).toBe(-4 * 3600_000);
  });
});
