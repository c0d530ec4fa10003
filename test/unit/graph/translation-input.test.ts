import { describe, expect, it } from "vitest";
import { badInput } from "../../../core/errors.js";
import { TranslationPlaces, translationsOfObject } from "../../../subgraphs/catalogue/language/translation.input.js";
import { MAX_DUPLICATES_NAMED } from "../../../subgraphs/common/translation.type.js";

describe("an input's translations and spec 1's language objects", () => {
  it("read into a language object, and a problem named by language names the translation's place", () => {
    const places = new TranslationPlaces();
    expect(places.read([{ language: "de", text: "Wanderung" }, { language: "en", text: "Hike" }], "title")).toEqual({ de: "Wanderung", en: "Hike" });
    expect(places.read([{ language: "en", text: "A\nB" }], "categories[0].name", (text) => text.toUpperCase())).toEqual({ en: "A\nB".toUpperCase() });
    places.refuseDuplicates();
    const refusal = places.inInputTerms(badInput("too long", [{ field: "title.en", rule: "maxLength", message: "too long" }, { field: "categories[0].name.en", rule: "maxLength", message: "too long" }, { field: "rating", rule: "maximum", message: "too high" }, { field: "title", rule: "required", message: "required" }])) as { extensions: { problems: { field: string }[] } };
    expect(refusal.extensions.problems.map((problem) => problem.field)).toEqual(["title[1].text", "categories[0].name[0].text", "rating", "title"]);
  });

  it("refuse a language given twice, naming its second place", () => {
    const places = new TranslationPlaces();
    places.read([{ language: "en", text: "Hike" }, { language: "de", text: "Wanderung" }, { language: "en", text: "Walk" }], "title");
    expect(() => places.refuseDuplicates()).toThrow(expect.objectContaining({ extensions: expect.objectContaining({ problems: [expect.objectContaining({ field: "title[2].language", rule: "uniqueLanguage" })] }) }));
  });

  it("name one language given twice a list, and a few in all, however many are repeated", () => {
    const places = new TranslationPlaces();
    const repeated = Array.from({ length: 1000 }, () => ({ language: "en", text: "Stop" }));
    for (let index = 0; index < 50; index++) places.read(repeated, `itinerary.units[${index}].title`);
    expect(() => places.refuseDuplicates()).toThrow(
      expect.objectContaining({ extensions: expect.objectContaining({ problems: Array.from({ length: MAX_DUPLICATES_NAMED }, (_, index) => expect.objectContaining({ field: `itinerary.units[${index}].title[1].language` })) }) }),
    );
  });

  it("write a language object as translations, and nothing as itself", () => {
    expect(translationsOfObject({ en: "Hike", de: "Wanderung" })).toEqual([{ language: "en", text: "Hike" }, { language: "de", text: "Wanderung" }]);
    expect(translationsOfObject(null)).toBeNull();
    expect(translationsOfObject(undefined)).toBeUndefined();
  });
});
