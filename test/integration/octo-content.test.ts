import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../core/logger.js";
import { createOctoSupplier, type OctoSupplier } from "../../octo-supplier/octo-supplier.js";
import { isoMinutes, languageOf, productRequestFromOcto, supplierRequestFromOcto, type OctoProductVersion } from "../../subgraphs/catalogue/import/octo-import.content.js";
import { productProblems } from "../../subgraphs/catalogue/product/product.rules.js";
import { supplierProblems } from "../../subgraphs/catalogue/supplier/supplier.rules.js";
import { OctoClient } from "../../subgraphs/common/octo/octo.client.js";
import { octoDurationMinutes } from "../../subgraphs/common/octo/octo.fields.js";
import type { ProductWithQuestions } from "../../core/octo-questions.js";

const KEY = "octo-content-test-key";

/**
 * An OCTO supplier's content, as fetched by the client from the local supplier, becomes requests
 * that pass our catalogue's own rules, with every language's texts gathered per field
 * (docs/octo-engine.md, "Content mapping").
 */
describe("OCTO content mapping", () => {
  let supplier: OctoSupplier;
  let octo: OctoClient;
  let plain: OctoClient;
  const logger = createLogger("silent", new Writable({ write: (_chunk, _encoding, done) => done() }));

  beforeAll(async () => {
    supplier = await createOctoSupplier({ apiKey: KEY });
    const baseUrl = await supplier.listen();
    octo = new OctoClient({ engineName: "OCTO_CONTENT_TEST", baseUrl, apiKey: KEY, capabilities: ["octo/content", "octo/pricing"] }, { logger });
    plain = new OctoClient({ engineName: "OCTO_CONTENT_PLAIN", baseUrl, apiKey: KEY, capabilities: [] }, { logger });
  });
  afterAll(async () => supplier?.close());

  /** Every product in every language the supplier offers, as the import will fetch them. */
  async function versionsByProduct(client: OctoClient): Promise<Map<string, OctoProductVersion[]>> {
    const first = await client.products();
    const languages = first.availableLanguages.length ? first.availableLanguages : ["en"];
    const byProduct = new Map<string, OctoProductVersion[]>();
    for (const language of languages) {
      const answer = await client.products(language);
      for (const product of answer.body) {
        const versions = byProduct.get(product.id) ?? [];
        versions.push({ language: languageOf(answer.contentLanguage ?? language), product });
        byProduct.set(product.id, versions);
      }
    }
    return byProduct;
  }

  it("maps each product to a request our catalogue accepts, with texts in every language", async () => {
    const products = await versionsByProduct(octo);
    const louvre = productRequestFromOcto(products.get("louvre-highlights")!, "PARIS_OCTO");
    expect(productProblems(louvre).list).toEqual([]);
    expect(louvre).toMatchObject({
      externalId: "louvre-highlights",
      title: { en: "Louvre highlights guided tour", fr: "Visite guidée des chefs-d'œuvre du Louvre", de: "Führung zu den Höhepunkten des Louvre" },
      description: { en: expect.stringContaining("Two hours"), fr: expect.stringContaining("Deux heures"), de: expect.stringContaining("Zwei Stunden") },
      availabilityType: "START_TIME",
      redemptionMethod: "DIGITAL",
      bookingEngine: "PARIS_OCTO",
      countryCode: "FR",
      cityName: "Paris",
      zipCode: "75001",
      geoLocation: { latitude: 48.8606, longitude: 2.3376 },
      thumbnailImage: "https://paris-discovery.example/img/louvre.jpg",
      duration: "PT2H",
      // The cheapest unit (a child in the group) to the dearest (an adult on the private tour).
      minPrice: 35,
      // The local supplier's net rate is 80 % of retail: we keep a fifth.
      estCommNet: 7,
      estCommFrpricePerc: 0.2,
      maxPrice: 145,
      priceCurrency: "EUR",
      pricingUnit: "PER_PERSON",
      cancellationCutOffAmount: 24,
      cancellationCutOffUnit: "hour",
      metadata: { octo: { productId: "louvre-highlights", timeZone: "Europe/Paris", options: [{ id: "group", units: [{ id: "adult", type: "ADULT" }, { id: "child", type: "CHILD" }] }, { id: "private", units: expect.any(Array) }] } },
    });

    const seine = productRequestFromOcto(products.get("seine-day-pass")!, "PARIS_OCTO");
    expect(productProblems(seine).list).toEqual([]);
    expect(seine).toMatchObject({ availabilityType: "OPENING_HOURS", duration: "PT8H", minPrice: 11, maxPrice: 55, cancellationCutOffAmount: 0 });
  });

  it("stands the internal name in for a title when the supplier gives no content, and still passes our rules", async () => {
    const products = await versionsByProduct(plain);
    const request = productRequestFromOcto(products.get("seine-day-pass")!, "PARIS_OCTO");
    expect(request.title).toEqual({ en: "Seine hop-on hop-off day pass" });
    expect(request).toMatchObject({ description: null, minPrice: null, priceCurrency: null, thumbnailImage: null });
    expect(productProblems(request).list).toEqual([]);
  });

  it("maps the supplier under the engine, in the engine's country", async () => {
    const { body } = await octo.supplier();
    const request = supplierRequestFromOcto(body, "FR", 7);
    expect(supplierProblems(request).list).toEqual([]);
    expect(request).toMatchObject({ externalId: "paris-discovery", country: "FR", bookingEngine: 7, name: "Paris Discovery (local OCTO supplier)", supplierContact: { email: "bookings@paris-discovery.example" } });
  });

  it("leaves out a supplier's contact detail or a gallery image that is no link, address or number, rather than refuse the supplier or the product", async () => {
    const { body } = await octo.supplier();
    const kept = { website: "https://paris-discovery.example", email: "bookings@paris-discovery.example", telephone: "+33 1 23 45 67 89", address: "1 rue de Rivoli" };
    expect(supplierRequestFromOcto({ ...body, contact: kept }, "FR", 7).supplierContact).toEqual(kept);
    const odd = supplierRequestFromOcto({ ...body, contact: { website: "paris-discovery.example", email: "n/a", telephone: "call the office", address: "1 rue de Rivoli" } }, "FR", 7);
    expect(odd.supplierContact).toEqual({ website: null, email: null, telephone: null, address: "1 rue de Rivoli" });
    expect(supplierProblems(odd).list).toEqual([]);

    const [versions] = (await versionsByProduct(octo)).values();
    const image = (src: string) => ({ src, type: "image/jpeg", rel: "GALLERY", title: src, caption: null, copyright: null });
    const media = [image("https://img.example/a.jpg"), image("/relative/b.jpg"), image("javascript:alert(1)"), image("http://img.example/c.jpg")];
    const request = productRequestFromOcto(versions.map((version) => ({ ...version, product: { ...version.product, media } as never })), "OCTO_CONTENT_TEST");
    expect(request.galleryImage!.map((item) => item.url)).toEqual(["https://img.example/a.jpg", "http://img.example/c.jpg"]);
    expect(productProblems(request).list).toEqual([]);
  });

  it("reads a length from durationMinutesFrom, else from durationAmount and durationUnit, and ignores what is no length", () => {
    const product = (fields: Record<string, unknown>, option: Record<string, unknown> = {}) => ({ options: [{ default: true, ...option }] }) as unknown as ProductWithQuestions & typeof fields;
    const minutes = (fields: Record<string, unknown>, option: Record<string, unknown> = {}) => octoDurationMinutes({ ...product(fields, option), ...fields });
    expect(minutes({ durationMinutesFrom: 90 })).toBe(90);
    expect(minutes({}, { durationMinutesFrom: 45 })).toBe(45);
    expect(minutes({}, { durationAmount: "2", durationUnit: "hour" })).toBe(120);
    expect(minutes({ durationAmount: 3, durationUnit: "day" })).toBe(4320);
    expect(minutes({}, { durationAmount: "1.5", durationUnit: "hour" })).toBe(90);
    expect(minutes({ durationMinutesFrom: 0 }, { durationAmount: "30", durationUnit: "minute" })).toBe(30);
    // Zero (suppliers send "0 hours" for products of no fixed length), a unit OCTO does not name, no number, a negative one, nonsense.
    for (const option of [{ durationAmount: "0", durationUnit: "hour" }, { durationAmount: "2", durationUnit: "week" }, { durationAmount: "two", durationUnit: "hour" }, { durationAmount: -2, durationUnit: "hour" }, { durationAmount: 1e12, durationUnit: "day" }, { durationAmount: "2" }]) {
      expect(minutes({}, option)).toBeUndefined();
    }
    const cruise = productRequestFromOcto([{ language: "en", product: { ...product({}), id: "boat", internalName: "Boat", options: [{ default: true, durationAmount: "2", durationUnit: "hour", restrictions: { minUnits: 2, maxUnits: 8 }, units: [], cancellationCutoffAmount: 0, cancellationCutoffUnit: "hour", cancellationCutoff: "0 hours" }] } as never }], "ENGINE");
    expect(cruise.duration).toBe("PT2H");
  });

  it("writes minutes as ISO 8601 durations our rules accept", () => {
    expect([0, 45, 90, 120, 480, 1440, 1530].map(isoMinutes)).toEqual(["PT0M", "PT45M", "PT1H30M", "PT2H", "PT8H", "P1D", "P1DT1H30M"]);
  });
});
