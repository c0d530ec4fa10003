import { beforeAll, describe, expect, it } from "vitest";
import { toGlobalId } from "../../core/global-id.js";
import { bookableProduct, everyDay } from "../support/booking.js";
import { contentPartner, productRequest, supplierRequest } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

const TEXT = "text translations { language text }";
const SETUP = `
  bookingEngineKind product { legacyResourceId }
  setup {
    timeZone startTimes capacityPerSlot minParticipants maxParticipants currency fixedFee
    options { key label { ${TEXT} } dataType choices { key label { ${TEXT} } } shownWhen { option equals } }
    units { key label { ${TEXT} } description { ${TEXT} } minAge maxAge unitPriceType price minQuantity maxQuantity accompaniedBy maxPerCompanion paxCount shownWhen { option equals } }
    questions {
      customer { key question { ${TEXT} } dataType dataFormat followUpOf { question equals } }
      booking { key question { ${TEXT} } dataType dataFormat choices { key } followUpOf { question equals } }
      participant { key }
    }
    cancellationTiers { label { ${TEXT} } duration refundRate }
    leadTravellerName confirmationDelaySeconds bookingHorizonDays
  }`;
const USER_ERRORS = "userErrors { code message field rule }";
const SET = `mutation ($input: SetProductBookingSetupInput!) { setProductBookingSetup(input: $input) { productBookingSetup { ${SETUP} } ${USER_ERRORS} } }`;
const REMOVE = `mutation ($input: RemoveProductBookingSetupInput!) { removeProductBookingSetup(input: $input) { productBookingSetup { setup { timeZone } } ${USER_ERRORS} } }`;
const READ = `query ($productId: ID!, $supplierId: ID) { productBookingSetup(productId: $productId, supplierId: $supplierId) { ${SETUP} } }`;

/** A setup as a graph client types it: texts one way or per language, money as Decimal, a refund as a rate, follow-ups nested two levels. */
const typedSetup = (overrides: Record<string, unknown> = {}) => ({
  timeZone: "Europe/Zurich",
  startTimes: ["10:00"],
  capacityPerSlot: 12,
  maxParticipants: 6,
  currency: "CHF",
  fixedFee: "7.50",
  units: [
    { key: "adult", label: { translations: [{ language: "en", text: "Adult" }, { language: "de", text: "Erwachsene" }] }, minAge: 16, unitPriceType: "PER_PERSON", price: "49.90", maxQuantity: 6 },
    { key: "child", label: { text: "Child" }, description: { text: "Ages 6 to 15" }, minAge: 6, maxAge: 15, unitPriceType: "PER_PERSON", price: "0.05", maxQuantity: 4, accompaniedBy: ["adult"], maxPerCompanion: 2 },
  ],
  options: [{ key: "boat", label: { text: "Boat" }, dataType: "OPTIONS", choices: [{ key: "sail", label: { text: "Sail" } }, { key: "motor", label: { translations: [{ language: "en", text: "Motor" }] } }] }],
  questions: {
    customer: [{ key: "name", question: { text: "Name" }, dataType: "TEXT" }],
    booking: [
      {
        key: "diet",
        question: { text: "Dietary needs?" },
        dataType: "BOOLEAN",
        followUps: [
          {
            equals: "true",
            questions: [
              {
                key: "dietKind",
                question: { text: "Which?" },
                dataType: "OPTIONS",
                choices: [{ key: "vegan", label: { text: "Vegan" } }, { key: "other", label: { text: "Other" } }],
                followUps: [{ equals: "other", questions: [{ key: "dietOther", question: { text: "Tell us" }, dataType: "LONG_TEXT" }] }],
              },
            ],
          },
        ],
      },
      { key: "remarks", question: { text: "Remarks" }, dataType: "LONG_TEXT" },
    ],
  },
  leadTravellerName: ["name"],
  cancellationTiers: [{ label: { text: "Two thirds back up to a day before" }, duration: "P1D", refundRate: "0.6667" }],
  ...overrides,
});

describe("booking setups through the graph", () => {
  const t = useStack();
  let partner: Partner;
  let supplierId: number;
  const gql = (query: string, variables: Record<string, unknown> = {}, token = partner.token) => graphql(`${t.stack.url}/graphql`, token, query, variables);
  const productGid = (id: number) => toGlobalId("Product", id);

  /** A product of the partner without a setup. */
  const newProduct = async () => (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ availabilityPeriods: everyDay() }))).body.id as number;

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
  });

  it("takes a typed setup and answers it as kept, defaults filled, follow-ups flat after the question they follow", async () => {
    const productId = await newProduct();
    const before = await gql(READ, { productId: productGid(productId) });
    expect(before.body.errors).toBeUndefined();
    expect(before.body.data!.productBookingSetup).toEqual({ bookingEngineKind: "INVENTORY", product: { legacyResourceId: productId }, setup: null });

    const set = await gql(SET, { input: { productId: productGid(productId), supplierId: toGlobalId("Supplier", supplierId), setup: typedSetup() } });
    expect(set.body.errors).toBeUndefined();
    const { productBookingSetup, userErrors } = set.body.data!.setProductBookingSetup;
    expect(userErrors).toEqual([]);
    expect(productBookingSetup.product).toEqual({ legacyResourceId: productId });
    const { setup } = productBookingSetup;
    expect(setup).toMatchObject({ minParticipants: 1, fixedFee: "7.5", confirmationDelaySeconds: 2, bookingHorizonDays: 365 });
    expect(setup.units[0]).toMatchObject({ label: { text: null, translations: [{ language: "de", text: "Erwachsene" }, { language: "en", text: "Adult" }] }, price: "49.9", minQuantity: 0, accompaniedBy: [], maxAge: null, paxCount: null });
    expect(setup.units[1]).toMatchObject({ label: { text: "Child", translations: null }, description: { text: "Ages 6 to 15", translations: null }, price: "0.05", accompaniedBy: ["adult"] });
    expect(setup.options[0].choices[1]).toEqual({ key: "motor", label: { text: null, translations: [{ language: "en", text: "Motor" }] } });
    expect(setup.questions.booking.map((q: { key: string; followUpOf: unknown }) => [q.key, q.followUpOf])).toEqual([
      ["diet", null],
      ["dietKind", { question: "diet", equals: "true" }],
      ["dietOther", { question: "dietKind", equals: "other" }],
      ["remarks", null],
    ]);
    expect(setup.questions.participant).toEqual([]);
    expect(setup.cancellationTiers).toEqual([{ label: { text: "Two thirds back up to a day before", translations: null }, duration: "P1D", refundRate: "0.6667" }]);
    expect((await gql(READ, { productId: productGid(productId) })).body.data!.productBookingSetup).toEqual(productBookingSetup);

    // REST reads the same setup as the partner's document: texts as given, numbers, percentages, follow-ups nested.
    const document = (await partner.rest.get(`/api/supplier/${supplierId}/product/${productId}/booking-setup`)).body;
    expect(document.units[0]).toMatchObject({ label: { en: "Adult", de: "Erwachsene" }, price: 49.9 });
    expect(document.units[1]).toMatchObject({ label: "Child", price: 0.05 });
    expect(document.fixedFee).toBe(7.5);
    expect(document.cancellationTiers).toEqual([{ label: "Two thirds back up to a day before", duration: "P1D", refundPercentage: 66.67 }]);
    expect(document.questions.booking[0].followUps[0].questions[0].followUps[0].questions[0].key).toBe("dietOther");
    expect(document.questions.booking[1].key).toBe("remarks");
  });

  it("refuses a setup breaking its rules as userErrors naming each field of the input, and changes nothing", async () => {
    const productId = await newProduct();
    const kept = await gql(SET, { input: { productId: productGid(productId), setup: typedSetup() } });
    expect(kept.body.data!.setProductBookingSetup.userErrors).toEqual([]);
    const invalid = typedSetup({
      timeZone: "Mars/Olympus",
      capacityPerSlot: 0,
      units: [{ key: "adult", label: { text: "Adult", translations: [{ language: "en", text: "Adult" }] }, minAge: 18, unitPriceType: "GROUP", price: "-1", maxQuantity: 2 }],
      cancellationTiers: [{ label: {}, duration: "2 days", refundRate: "1.5" }],
    });
    const refused = await gql(SET, { input: { productId: productGid(productId), setup: invalid } });
    expect(refused.body.errors).toBeUndefined();
    const { productBookingSetup, userErrors } = refused.body.data!.setProductBookingSetup;
    expect(productBookingSetup).toBeNull();
    expect(userErrors.every((error: { code: string; rule: string }) => error.code === "INVALID_SETUP" && error.rule)).toBe(true);
    const fields = userErrors.map((error: { field: string[] }) => error.field.join("."));
    expect(fields).toEqual(
      expect.arrayContaining([
        "input.setup.timeZone",
        "input.setup.capacityPerSlot",
        "input.setup.units.0.label",
        "input.setup.units.0.price",
        "input.setup.cancellationTiers.0.label",
        "input.setup.cancellationTiers.0.duration",
        "input.setup.cancellationTiers.0.refundRate",
      ]),
    );
    expect(userErrors.find((error: { field: string[] }) => error.field.join(".") === "input.setup.units.0.label").message).toBe("give text or translations, not both");
    expect(userErrors.find((error: { field: string[] }) => error.field.join(".") === "input.setup.cancellationTiers.0.label").message).toBe("give text or translations");
    // A language given twice leaves its text unknown; a text past 500 characters is named in its language.
    const texts = typedSetup({
      options: [{ key: "boat", label: { translations: [{ language: "en", text: "Boat" }, { language: "de", text: "Boot" }, { language: "en", text: "Ship" }] }, dataType: "TEXT" }],
      cancellationTiers: [{ label: { translations: [{ language: "en", text: "x".repeat(501) }] }, refundRate: "1" }],
    });
    const twice = (await gql(SET, { input: { productId: productGid(productId), setup: texts } })).body.data!.setProductBookingSetup;
    expect(twice.productBookingSetup).toBeNull();
    expect(twice.userErrors.map((error: { field: string[]; rule: string }) => [error.field.join("."), error.rule])).toEqual([
      ["input.setup.options.0.label.translations.2.language", "uniqueLanguage"],
      ["input.setup.cancellationTiers.0.label.translations.0.text", "too_big"],
    ]);
    // The setup is the one set before.
    expect((await gql(READ, { productId: productGid(productId) })).body.data!.productBookingSetup.setup.timeZone).toBe("Europe/Zurich");
    expect((await gql(READ, { productId: productGid(productId) })).body.data!.productBookingSetup.setup.capacityPerSlot).toBe(12);
  });

  it("answers null for a product that is unknown, another supplier's, or another partner's, and refuses to change it as NOT_FOUND", async () => {
    const { productId: othersProduct, supplierId: othersSupplier, partner: other } = await bookableProduct(t.stack);
    const ownProduct = await newProduct();
    const reads = [
      { productId: productGid(othersProduct) },
      { productId: productGid(999_999_999) },
      { productId: toGlobalId("Supplier", supplierId) },
      { productId: productGid(ownProduct), supplierId: toGlobalId("Supplier", othersSupplier) },
    ];
    for (const variables of reads) {
      const read = await gql(READ, variables);
      expect(read.body.errors, JSON.stringify(variables)).toBeUndefined();
      expect(read.body.data, JSON.stringify(variables)).toEqual({ productBookingSetup: null });
    }

    const notFound = { code: "NOT_FOUND", field: ["input", "productId"], rule: null, message: expect.any(String) };
    for (const address of [{ productId: productGid(othersProduct) }, { productId: productGid(ownProduct), supplierId: toGlobalId("Supplier", othersSupplier) }]) {
      const set = await gql(SET, { input: { ...address, setup: typedSetup() } });
      expect(set.body.data!.setProductBookingSetup).toEqual({ productBookingSetup: null, userErrors: [notFound] });
      const removed = await gql(REMOVE, { input: address });
      expect(removed.body.data!.removeProductBookingSetup).toEqual({ productBookingSetup: null, userErrors: [notFound] });
    }
    // The other partner's setup is still in place, as its owner reads it.
    expect((await gql(READ, { productId: productGid(othersProduct) }, other.token)).body.data!.productBookingSetup.setup.timeZone).toBe("Europe/Zurich");
  });

  it("takes the product out of the flow, and says NOT_FOUND when it has no setup left to remove", async () => {
    const productId = await newProduct();
    await gql(SET, { input: { productId: productGid(productId), setup: typedSetup() } });
    const removed = await gql(REMOVE, { input: { productId: productGid(productId), supplierId: toGlobalId("Supplier", supplierId) } });
    expect(removed.body.data!.removeProductBookingSetup).toEqual({ productBookingSetup: { setup: null }, userErrors: [] });
    const again = await gql(REMOVE, { input: { productId: productGid(productId) } });
    expect(again.body.data!.removeProductBookingSetup).toEqual({
      productBookingSetup: null,
      userErrors: [{ code: "NOT_FOUND", field: ["input", "productId"], rule: null, message: `Product ${productId} has no booking setup` }],
    });
  });

  it("keeps the caller's role an error: a consumer is FORBIDDEN, reading and writing", async () => {
    const { productId } = await bookableProduct(t.stack);
    const consumerToken = await t.stack.tokenFor("CONSUMER");
    const read = await gql(READ, { productId: productGid(productId) }, consumerToken);
    expect(read.body.errors?.[0].extensions?.code).toBe("FORBIDDEN");
    const set = await gql(SET, { input: { productId: productGid(productId), setup: typedSetup() } }, consumerToken);
    expect(set.body.errors?.[0].extensions?.code).toBe("FORBIDDEN");
    expect(set.body.data?.setProductBookingSetup ?? null).toBeNull();
  });
});
