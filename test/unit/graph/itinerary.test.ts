import { describe, expect, it } from "vitest";
import { TranslationPlaces } from "../../../subgraphs/catalogue/language/translation.input.js";
import { itineraryDocumentOf, itineraryDocumentOfAnswer, itineraryInputOf, typedItineraryOf, type ItineraryInput } from "../../../subgraphs/catalogue/product/itinerary.type.js";

/** A reader of translations, as a product's mutations give one. */
const read = () => {
  const places = new TranslationPlaces();
  return places.read.bind(places);
};

const document = {
  type: "STANDARD",
  unitType: "ITEM",
  units: [{ title: { en: "Ascent" }, items: [{ title: { en: "Trockener Steg" }, location: { name: "Trockener Steg", latitude: 45.9686, longitude: 7.7237 } }, { title: { en: "Summit" } }] }],
};

describe("a product's itinerary in spec 1's document and in the graph's types", () => {
  it("answer the kept document typed and write it back as the document", () => {
    const typed = typedItineraryOf(document)!;
    expect(typed.units[0].items[1]).toEqual({ title: { translations: { en: "Summit" } }, location: null });
    expect(typed.units[0].items[0].location).toEqual({ name: "Trockener Steg", address: null, placeId: null, latitude: 45.9686, longitude: 7.7237 });
    expect(itineraryDocumentOfAnswer(typed, (text) => text.translations)).toEqual(document);
    expect(typedItineraryOf(null)).toBeNull();
  });

  it("carry an unstructured text's lines as '/n' in the document and as line breaks in the graph, both ways", () => {
    const unstructured = { type: "UNSTRUCTURED", unstructuredItinerary: { en: "Meet/nWalk" } };
    expect(typedItineraryOf(unstructured)!.unstructuredItinerary).toEqual({ translations: { en: "Meet\nWalk" } });
    expect(itineraryDocumentOfAnswer(typedItineraryOf(unstructured), (text) => text.translations)).toEqual(unstructured);
    const input = itineraryInputOf(unstructured)!;
    expect(input.unstructuredItinerary).toEqual([{ language: "en", text: "Meet\nWalk" }]);
    expect(itineraryDocumentOf(input, read())).toEqual(unstructured);
  });

  it("take the typed input as the document, leaving out what was not given", () => {
    const input = { type: "STANDARD", unitType: undefined, units: [{ title: [{ language: "en", text: "Ascent" }], items: [{ title: undefined, location: { name: "Top", latitude: undefined } }] }] } as unknown as ItineraryInput;
    expect(itineraryDocumentOf(input, read())).toEqual({ type: "STANDARD", units: [{ title: { en: "Ascent" }, items: [{ location: { name: "Top" } }] }] });
    expect(itineraryDocumentOf(itineraryInputOf(document), read())).toEqual(document);
  });
});
