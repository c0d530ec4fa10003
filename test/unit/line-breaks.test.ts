import { describe, expect, it } from "vitest";
import { eachText, withContractSeparators, withLineBreaks } from "../../core/line-breaks.js";

describe("spec 1's line separators and the graph's line breaks", () => {
  it("turn into each other, \\r\\n included, and leave a text of one line alone", () => {
    expect(withLineBreaks("Glacier views/nIce caves/n")).toBe("Glacier views\nIce caves\n");
    expect(withContractSeparators("Glacier views\r\nIce caves\n")).toBe("Glacier views/nIce caves/n");
    expect(withContractSeparators(withLineBreaks("a/nb"))).toBe("a/nb");
    expect(withLineBreaks("and/or")).toBe("and/or");
  });

  it("convert every language of a language object, and no object at all to itself", () => {
    expect(eachText({ en: "a/nb", de: "c" }, withLineBreaks)).toEqual({ en: "a\nb", de: "c" });
    expect(eachText(null, withLineBreaks)).toBeNull();
    expect(eachText(undefined, withLineBreaks)).toBeUndefined();
  });
});
