import { describe, expect, it } from "vitest";
import { FullTextProblem, parseFullText } from "../../subgraphs/catalogue/search/search.full-text.js";
import { parseSearch } from "../../subgraphs/catalogue/search/search.expression.js";

const term = (text: string, exclude = false) => ({ text, exclude });

describe("full-text values", () => {
  it.each([
    ["museum", [[term("museum")]]],
    ["dinner cruise", [[term("dinner"), term("cruise")]]],
    ['"dinner cruise" or boat', [[term("dinner cruise")], [term("boat")]]],
    ["louvre -orsay", [[term("louvre"), term("orsay", true)]]],
    ["museum - louvre", [[term("museum"), term("louvre", true)]]],
    ['-"dinner cruise"', [[term("dinner cruise", true)]]],
    ["wine-tasting", [[term("wine-tasting")]]],
    ["a or or b", [[term("a")], [term("or"), term("b")]]],
    ["or museum or", [[term("or"), term("museum"), term("or")]]],
    ["!!! museum :*", [[term("museum")]]],
    ["museum -", [[term("museum")]]],
    ['"unclosed phrase', [[term("unclosed phrase")]]],
  ])("reads %j as websearch_to_tsquery does", (value, expected) => {
    expect(parseFullText(value)).toEqual(expected);
  });

  it.each([
    ["-".repeat(33), "not 33 in a row", 0],
    [`museum ${"-".repeat(40)}louvre`, "not 40 in a row", 7],
    ["museum - -louvre", "not 2 in a row", 7],
    ["-", "no word to search for", 0],
    ["&& || !! ()", "no word to search for", 0],
    [Array.from({ length: 33 }, (_, i) => `w${i}`).join(" "), "at most 32 words", 118],
    [`museum ${"a".repeat(2048)}`, "longer than 2047 bytes", 7],
  ])("refuses %j saying what and where", (value, message, offset) => {
    try {
      parseFullText(value);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(FullTextProblem);
      expect((error as Error).message).toContain(message);
      expect((error as FullTextProblem).offset).toBe(offset);
    }
  });

  it("accepts 32 words and words of 2047 bytes", () => {
    expect(parseFullText(Array.from({ length: 32 }, (_, i) => `w${i}`).join(" ")).flat()).toHaveLength(32);
    expect(parseFullText("a".repeat(2047))).toEqual([[term("a".repeat(2047))]]);
  });

  it("knows where a criterion's value starts, so a refusal points at it", () => {
    expect(parseSearch('countryCode:FR AND title:"---"')).toEqual(expect.objectContaining({ operands: [expect.anything(), expect.objectContaining({ field: "title", position: 19, valuePosition: 25 })] }));
  });
});
