import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { contentPartner, productRequest, restClient, signIn, supplierRequest, type RestClient } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

/**
 * Issue 41, item 5: full-text criteria PostgreSQL's tsquery parser could not read (more than 32
 * `-` in a row: "tsquery stack too small") failed their statement and answered 500, on search,
 * change detection and recommendations, REST and GraphQL alike. What cannot be searched for is now
 * refused before any SQL runs, naming the parameter; what callers ordinarily type still finds
 * what it found.
 */
describe("full-text criteria", () => {
  const logLines: string[] = [];
  const t = useStack({ logLines });
  let partner: Awaited<ReturnType<typeof contentPartner>>;
  let consumer: RestClient;
  let token: string;
  let ids: Record<string, number>;

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    const supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    const push = async (key: string, title: string, description: string) =>
      [key, (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ title: { en: title }, description: { en: description }, countryCode: "FR", cityName: "Paris" }))).body.id] as const;
    ids = Object.fromEntries([
      await push("wine", "Wine-tasting in the Marais", "Six wines of the Loire."),
      await push("louvre", "Louvre museum skip-the-line ticket", "Mona Lisa and the crown jewels."),
      await push("cruise", "Seine dinner cruise", "Dinner on the river."),
      await push("orsay", "Orsay museum guided tour", "Impressionists with a guide."),
    ]);
    const account = await t.stack.createAccount("CONSUMER", { country: "FR" });
    token = await signIn(t.stack, account.username, account.password);
    consumer = restClient(t.stack, token);
  }, 60_000);

  const mine = (expression: string) => `(${expression}) AND bookingEngine:${partner.engineName}`;
  const found = (body: { items: { id: number }[] }) => body.items.map((item) => Object.entries(ids).find(([, id]) => id === item.id)?.[0]).sort();
  const searchProducts = (search: string) => graphql(`${t.stack.url}/graphql`, token, `query ($s: String!) { searchProducts(query: $s) { totalCount { count } } }`, { s: search });
  const errorLines = () => logLines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level >= 50);

  const DASHES = "-".repeat(33);
  describe("refused with 400 naming Search, before the SQL runs", () => {
    it.each([
      [`title:"${DASHES}"`, "one '-'", 7],
      [`text:${"-".repeat(60)}`, "one '-'", 6],
      [`description:${DASHES}museum`, "one '-'", 13],
      [`title:~${DASHES}`, "one '-'", 8],
      [`text:"${Array.from({ length: 33 }, (_, i) => `w${i}`).join(" ")}"`, "at most 32 words", 6],
      ['title:"!!! && ||"', "no word to search for", 7],
    ])("%s", async (criterion, message, character) => {
      const before = errorLines().length;
      for (const path of ["/api/consumer/products", "/api/consumer/diff/products"]) {
        const answer = await consumer.get(`${path}?Search=${encodeURIComponent(criterion)}`);
        expect(answer.status, JSON.stringify(answer.body)).toBe(400);
        expect(answer.body).toMatchObject({ status: 400, code: "INVALID_SEARCH", details: [{ field: "Search" }] });
        expect(answer.body.message).toContain(message);
        expect(answer.body.message).toContain(`(at character ${character})`);
      }
      const gql = await searchProducts(criterion);
      expect(gql.body.data ?? null).toBeNull();
      expect(gql.body.errors![0].extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "INVALID_SEARCH", problems: [{ field: "query" }] });
      expect(gql.body.errors![0].message).toContain(message);
      // An expected refusal: nothing at error level, no failed statement.
      expect(errorLines().slice(before)).toEqual([]);
    });
  });

  describe("recommendation interests", () => {
    const interest = "-".repeat(40);

    it("refuses the GET and POST forms with 400 naming interests[i]", async () => {
      const get = await consumer.get(`/recommendation/v2/activities?interests=${encodeURIComponent(`museum,${interest}`)}`);
      expect(get.status, JSON.stringify(get.body)).toBe(400);
      expect(get.body).toMatchObject({ code: "INVALID_RECOMMENDATION_REQUEST", details: [{ field: "interests[1]", rule: "fullText" }] });
      const post = await consumer.post("/recommendation/v2/activities", { interests: [interest] });
      expect(post.status, JSON.stringify(post.body)).toBe(400);
      expect(post.body).toMatchObject({ code: "INVALID_RECOMMENDATION_REQUEST", details: [{ field: "interests[0]", rule: "fullText" }] });
      expect(post.body.message).toContain("one '-'");
    });

    it("refuses the GraphQL query with BAD_USER_INPUT naming interests[i]", async () => {
      const gql = await graphql(`${t.stack.url}/graphql`, token, `query ($i: [String!]) { recommendations(input: { interests: $i }) { edges { relevanceScore } } }`, { i: [interest] });
      expect(gql.body.data ?? null).toBeNull();
      expect(gql.body.errors![0].extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "INVALID_RECOMMENDATION_REQUEST", problems: [{ field: "interests[0]" }] });
    });

    it("still matches ordinary interests, hyphenated and quoted", async () => {
      const answer = await consumer.post("/recommendation/v2/activities?page[limit]=100", { interests: ["wine-tasting", '"dinner cruise"'], bookingEngines: { include: [partner.engineName] } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const keys = answer.body.data.map((item: { id: number }) => Object.entries(ids).find(([, id]) => id === item.id)?.[0]);
      expect(keys.slice(0, 2).sort()).toEqual(["cruise", "wine"]);
    });
  });

  describe("what callers ordinarily type still finds what it found", () => {
    it.each([
      ["title:wine-tasting", ["wine"]],
      ["text:wine-tasting", ["wine"]],
      ['title:"\\"dinner cruise\\""', ["cruise"]],
      ['title:"\\"cruise dinner\\""', []],
      ['text:"museum -orsay"', ["louvre"]],
      ['title:"louvre or orsay"', ["louvre", "orsay"]],
      ["title:museum", ["louvre", "orsay"]],
      ["title:~musuem", ["louvre", "orsay"]],
      ["title:^louvre", ["louvre"]],
      ["description:-impressionists", ["cruise", "louvre", "wine"]],
      ["text:mona", ["louvre"]],
      ['title:"skip-the-line"', ["louvre"]],
    ])("%s finds %j", async (criterion, expected) => {
      const answer = await consumer.get(`/api/consumer/products?Search=${encodeURIComponent(mine(criterion))}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(found(answer.body)).toEqual(expected);
    });
  });

  describe("generated criteria", () => {
    const FIELDS = ["title", "description", "text", "cityName", "supplierExternalId", "externalId", "taxonomy", "countryCode", "bookingEngine", "rating", "minPrice", "numberOfRatings", "priceLevel"];
    const piece = fc.oneof(
      fc.constantFrom("-", "--", "-".repeat(33), '\\"', "!", "&", "|", ":*", "(", ")", "<->", "<2>", "~", "^", "or", "OR", "and", " ", "  ", "'", "\\", "%", "_", "*"),
      fc.constantFrom("museum", "wine-tasting", "louvre", "Zürich", "château", "日本", "🙂", "1e20", "-1e400", "99999999999999999999", "NaN", "0x10", "é".repeat(1100)),
      fc.string({ unit: "grapheme-ascii", maxLength: 8 }),
    );
    const value = fc.array(piece, { minLength: 1, maxLength: 40 }).map((pieces) => pieces.join(""));
    const criterion = fc.record({ field: fc.constantFrom(...FIELDS), operator: fc.constantFrom("", "", "^", "~", "<", ">"), value, quoted: fc.boolean() }).map(({ field, operator, value, quoted }) => `${field}:${operator}${quoted ? `"${value.replace(/["\\]/g, "\\$&")}"` : value.replace(/[\s()":]/g, "")}`);
    const expression = fc.array(criterion, { minLength: 1, maxLength: 4 }).chain((criteria) => fc.constantFrom(" AND ", " OR ").map((joiner) => criteria.join(joiner)));

    it("never answers 500 on REST or GraphQL: a page, or 400 INVALID_SEARCH saying what is wrong", async () => {
      await fc.assert(
        fc.asyncProperty(expression, async (search) => {
          const rest = await consumer.get(`/api/consumer/products?resultsPerPage=5&Search=${encodeURIComponent(mine(search))}`);
          expect(rest.status, `${search}: ${JSON.stringify(rest.body)}`).toBeLessThan(500);
          if (rest.status === 200) expect(Array.isArray(rest.body.items)).toBe(true);
          // A request line over 16 KiB is refused as such before any route runs.
          else expect(["INVALID_SEARCH", "VALIDATION_FAILED", "REQUEST_HEADER_FIELDS_TOO_LARGE"]).toContain(rest.body.code);
          const gql = await searchProducts(mine(search));
          expect(gql.status, `${search}: ${JSON.stringify(gql.body)}`).toBeLessThan(500);
          const code = gql.body.errors?.[0]?.extensions?.code;
          if (code !== undefined) expect(code, `${search}: ${JSON.stringify(gql.body)}`).toBe("BAD_USER_INPUT");
        }),
        { numRuns: 120 },
      );
      expect(errorLines()).toEqual([]);
    }, 240_000);

    it("never answers 500 for generated recommendation interests", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 3 }), async (interests) => {
          const answer = await consumer.post("/recommendation/v2/activities?page[limit]=5", { interests, bookingEngines: { include: [partner.engineName] } });
          expect(answer.status, `${JSON.stringify(interests)}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
          if (answer.status !== 200) expect(["INVALID_RECOMMENDATION_REQUEST", "VALIDATION_FAILED"]).toContain(answer.body.code);
        }),
        { numRuns: 80 },
      );
      expect(errorLines()).toEqual([]);
    }, 240_000);
  });
});
