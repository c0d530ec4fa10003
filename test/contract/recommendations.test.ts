import { beforeAll, describe, expect, it } from "vitest";
import { contentPartner, productRequest, restClient, supplierRequest, type RestClient } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;
const paris = { latitude: 48.8566, longitude: 2.3522 };
const weekdays = { monday: { open: true, hours: null }, tuesday: { open: true, hours: null }, wednesday: { open: true, hours: null }, thursday: { open: true, hours: null }, friday: { open: true, hours: null }, saturday: { open: false, hours: null }, sunday: { open: false, hours: null } };

/** Recommendations v2 (path 27) and top activities (path 28): every filter is shown to exclude what it should. */
describe("recommendations", () => {
  const t = useStack();
  let partner: Partner;
  let consumer: RestClient;
  let ids: Record<string, number>;

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    const supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const add = async (key: string, overrides: Record<string, unknown>) =>
      [key, (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ availabilityPeriods: null, bookingUrl: null, ...overrides }))).body.id] as const;
    const cat = (l1: string, l2: string) => [{ level: 1, code: l1 }, { level: 2, code: l2 }];
    ids = Object.fromEntries([
      await add("montmartre", { title: { en: "Montmartre walking tour" }, countryCode: "FR", cityName: "Paris", geoLocation: paris, categories: cat("tours", "walking-tours"), rating: 4.8, numberOfRatings: 900, minPrice: 20, maxPrice: 20, priceCurrency: "EUR", duration: "PT2H", pricingUnit: "PER_PERSON", availabilityPeriods: { weeklyPeriods: [{ startDate: "2027-01-01", endDate: "2027-12-31", ...weekdays }] } }),
      await add("paragliding", { title: { en: "Paragliding over the Seine" }, countryCode: "FR", cityName: "Paris", geoLocation: { latitude: 48.86, longitude: 2.36 }, categories: cat("outdoor", "paragliding"), rating: 4.9, minPrice: 150, maxPrice: 150, priceCurrency: "EUR", duration: "PT2H" }),
      await add("versailles", { title: { en: "Versailles palace and gardens" }, description: { en: "The palace of the Sun King." }, countryCode: "FR", cityName: "Versailles", geoLocation: { latitude: 48.8049, longitude: 2.1204 }, categories: cat("culture", "historical-sites"), rating: 4.5, minPrice: 25, maxPrice: 25, priceCurrency: "EUR", duration: "PT4H" }),
      await add("glacier", { title: { en: "Glacier hike" }, countryCode: "CH", cityName: "Zermatt", categories: cat("outdoor", "hiking"), rating: 4.6, minPrice: 120, maxPrice: 120, priceCurrency: "CHF", duration: "PT7H" }),
      await add("barcrawl", { title: { en: "Latin quarter bar crawl" }, countryCode: "FR", cityName: "Paris", geoLocation: paris, categories: cat("shows-events", "nightlife"), rating: 4.2, minPrice: 30, maxPrice: 30, priceCurrency: "EUR", duration: "PT4H" }),
      await add("treasure", { title: { en: "Family treasure hunt" }, countryCode: "FR", cityName: "Paris", geoLocation: paris, categories: cat("family", "kids-activities"), rating: 4.4, minPrice: 60, maxPrice: 60, priceCurrency: "EUR", pricingUnit: "FAMILY", duration: "PT2H" }),
      await add("latin", { title: { en: "Latin quarter walking tour" }, countryCode: "FR", cityName: "Paris", geoLocation: paris, categories: cat("tours", "walking-tours"), rating: 3.0, numberOfRatings: 5, minPrice: 18, maxPrice: 18, priceCurrency: "EUR", duration: "PT2H" }),
      await add("marais", { title: { en: "Marais walking tour" }, countryCode: "FR", cityName: "Paris", geoLocation: paris, categories: cat("tours", "walking-tours"), rating: 4.0, minPrice: 22, maxPrice: 22, priceCurrency: "EUR", duration: "PT2H" }),
      await add("bistro", { title: { en: "Bistro dinner" }, countryCode: "FR", cityName: "Paris", geoLocation: paris, categories: cat("food-drink", "restaurants"), rating: 4.7, minPrice: null, maxPrice: null, averagePrice: 80, priceCurrency: "EUR", duration: "PT2H" }),
    ]);
    consumer = restClient(t.stack, await t.stack.tokenFor("CONSUMER"));
  });

  const recommend = (body: Record<string, unknown>, query = "") =>
    consumer.post(`/recommendation/v2/activities?page[limit]=100${query}`, { ...body, bookingEngines: { include: [partner.engineName], ...((body.bookingEngines as object) ?? {}) } });
  const keys = (response: { body: { data: { id: number }[] } }) =>
    response.body.data.map((item) => Object.entries(ids).find(([, id]) => id === item.id)?.[0]).sort();
  const all = Object.keys({ montmartre: 1, paragliding: 1, versailles: 1, glacier: 1, barcrawl: 1, treasure: 1, latin: 1, marais: 1, bistro: 1 }).sort();
  const without = (...excluded: string[]) => all.filter((key) => !excluded.includes(key));

  it.each([
    ["no filter", {}, all],
    ["countryCode FR", { location: { type: "countryCode", value: ["FR"] } }, without("glacier")],
    ["continentCode EU", { location: { type: "continentCode", value: ["EU"] } }, all],
    ["continentCode AS", { location: { type: "continentCode", value: ["AS"] } }, []],
    ["cityName paris", { location: { type: "cityName", value: ["paris"] } }, without("glacier", "versailles")],
    ["geoPoint within 10 km of Paris", { location: { type: "geoPoint", value: paris, radius: 10 } }, without("glacier", "versailles")],
    ["geoPoint within 30 km of Paris", { location: { type: "geoPoint", value: paris, radius: 30 } }, without("glacier")],
    ["iataCode CDG within 30 km", { location: { type: "iataCode", value: ["CDG"], radius: 30 } }, without("glacier", "versailles")],
    ["categories walking tours", { categories: ["activities-tours-walking-tours"] }, ["latin", "marais", "montmartre"]],
    ["categories of level 1", { categories: ["activities-outdoor-activities"] }, ["glacier", "paragliding"]],
    ["interests", { interests: ["palace"] }, ["versailles"]],
    ["price at most 25 EUR", { maxPrice: 25 }, ["latin", "marais", "montmartre", "versailles"]],
    ["price from 100 EUR", { minPrice: 100 }, ["glacier", "paragliding"]],
    ["price at most 130 USD (the CHF 120 hike is about 136 USD)", { maxPrice: 130, minPrice: 100, currencyCode: "USD" }, []],
    ["price at most 120 CHF", { maxPrice: 120, minPrice: 100, currencyCode: "CHF" }, ["glacier"]],
    ["activityContext Business", { activityContext: "Business" }, without("glacier", "barcrawl", "treasure")],
    ["activityContext Leisure", { activityContext: "Leisure" }, all],
    ["groupType Family", { groupType: "Family" }, without("barcrawl")],
    ["groupType Solo", { groupType: "Solo" }, without("treasure")],
    ["risk Safe", { risk: "Safe" }, without("paragliding")],
    ["risk Moderate", { risk: "Moderate" }, without("paragliding")],
    ["risk Dangerous", { risk: "Dangerous" }, all],
    ["travelDate on a Saturday", { travelDate: "2027-05-08" }, without("montmartre")],
    ["travelDate on a Monday", { travelDate: "2027-05-10" }, all],
  ])("%s", async (_name, body, expected) => {
    const response = await recommend(typeof body === "function" ? body : body);
    expect(response.status).toBe(200);
    expect(keys(response)).toEqual(expected);
  });

  it("excludes by engine (named after setup)", async () => {
    expect(keys(await recommend({ bookingEngines: { exclude: [partner.engineName] } }))).toEqual([]);
    expect(keys(await recommend({ bookingEngines: { include: ["NO_SUCH_ENGINE"] } }))).toEqual([]);
  });

  it("limits each subcategory with varietyLevel", async () => {
    const high = await recommend({ varietyLevel: "High" });
    expect(keys(high).filter((k) => ["latin", "marais", "montmartre"].includes(k!))).toHaveLength(2);
    expect(keys(await recommend({ varietyLevel: "Medium" })).filter((k) => ["latin", "marais", "montmartre"].includes(k!))).toHaveLength(3);
  });

  it("ranks by a deterministic relevanceScore, and sorts and pages on request", async () => {
    const first = await recommend({ location: { type: "geoPoint", value: paris, radius: 30 }, interests: ["walking"] });
    const again = await recommend({ location: { type: "geoPoint", value: paris, radius: 30 }, interests: ["walking"] });
    expect(again.body.data.map((i: { relevanceScore: number }) => i.relevanceScore)).toEqual(first.body.data.map((i: { relevanceScore: number }) => i.relevanceScore));
    const scores = first.body.data.map((i: { relevanceScore: number }) => i.relevanceScore);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    expect(scores.every((s: number) => s > 0 && s <= 1)).toBe(true);
    expect(first.body.data[0].id).toBe(ids.montmartre);
    const byPrice = await recommend({}, "&page[sort]=%2Bprice");
    expect(byPrice.body.data.slice(0, 3).map((i: { id: number }) => i.id)).toEqual([ids.latin, ids.montmartre, ids.marais]);
    const byRating = await recommend({}, "&page[sort]=-rating");
    expect(byRating.body.data[0].id).toBe(ids.paragliding);
    const page = await consumer.post("/recommendation/v2/activities?page[sort]=-rating&page[offset]=1&page[limit]=2", { bookingEngines: { include: [partner.engineName] } });
    expect(page.body.data.map((i: { id: number }) => i.id)).toEqual(byRating.body.data.slice(1, 3).map((i: { id: number }) => i.id));
  });

  it("returns records with relevanceScore, aiGenerated, placeDetail, and prices in the asked currency", async () => {
    const response = await recommend({ categories: ["activities-culture-and-history-historical-sites"], currencyCode: "GBP" });
    const [item] = response.body.data;
    expect(item).toMatchObject({ id: ids.versailles, title: "Versailles palace and gardens", relevanceScore: expect.any(Number), aiGenerated: { translation: false }, priceCurrency: "GBP", minPrice: 21.25 });
    // Extension: the rates the prices were converted at (the bundled ones here: no rates file is configured).
    expect(item.exchangeRates).toEqual({ date: "2026-11-20", source: "bundled reference rates" });
    expect(item.placeDetail).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), geometry: { location: { lat: 48.8049, lng: 2.1204 } } });
  });

  it("answers the GET form with the same filters", async () => {
    const response = await consumer.get(`/recommendation/v2/activities?locationType=geoPoint&locationValue=48.8566,2.3522&radius=10&risk=Safe&bookingEnginesInclude=${partner.engineName}&page[limit]=100`);
    expect(response.status).toBe(200);
    expect(keys(response)).toEqual(without("glacier", "versailles", "paragliding"));
  });

  it.each([
    [{ location: { type: "planet", value: ["Mars"] } }, "location.type"],
    [{ location: { type: "iataCode", value: ["ZZZ"] } }, "location.value"],
    [{ location: { type: "cityName", value: ["Paris", "Lyon"] } }, "location.value"],
    [{ location: { type: "geoPoint", value: { latitude: 95, longitude: 0 } } }, "location.value"],
    [{ location: { type: "geoPoint", value: paris, radius: 0 } }, "location.radius"],
    [{ location: { type: "countryCode", value: ["FR"] }, travelDate: "2027-05-08" }, "travelDate"],
    [{ categories: ["activities-space-travel"] }, "categories[0]"],
    [{ minPrice: 50, maxPrice: 10 }, "maxPrice"],
    [{ currencyCode: "XAU" }, "currencyCode"],
    [{ risk: "Extreme" }, "risk"],
  ])("answers 400 for %j naming %s", async (body, field) => {
    const response = await recommend(body);
    expect(response.status).toBe(400);
    // Enumerations are caught by the route schema (VALIDATION_FAILED), the other rules by the subgraph.
    expect(["INVALID_RECOMMENDATION_REQUEST", "VALIDATION_FAILED"]).toContain(response.body.code);
    expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("answers 400 for bad paging and unknown body fields, 401 without a token", async () => {
    expect((await recommend({}, "&page[sort]=popularity")).status).toBe(400);
    expect((await consumer.post("/recommendation/v2/activities?page[limit]=0", {})).status).toBe(400);
    expect((await consumer.post("/recommendation/v2/activities", { colour: "red" })).status).toBe(400);
    // Inside bookingEngines too (found by the input fuzz: it answered 500).
    const nested = await consumer.post("/recommendation/v2/activities", { bookingEngines: { include: [], hasOwnProperty: "x" } });
    expect(nested).toMatchObject({ status: 400, body: { code: "VALIDATION_FAILED", details: [{ field: "bookingEngines.hasOwnProperty", rule: "additionalProperties" }] } });
    expect((await fetch(`${t.stack.url}/recommendation/v2/activities`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(401);
  });

  it("answers through GraphQL as a connection: ranked edges with their scores and display prices, paged both ways by position", async () => {
    const token = await t.stack.tokenFor("CONSUMER");
    const ask = (args: string, input: Record<string, unknown> = {}) =>
      graphql(
        `${t.stack.url}/graphql`,
        token,
        `query ($input: RecommendationInput) { recommendations(input: $input, ${args}) {
          totalCount { count precision } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
          edges { cursor relevanceScore displayMinPrice { amount currencyCode } exchangeRates { source } node { legacyResourceId } }
        } }`,
        { input: { bookingEngines: { include: [partner.engineName] }, ...input } },
      );
    const idsOf = (edges: { node: { legacyResourceId: number } }[]) => edges.map((edge) => edge.node.legacyResourceId);
    const top = (await ask("first: 2, orderBy: { field: RATING, direction: DESC }")).body.data!.recommendations;
    expect(idsOf(top.edges)).toEqual([ids.paragliding, ids.montmartre]);
    expect(top.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(top.totalCount).toEqual({ count: all.length, precision: "EXACT" });
    expect(top.edges[0].displayMinPrice).toBeNull();
    const next = (await ask(`first: 2, after: "${top.pageInfo.endCursor}", orderBy: { field: RATING, direction: DESC }`)).body.data!.recommendations;
    expect(next.pageInfo.hasPreviousPage).toBe(true);
    const back = (await ask(`last: 2, before: "${next.pageInfo.startCursor}", orderBy: { field: RATING, direction: DESC }`)).body.data!.recommendations;
    expect(idsOf(back.edges)).toEqual(idsOf(top.edges));
    // The ranking's length is known, so the last page needs no cursor.
    const last = (await ask("last: 1, orderBy: { field: RATING, direction: DESC }")).body.data!.recommendations;
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const rest = (await recommend({}, "&page[sort]=-rating")).body.data.map((item: { id: number }) => item.id);
    expect(idsOf(last.edges)).toEqual(rest.slice(-1));
    // Prices in a display currency are Money, with the rates they were converted at.
    const inDollars = (await ask("first: 1, orderBy: { field: PRICE, direction: ASC }", { currencyCode: "USD" })).body.data!.recommendations.edges[0];
    expect(inDollars.displayMinPrice).toMatchObject({ currencyCode: "USD", amount: expect.stringMatching(/^\d+\.\d{2}$/) });
    expect(inDollars.exchangeRates).toMatchObject({ source: expect.any(String) });
    const refused = await ask("first: 101");
    expect(refused.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: "first", rule: "range" }] });
  });

  it.each([
    ["countryCodes", { location: { countryCodes: ["FR"] } }, { location: { type: "countryCode", value: ["FR"] } }],
    ["continentCodes", { location: { continentCodes: ["AS"] } }, { location: { type: "continentCode", value: ["AS"] } }],
    ["cityName", { location: { cityName: "paris" } }, { location: { type: "cityName", value: ["paris"] } }],
    ["iataCode with a radius", { location: { iataCode: "CDG", radius: 30 } }, { location: { type: "iataCode", value: ["CDG"], radius: 30 } }],
    ["geoPoint with a radius", { location: { geoPoint: paris, radius: 10 } }, { location: { type: "geoPoint", value: paris, radius: 10 } }],
    ["the closed sets as enums", { activityContext: "BUSINESS", groupType: "FAMILY", risk: "SAFE", varietyLevel: "HIGH" }, { activityContext: "Business", groupType: "Family", risk: "Safe", varietyLevel: "High" }],
    ["a Date and a CurrencyCode", { travelDate: "2027-05-08", currencyCode: "CHF", maxPrice: 120, minPrice: 100 }, { travelDate: "2027-05-08", currencyCode: "CHF", maxPrice: 120, minPrice: 100 }],
  ])("takes a typed input through GraphQL: %s recommend what REST's body does", async (_name, input, body) => {
    const token = await t.stack.tokenFor("CONSUMER");
    const answer = await graphql(
      `${t.stack.url}/graphql`,
      token,
      "query ($input: RecommendationInput) { recommendations(input: $input, first: 100) { edges { node { legacyResourceId } } } }",
      { input: { bookingEngines: { include: [partner.engineName] }, ...input } },
    );
    expect(answer.body.errors).toBeUndefined();
    const viaGraph = answer.body.data!.recommendations.edges.map((edge: { node: { legacyResourceId: number } }) => edge.node.legacyResourceId);
    const viaRest = (await recommend(body)).body.data.map((item: { id: number }) => item.id);
    expect(viaGraph).toEqual(viaRest);
    // Each narrows the catalogue: equal answers are not both everything.
    expect(viaGraph.length).toBeLessThan(all.length);
  });

  it.each([
    ["two ways of saying where", { location: { countryCodes: ["FR"], cityName: "Paris" } }, [{ field: "location", rule: "exactlyOne" }]],
    ["no way of saying where", { location: { radius: 10 } }, [{ field: "location", rule: "exactlyOne" }]],
    ["a radius around a city", { location: { cityName: "Paris", radius: 10 } }, [{ field: "location.radius", rule: "notWithPlace" }]],
    ["an unknown airport", { location: { iataCode: "ZZZ" } }, [{ field: "location.iataCode", rule: "iata" }]],
    ["a point off the globe", { location: { geoPoint: { latitude: 95, longitude: 0 } } }, [{ field: "location.geoPoint", rule: "geoPoint" }]],
    ["a radius too wide and an unknown category", { location: { iataCode: "CDG", radius: 501 }, categories: ["activities-space-travel"] }, [{ field: "location.radius" }, { field: "categories[0]" }]],
    ["no country with a travel date", { location: { countryCodes: ["FR"] }, travelDate: "2027-05-08" }, [{ field: "travelDate", rule: "notWithCountryCode" }]],
    ["a currency with no rate", { currencyCode: "XAU" }, [{ field: "currencyCode", rule: "currency" }]],
  ])("refuses through GraphQL %s, naming the typed input's field", async (_name, input, problems) => {
    const token = await t.stack.tokenFor("CONSUMER");
    const answer = await graphql(`${t.stack.url}/graphql`, token, "query ($input: RecommendationInput) { recommendations(input: $input) { edges { cursor } } }", { input });
    expect(answer.body.data).toBeNull();
    expect(answer.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "INVALID_RECOMMENDATION_REQUEST", problems });
    expect(answer.body.errors?.[0].extensions?.problems).toHaveLength(problems.length);
  });

  it.each([
    ["a word of spec 3 for an enum", { risk: "Safe" }, "risk"],
    ["a continent that is not one", { location: { continentCodes: ["XX"] } }, "location.continentCodes"],
    ["a country code in lower case", { location: { countryCodes: ["fr"] } }, "location.countryCodes"],
    ["a currency that is no ISO 4217 code", { currencyCode: "EURO" }, "currencyCode"],
    ["a day that does not exist", { travelDate: "2027-02-30" }, "travelDate"],
    ["spec 3's location object", { location: { type: "countryCode", value: ["FR"] } }, "location"],
  ])("refuses through GraphQL %s before running anything", async (_name, input, field) => {
    const token = await t.stack.tokenFor("CONSUMER");
    const answer = await graphql(`${t.stack.url}/graphql`, token, "query ($input: RecommendationInput) { recommendations(input: $input) { edges { cursor } } }", { input });
    // The gateway knows an enum's values; a scalar's rule is the subgraph's, which refuses the field.
    expect(answer.body.data?.recommendations ?? null).toBeNull();
    expect(answer.body.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect((answer.body.errors?.[0].extensions?.problems as unknown[])[0]).toMatchObject({ field: expect.stringMatching(new RegExp(`^\\$input\\.${field}(\\[0\\])?$`)), rule: "type" });
  });

  it.each([
    ["a body", () => recommend({ location: { type: "iataCode", value: ["ZZZ"] }, minPrice: -1, categories: ["activities-space-travel", "activities-tours-walking-tours", "nope"] })],
    ["the GET form", () => consumer.get(`/recommendation/v2/activities?locationType=iataCode&locationValue=ZZZ&minPrice=-1&risk=Extreme&categories=activities-space-travel,activities-tours-walking-tours,nope`)],
  ])("names every fault of %s the graph cannot be sent, unknown categories last, as the service orders them", async (name, send) => {
    const response = await send();
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("INVALID_RECOMMENDATION_REQUEST");
    const fields = ["location.value", ...(name === "the GET form" ? ["risk"] : []), "minPrice", "categories[0]", "categories[2]"];
    expect(response.body.details.map((d: { field: string }) => d.field)).toEqual(fields);
    expect(response.body.message).toBe(response.body.details.map((d: { message: string }) => d.message).join("; "));
  });

  describe("GET /recommendation/v1/top-activities", () => {
    const rarotonga = { latitude: -21.2, longitude: -159.78 };
    let local: Record<string, number>;
    beforeAll(async () => {
      const supplierId = (await partner.rest.post("/api/supplier", supplierRequest({ country: "CK" }))).body.id;
      local = {};
      for (let i = 0; i < 12; i++) {
        const restaurant = i === 0;
        const response = await partner.rest.post(
          `/api/supplier/${supplierId}/product`,
          productRequest({
            title: { en: restaurant ? "Lagoon restaurant" : `Lagoon activity ${i}` },
            countryCode: "CK",
            cityName: `Avarua-${partner.engineName}`,
            geoLocation: { latitude: rarotonga.latitude + i * 0.001, longitude: rarotonga.longitude },
            categories: restaurant ? [{ level: 1, code: "food-drink" }, { level: 2, code: "restaurants" }] : [{ level: 1, code: "water" }, { level: 2, code: "boat-tours" }],
            rating: restaurant ? 5 : 3 + i * 0.1,
            availabilityPeriods: null,
          }),
        );
        local[restaurant ? "restaurant" : `a${i}`] = response.body.id;
      }
    });

    it("gives at most 10 activities near the airport, restaurants excluded, best first", async () => {
      const response = await consumer.get("/recommendation/v1/top-activities?iataCode=RAR");
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(10);
      expect(response.body.map((r: { id: number }) => r.id)).not.toContain(local.restaurant);
      const scores = response.body.map((r: { relevanceScore: number }) => r.relevanceScore);
      expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
      expect((await consumer.get("/recommendation/v1/top-activities?iataCode=RAR&maxRecommendations=3")).body).toHaveLength(3);
    });

    it("answers through GraphQL with the arguments a client leaves out, as REST does with its parameters", async () => {
      const token = await t.stack.tokenFor("CONSUMER");
      const near = await graphql(`${t.stack.url}/graphql`, token, `{ topActivities(iataCode: "RAR", first: 3) { edges { relevanceScore node { legacyResourceId } } } }`);
      expect(near.body.errors).toBeUndefined();
      const rest = (await consumer.get("/recommendation/v1/top-activities?iataCode=RAR&maxRecommendations=3")).body.map((r: { id: number }) => r.id);
      expect(near.body.data!.topActivities.edges.map((r: { node: { legacyResourceId: number } }) => r.node.legacyResourceId)).toEqual(rest);
      const city = await graphql(`${t.stack.url}/graphql`, token, `query ($city: String) { topActivities(cityName: $city, first: 2) { nodes { id } } }`, { city: `Avarua-${partner.engineName}` });
      expect(city.body.data!.topActivities.nodes).toHaveLength(2);
      // Ten unless asked, and never more a page.
      const unsized = await graphql(`${t.stack.url}/graphql`, token, `{ topActivities(iataCode: "RAR") { nodes { id } } }`);
      expect(unsized.body.data!.topActivities.nodes).toHaveLength(10);
      const tooMany = await graphql(`${t.stack.url}/graphql`, token, `{ topActivities(iataCode: "RAR", first: 11) { nodes { id } } }`);
      expect(tooMany.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: "first", rule: "range" }] });
      // One of the pair alone is still refused, left out or given as null.
      const half = await graphql(`${t.stack.url}/graphql`, token, `{ topActivities(iataCode: "RAR", lat: 10, lon: null) { nodes { id } } }`);
      expect(half.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: "lat", rule: "pair" }] });
    });

    it("uses the city when there is no airport code, and lets iataCode win over it", async () => {
      const city = await consumer.get(`/recommendation/v1/top-activities?cityName=Avarua-${partner.engineName}&maxRecommendations=10`);
      expect(city.body).toHaveLength(10);
      const both = await consumer.get(`/recommendation/v1/top-activities?cityName=Nowhere&iataCode=RAR&maxRecommendations=2`);
      expect(both.body).toHaveLength(2);
      const farAway = await consumer.get("/recommendation/v1/top-activities?iataCode=RAR&lat=0&lon=0&radius=5");
      expect(farAway.body).toEqual([]);
    });

    it.each([
      ["", "iataCode"],
      ["?iataCode=RAR&maxRecommendations=11", "maxRecommendations"],
      ["?iataCode=RAR&maxRecommendations=0", "maxRecommendations"],
      ["?iataCode=RAR&lat=10", "lat"],
      ["?iataCode=QQQ", "location.value"],
      ["?iataCode=RAR&radius=0", "location.radius"],
    ])("answers 400 for %j", async (query, field) => {
      const response = await consumer.get(`/recommendation/v1/top-activities${query}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("INVALID_PARAMETER");
      expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
    });
  });
});
