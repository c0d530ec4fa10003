import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { isCalendarDate } from "../../core/calendar-date.js";
import { operationTextProblems, textProblem, textProblems } from "../../core/input-text.js";
import { isUuid } from "../../core/uuid.js";

describe("core input checks", () => {
  it("takes only days of the calendar as dates", () => {
    for (const date of ["2026-01-01", "2024-02-29", "2000-02-29", "0001-01-01", "9999-12-31"]) expect(isCalendarDate(date), date).toBe(true);
    for (const date of ["2026-13-45", "0000-00-00", "0000-01-01", "2026-02-30", "2100-02-29", "2026-04-31", "2026-1-01", "2026-01-01T00:00", " 2026-01-01", 20260101]) {
      expect(isCalendarDate(date), String(date)).toBe(false);
    }
  });

  it("takes only hex UUIDs as ids", () => {
    expect(isUuid("8a0c6b1e-0f7e-4b8e-9c1d-2f3a4b5c6d7e")).toBe(true);
    expect(isUuid("8A0C6B1E-0F7E-4B8E-9C1D-2F3A4B5C6D7E")).toBe(true);
    for (const id of ["-".repeat(36), "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz", "00000000-0000-0000-0000-00000000000g", "8a0c6b1e0f7e4b8e9c1d2f3a4b5c6d7e", undefined]) expect(isUuid(id)).toBe(false);
  });

  it("finds NUL characters and lone surrogates, and only them", () => {
    expect(textProblem("Zürich 😀 \u00a0")).toBeUndefined();
    expect(textProblem("a\u0000b")).toMatch(/NUL/);
    for (const lone of ["\ud800", "a\udc00", "😀\ud83d", "\ude00x"]) expect(textProblem(lone)).toMatch(/surrogate/);
  });

  it("names each place of a JSON value by its path, keys included", () => {
    const problems = textProblems({ title: { en: "ok", de: "a\u0000" }, list: ["ok", "\ud800"], ["k\u0000"]: 1 }, "");
    expect(problems.map((p) => p.field)).toEqual(["title.de", "list[1]", "k\u0000"]);
  });

  it("checks GraphQL variables and literals, wherever they stand", () => {
    const document = parse(`query ($a: String = "x\\u0000") { f(input: { list: ["ok", "y\\u0000"] }) { g(s: "ok") } }`);
    expect(operationTextProblems(document, { b: { c: "\ud800" } }).map((p) => p.field)).toEqual(["$b.c", "$a", "input.list[1]"]);
    // The same parsed document again (as Apollo's document store returns it): each request's own variables, the literals every time.
    expect(operationTextProblems(document, { b: "ok" }).map((p) => p.field)).toEqual(["$a", "input.list[1]"]);
    expect(operationTextProblems(document, { d: "\u0000" }).map((p) => p.field)).toEqual(["$d", "$a", "input.list[1]"]);
    expect(operationTextProblems(parse(`{ f(s: "ok") }`), { b: "ok" })).toEqual([]);
  });
});
