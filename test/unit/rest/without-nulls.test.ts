import { describe, expect, it } from "vitest";
import { withoutNulls } from "../../../rest-compat/routes/booking-flow/booking-body.js";

/** REST booking bodies leave out what GraphQL answered null: absent, not null, at every depth. */
describe("withoutNulls", () => {
  it("drops null and undefined members at every depth, in arrays too, and keeps everything else as it was", () => {
    const at = new Date("2026-11-26T10:00:00Z");
    const body = withoutNulls({ id: "b", status: null, n: 0, empty: "", no: false, at, tickets: [{ unit: "adult", price: null }, null, { unit: "child", options: { a: null, b: [1, null] } }], gone: undefined });
    expect(body).toEqual({ id: "b", n: 0, empty: "", no: false, at, tickets: [{ unit: "adult" }, null, { unit: "child", options: { b: [1, null] } }] });
    expect(Object.keys(body)).toEqual(["id", "n", "empty", "no", "at", "tickets"]);
    expect(body.at).toBe(at);
  });

  it("keeps a partner's choice key named __proto__ as a key, and the body's prototype untouched", () => {
    const choices = JSON.parse('{"optionChoices": {"__proto__": {"polluted": true}, "a": "A"}}') as { optionChoices: Record<string, unknown> };
    const body = withoutNulls(choices);
    expect(Object.keys(body.optionChoices)).toEqual(["__proto__", "a"]);
    expect(JSON.stringify(body)).toBe('{"optionChoices":{"__proto__":{"polluted":true},"a":"A"}}');
    expect(Object.getPrototypeOf(body.optionChoices)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
