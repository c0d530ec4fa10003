import { describe, expect, it } from "vitest";
import { decimalOf } from "../../../core/decimal.js";
import { statedMoney } from "../../../subgraphs/common/money.type.js";
import { setupAnswerOf, setupDocumentOf, typedSetupOf, typedSetupOfAnswer } from "../../../subgraphs/booking/booking-setup/booking-setup.document.js";
import { parseBookingSetup } from "../../../subgraphs/booking/engines/inventory/booking-setup.schema.js";
import type { BookingSetupInput } from "../../../subgraphs/booking/booking-setup/booking-setup.type.js";
import { familySetup } from "../../support/booking.js";
import { productInputOf, productRequestOf, type ProductInputFields } from "../../../subgraphs/catalogue/product/product.input.js";
import { TranslationPlaces } from "../../../subgraphs/catalogue/language/translation.input.js";

describe("amounts as the graph writes them", () => {
  it("are plain decimal text, never an exponent", () => {
    expect([50, 12.5, 0.05, 1e-7, 1_000_000].map(decimalOf)).toEqual(["50", "12.5", "0.05", "0.0000001", "1000000"]);
  });

  it("keep a stated price exact: the currency's decimals at least, never rounded away", () => {
    expect(statedMoney(22, "EUR")).toEqual({ amount: "22.00", currencyCode: "EUR" });
    expect(statedMoney(12.345, "EUR")).toEqual({ amount: "12.345", currencyCode: "EUR" });
    expect(statedMoney(5200, "JPY")).toEqual({ amount: "5200", currencyCode: "JPY" });
    expect(statedMoney(1.5, "BHD")).toEqual({ amount: "1.500", currencyCode: "BHD" });
    // Without an amount or a currency there is no Money to state.
    expect(statedMoney(null, "EUR")).toBeNull();
    expect(statedMoney(10, null)).toBeNull();
  });
});

describe("a booking setup's two forms", () => {
  const stored = parseBookingSetup(
    familySetup({ fixedFee: 7.5, cancellationTiers: [{ label: { en: "Two thirds", de: "Zwei Drittel" }, duration: "P1D", refundPercentage: 66.67 }] }),
  ).setup!;

  it("go from the document to the typed form and back unchanged, through the flat answer too", () => {
    const typed = typedSetupOf(stored) as unknown as BookingSetupInput;
    expect(typed.cancellationTiers![0].refundRate).toBe("0.6667");
    expect(typed.fixedFee).toBe("7.5");
    expect(typed.cancellationTiers![0].label).toEqual({ text: null, translations: [{ language: "de", text: "Zwei Drittel" }, { language: "en", text: "Two thirds" }] });
    const { document, problems } = setupDocumentOf(typed);
    expect(problems).toEqual([]);
    expect(parseBookingSetup(document).setup).toEqual(stored);
    const answer = setupAnswerOf(stored);
    expect(answer.questions.booking.map((question) => [question.key, question.followUpOf])).toEqual([
      ["pickup", null],
      ["hotel", { question: "pickup", equals: "true" }],
    ]);
    expect(parseBookingSetup(setupDocumentOf(typedSetupOfAnswer(answer) as unknown as BookingSetupInput).document).setup).toEqual(stored);
  });

  it("name a text given both ways, or neither, where it stands", () => {
    const typed = typedSetupOf(stored) as unknown as BookingSetupInput;
    typed.units[0].label = { text: "Adult", translations: [{ language: "en", text: "Adult" }] };
    typed.options![0].label = {};
    expect(setupDocumentOf(typed).problems).toEqual([
      { field: "setup.options.0.label", rule: "custom", message: "give text or translations" },
      { field: "setup.units.0.label", rule: "custom", message: "give text or translations, not both" },
    ]);
  });

  it("name a language given twice at its second item, once a list and ten times at most in all", () => {
    const typed = typedSetupOf(stored) as unknown as BookingSetupInput;
    const twice = [
      { language: "en", text: "Adult" },
      { language: "de", text: "Erwachsene" },
      { language: "en", text: "Grown-up" },
      { language: "en", text: "Adult again" },
    ];
    typed.units[0].label = { translations: twice };
    expect(setupDocumentOf(typed).problems).toEqual([{ field: "setup.units.0.label.translations.2.language", rule: "uniqueLanguage", message: "en is given twice" }]);
    typed.options = Array.from({ length: 15 }, (_, index) => ({ key: `o${index}`, label: { translations: twice }, dataType: "TEXT" })) as never;
    expect(setupDocumentOf(typed).problems).toHaveLength(10);
    // Each language once is a language object again.
    typed.options = [];
    typed.units[0].label = { translations: twice.slice(0, 2) };
    expect(setupDocumentOf(typed).document.units).toEqual(expect.arrayContaining([expect.objectContaining({ label: { en: "Adult", de: "Erwachsene" } })]));
  });
});

describe("a product body's two forms", () => {
  it("go from spec 1's body to the typed input and back: Decimals for numbers, the cut-off unit's enum name, commissionTerms for estComm*", () => {
    const document = { externalId: "P-1", title: { en: "Tour" }, minPrice: 49.9, maxPrice: 60, averagePrice: 1e-7, priceCurrency: "EUR", cancellationCutOffAmount: 2, cancellationCutOffUnit: "hour", estCommNet: 7.5, estCommFrpricePerc: 0.15 };
    const input = productInputOf(document);
    expect(input).toEqual({ externalId: "P-1", title: [{ language: "en", text: "Tour" }], minPrice: "49.9", maxPrice: "60", averagePrice: "0.0000001", priceCurrency: "EUR", cancellationCutOffAmount: 2, cancellationCutOffUnit: "HOUR", commissionTerms: { netCommission: "7.5", commissionRate: "0.15" } });
    // The graph's enum stands for the lower-case unit, so the service gets "hour" back from it.
    expect(productRequestOf({ ...(input as unknown as ProductInputFields), cancellationCutOffUnit: "hour" }, new TranslationPlaces())).toEqual({ ...document });
  });

  it("round a number past 10 places after the point to 10, and leave the commission out when neither part is given", () => {
    expect(productInputOf({ minPrice: 0.1 + 0.2, maxPrice: 1.00000000004 })).toEqual({ minPrice: "0.3", maxPrice: "1" });
    expect(productRequestOf({ externalId: "P", title: [{ language: "en", text: "T" }], commissionTerms: null } as ProductInputFields, new TranslationPlaces())).toMatchObject({ title: { en: "T" }, estCommNet: undefined, estCommFrpricePerc: undefined });
  });
});
