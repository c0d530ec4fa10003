import { beforeAll, describe, expect, it } from "vitest";
import { bookableAvailability, bookableProduct, consumer, newRef, type BookableProduct } from "../support/booking.js";
import { contentPartner, restClient } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";
import { toGlobalId } from "../../core/global-id.js";

/*
 * REST parameters the graph's types cannot carry (a date, a currency, a country or a language
 * that is none): each is answered as the step itself refuses it, and only after the checks the
 * step makes before it, so a caller sees the same answer as before the graph was typed.
 */
describe("REST parameters the graph's types cannot carry", () => {
  const t = useStack();
  let product: BookableProduct;
  let buyer: Awaited<ReturnType<typeof consumer>>;
  let partner: Awaited<ReturnType<typeof contentPartner>>;
  const flow = () => `/booking-flow/v1/products/${product.productId}/availabilities`;

  beforeAll(async () => {
    product = await bookableProduct(t.stack);
    buyer = await consumer(t.stack, "Untypable Travel");
    partner = await contentPartner(t.stack);
  });

  it("answers a date that is none after the booking scope, and a range's after the product", async () => {
    // A caller that may not book is told so first, whatever the date.
    expect((await partner.rest.get(`${flow()}/2026-02-30/options`)).body).toMatchObject({ status: 403 });
    const options = await buyer.rest.get(`${flow()}/2026-02-30/options`);
    expect(options.body).toMatchObject({ status: 400, code: "VALIDATION_FAILED", details: [{ field: "date", rule: "isoDate" }] });

    expect((await partner.rest.get(`${flow()}?startDate=2026-13-01`)).body).toMatchObject({ status: 403 });
    expect((await buyer.rest.get(`/booking-flow/v1/products/999999999/availabilities?startDate=2026-13-01`)).body).toMatchObject({ status: 404, code: "NOT_FOUND" });
    const range = await buyer.rest.get(`${flow()}?startDate=2026-13-01&endDate=tomorrow`);
    expect(range.body).toMatchObject({
      status: 400,
      code: "VALIDATION_FAILED",
      details: [
        { field: "startDate", rule: "isoDate" },
        { field: "endDate", rule: "isoDate" },
      ],
    });
    // Real dates pass, as they always did.
    expect((await buyer.rest.get(`${flow()}?startDate=2027-03-01&endDate=2027-03-31`)).status).toBe(200);
  });

  it("answers a currency that is none as one the flow does not take, after the booking scope, and a booking's as another currency than the flow's", async () => {
    const availability = await bookableAvailability(buyer.rest, product.productId, "2027-03-10", { time: "14:00", adults: 2 });
    const prices = `${flow()}/${availability.id}/prices`;
    expect((await partner.rest.get(`${prices}?currencyCode=eur`)).body).toMatchObject({ status: 403 });
    for (const code of ["eur", "EURO", "", "JPY"]) {
      const refused = await buyer.rest.get(`${prices}?currencyCode=${code}`);
      expect(refused.body, code).toMatchObject({ status: 400, code: "UNSUPPORTED_CURRENCY", details: [{ field: "currencyCode", rule: "acceptedCurrency" }] });
      expect((await buyer.rest.put(`${prices}?currencyCode=${code}`, [{ unitId: "adult", value: 2 }])).body.code, code).toBe("UNSUPPORTED_CURRENCY");
    }

    const resellerRef = newRef();
    const refused = await buyer.rest.post(`/booking-flow/v1/bookings?currencyCode=eur`, { availabilityId: availability.id, resellerRef });
    expect(refused.body).toMatchObject({ status: 400, code: "CURRENCY_CHANGE", errorCode: 9548 });
    expect(refused.body.message).not.toContain("XXX");
    const booked = await buyer.rest.post(`/booking-flow/v1/bookings?currencyCode=EUR`, { availabilityId: availability.id, resellerRef });
    expect(booked.status).toBe(201);
    // The same request again answers its booking, whatever the currency parameter says, as before.
    const again = await buyer.rest.post(`/booking-flow/v1/bookings?currencyCode=eur`, { availabilityId: availability.id, resellerRef });
    expect(again.body.id).toBe(booked.body.id);
    // An empty parameter checks nothing.
    expect((await buyer.rest.post(`/booking-flow/v1/bookings?currencyCode=`, { availabilityId: availability.id, resellerRef })).body.id).toBe(booked.body.id);
  });

  it("answers an import's country or language that is none after the caller's role, its organisation and the page size", async () => {
    const importPath = (query: string) => `/content/v0/import/activities/active?page[limit]=5${query}`;
    // A token without catalogue:read may read no catalogue, whatever it asks for.
    const manager = await contentPartner(t.stack, { scope: "catalogue:manage" });
    expect((await manager.rest.get(importPath("&countryCodeList=XX"))).body).toMatchObject({ status: 403 });
    const operator = restClient(t.stack, await t.stack.tokenFor("OPERATOR"));
    expect((await operator.get(importPath("&countryCodeList=XX"))).body.code).toBe("ORGANISATION_REQUIRED");
    expect((await buyer.rest.get("/content/v0/import/activities/active?page[limit]=0&countryCodeList=XX")).body.code).toBe("PAGE_SIZE_TOO_SMALL");
    for (const [query, code, field] of [
      ["&countryCodeList=FR,xx", "INVALID_COUNTRY", "countryCodeList"],
      ["&countryCodeList=FRA", "INVALID_COUNTRY", "countryCodeList"],
      ["&languageList=de,english", "INVALID_LANGUAGE", "languageList"],
    ]) {
      const refused = await buyer.rest.get(importPath(query));
      expect(refused.body, query).toMatchObject({ status: 400, code, details: [{ field }] });
    }
    const inactive = await buyer.rest.get(`/content/v0/import/activities/inactive?modifiedSince=${new Date().toISOString()}&countryCodeList=XX`);
    expect(inactive.body).toMatchObject({ status: 400, code: "INVALID_COUNTRY", details: [{ field: "countryCodeList" }] });
    // Codes that are codes pass.
    expect((await buyer.rest.get(importPath("&countryCodeList=FR,CH&languageList=de,en"))).status).toBe(200);
  });

  it("are input errors in the graph, naming the variable, while a well-formed code the step does not take stays its refusal", async () => {
    const gql = (query: string, variables: Record<string, unknown>) => graphql(`${t.stack.url}/graphql`, buyer.token, query, variables);
    const availability = await bookableAvailability(buyer.rest, product.productId, "2027-03-11", { time: "14:00", adults: 2 });
    const price = `mutation ($input: PriceAvailabilityInput!) { priceAvailability(input: $input) { availability { id } userErrors { code field } } }`;
    const input = (currencyCode: string) => ({ input: { availabilityId: toGlobalId("Availability", availability.id), currencyCode } });
    const malformed = await gql(price, input("eur"));
    expect(malformed.body.errors![0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [expect.objectContaining({ field: "$input.currencyCode" })] });
    expect((await gql(price, input("JPY"))).body.data!.priceAvailability.userErrors).toEqual([{ code: "UNSUPPORTED_CURRENCY", field: ["input", "currencyCode"] }]);
    expect((await gql(price, input("EUR"))).body.data!.priceAvailability.userErrors).toEqual([]);

    const imports = `query ($filter: ActiveActivityFilter) { activeActivities(first: 1, filter: $filter) { totalCount { count } } }`;
    for (const [filter, field] of [
      [{ countryCodes: ["FR", "xx"] }, "$filter.countryCodes[1]"],
      [{ languages: ["english"] }, "$filter.languages[0]"],
    ] as const) {
      const refused = await gql(imports, { filter });
      expect(refused.body.errors![0].extensions, field).toMatchObject({ code: "BAD_USER_INPUT", problems: [expect.objectContaining({ field })] });
    }
    expect((await gql(imports, { filter: { countryCodes: ["FR"], languages: ["de"] } })).body.errors).toBeUndefined();
  });
});
