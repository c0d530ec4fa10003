import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "../../../core/csv.js";
import { pageLinks, utcMillis, utcSeconds } from "../../../rest-compat/routes/reporting/report-body.js";

describe("CSV cells (RFC 4180, spreadsheet-safe)", () => {
  it.each([
    [null, ""],
    [undefined, ""],
    [12.5, "12.5"],
    [false, "false"],
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["=SUM(A1:A2)", "'=SUM(A1:A2)"],
    ["+31 20 123", "'+31 20 123"],
    ["-1", "'-1"],
    ["@cmd", "'@cmd"],
    ["\tx", "'\tx"],
    ['=HYPERLINK("x","y")', `"'=HYPERLINK(""x"",""y"")"`],
  ])("%j is written %j", (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it("ends each line with CRLF", () => {
    expect(csvLine(["a", 1, null, true])).toBe("a,1,,true\r\n");
  });
});

describe("report times", () => {
  it("drops milliseconds for record times and keeps them for the cancellation request", () => {
    expect(utcSeconds("2026-05-01T08:00:05.987Z")).toBe("2026-05-01T08:00:05Z");
    expect(utcMillis("2026-05-01T08:00:05.987Z")).toBe("2026-05-01T08:00:05.987Z");
    expect(utcSeconds(null)).toBeNull();
  });
});

describe("page links", () => {
  const request = { url: "/reporting/v1/bookings?status=CONFIRMED", publicUrl: "https://api.example" } as FastifyRequest;
  const offsetOf = (link: string) => (link === "" ? null : Number(new URL(link).searchParams.get("page[offset]")));

  it.each([
    // count, offset, limit → next offset, last offset
    [0, 0, 100, null, 0],
    [7, 0, 3, 3, 6],
    [7, 3, 3, 6, 6],
    [7, 6, 3, null, 6],
    [6, 0, 3, 3, 3],
    [7, 5, 3, null, 5],
    [10, 1, 3, 4, 7],
    [7, 50, 3, null, 6],
    [500, 0, 500, null, 0],
    [501, 0, 500, 500, 500],
  ])("count %i, offset %i, limit %i: next %s, last %i", (count, offset, limit, next, last) => {
    const links = pageLinks(request, count, offset, limit);
    expect(links.self).toBe("https://api.example/reporting/v1/bookings?status=CONFIRMED");
    expect(offsetOf(links.next)).toBe(next);
    expect(offsetOf(links.last)).toBe(last);
    expect(new URL(links.last).searchParams.get("status")).toBe("CONFIRMED");
    expect(Number(new URL(links.last).searchParams.get("page[limit]"))).toBe(limit);
  });
});
