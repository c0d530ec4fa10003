import { describe, expect, it } from "vitest";
import { parseSearch, SearchSyntaxError } from "../../subgraphs/catalogue/search/search.expression.js";

const c = (field: string, value: string, operator = "=") => expect.objectContaining({ kind: "criterion", field, operator, value });

describe("Search expression parser", () => {
  it.each([
    ["title:museum", c("title", "museum")],
    ["title:^Mat", c("title", "Mat", "^")],
    ["rating:>4.5", c("rating", "4.5", ">")],
    ["minPrice:<50", c("minPrice", "50", "<")],
    ["title:~glaciar", c("title", "glaciar", "~")],
    ['title:"glacier hike"', c("title", "glacier hike")],
    ['description:"say \\"cheese\\""', c("description", 'say "cheese"')],
    ["  title:museum  ", c("title", "museum")],
  ])("parses %s", (input, expected) => {
    expect(parseSearch(input)).toEqual(expected);
  });

  it("binds AND tighter than OR, and accepts keywords in any case", () => {
    expect(parseSearch("title:a OR title:b AND taxonomy:c")).toEqual({ kind: "or", operands: [c("title", "a"), { kind: "and", operands: [c("title", "b"), c("taxonomy", "c")] }] });
    expect(parseSearch("title:a and title:b or title:c")).toEqual({ kind: "or", operands: [{ kind: "and", operands: [c("title", "a"), c("title", "b")] }, c("title", "c")] });
  });

  it("groups with parentheses", () => {
    expect(parseSearch("(title:a OR title:b) AND countryCode:CH")).toEqual({
      kind: "and",
      operands: [{ kind: "or", operands: [c("title", "a"), c("title", "b")] }, c("countryCode", "CH")],
    });
  });

  it.each([
    ["", "empty", 0],
    ["   ", "empty", 0],
    ["museum", "Expected ':' after the field museum", 6],
    ["title:", "Expected a value for title, found the end", 6],
    ["title:museum AND", "Expected a criterion field:value but the expression ends", 16],
    ["title:museum OR OR title:x", "Expected a field name, found 'OR'", 16],
    ["title:museum title:x", "Expected AND, OR or the end, found 'title'", 13],
    ["(title:museum", "Expected a closing parenthesis", 13],
    ["title:museum)", "Unexpected closing parenthesis", 12],
    ['title:"unclosed', "Unclosed quotation mark", 6],
    [':museum', "Expected a field name, found ':'", 0],
    ['title:""', "The value of title is empty", 6],
  ])("refuses %j saying what and where", (input, message, position) => {
    try {
      parseSearch(input);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SearchSyntaxError);
      expect((error as Error).message).toContain(message);
      expect((error as SearchSyntaxError).position).toBe(position);
    }
  });

  it("limits the number of criteria and the length", () => {
    const many = Array.from({ length: 21 }, (_, i) => `title:x${i}`).join(" OR ");
    expect(() => parseSearch(many)).toThrow(/At most 20 criteria/);
    expect(() => parseSearch(`title:${"x".repeat(2001)}`)).toThrow(/longer than 2000/);
  });
});
