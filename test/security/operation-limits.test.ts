import { toGlobalId } from "../../core/global-id.js";
import { sql } from "drizzle-orm";
import { getIntrospectionQuery, getNamedType, getNullableType, isCompositeType, isListType, isObjectType, parse, specifiedRules, validate } from "graphql";
import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rows, type Database } from "../../drizzle/database.js";
import {
  checkOperationCost,
  estimateOperation,
  LIST_SIZES,
  limitValidationRules,
  OPERATION_LIMITS,
  PAGE_SIZE_ARGUMENTS,
  PAGE_SIZE_MAXIMA,
  RECORD_WEIGHTS,
  ROOT_FIELD_COSTS,
  SEARCH_CRITERION_COSTS,
} from "../../gateway/operation-limits.js";
import { restRoutes } from "../../rest-compat/routes/index.js";
import { bookableProduct } from "../support/booking.js";
import { sampleVariables } from "../support/operation-variables.js";
import { graphql, startStack, type Stack } from "../support/stack.js";
import { wsClient, wsOutcome } from "../support/ws-client.js";

/**
 * Hostile operations are refused before any work is done, over HTTP and graphql-ws, and every
 * operation the REST layer runs itself fits the same limits at its largest page.
 */
describe("operation limits", () => {
  const statements: string[] = [];
  let database: Database;
  let stack: Stack;
  let partnerToken: string;
  let consumerToken: string;
  let productId: number;
  const productGlobalId = () => toGlobalId("Product", productId);
  let engineName: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: "memory", onQuery: (query) => statements.push(query) });
    stack = await startStack({ database, env: { WORKER_LOOPS: "false" } });
    const product = await bookableProduct(stack);
    productId = product.productId;
    engineName = product.partner.engineName;
    partnerToken = product.partner.token;
    consumerToken = await stack.tokenFor("CONSUMER");
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await stack?.close();
    await database?.close();
  });

  /** Posts the operation and returns its answer with the SQL statements it ran. */
  const run = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
    statements.length = 0;
    const response = await graphql(`${stack.url}/graphql`, token, query, variables);
    // The account's limits are the edge's bookkeeping (its reports every 200 ms), not the operation's work.
    return { ...response, statements: statements.filter((statement) => !statement.includes('"account_limits"')).length };
  };
  const apiSchema = () => stack.service.edge!.graph.apiSchema;

  /** product → supplier → products (a page of 100) → supplier → …, `turns` times round. */
  const cycle = (turns: number) => {
    let selection = "id";
    for (let turn = 0; turn < turns; turn++) selection = `supplier { products(first: 100) { nodes { ${selection} } } }`;
    return `query ($id: ID!) { product(id: $id) { ${selection} } }`;
  };

  describe("over HTTP", () => {
    it("refuses the cyclic walk of the graph by its cost, running no SQL", async () => {
      const refused = await run(partnerToken, cycle(3), { id: productGlobalId() });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([expect.objectContaining({ extensions: { code: "GRAPHQL_VALIDATION_FAILED", reason: "COST_LIMIT_EXCEEDED" } })]);
      expect(refused.body.errors![0].message).toMatch(/estimated cost is \d+; the limit is 300000/);
      expect(refused.statements).toBe(0);
      // One turn is an ordinary question and is answered.
      const allowed = await run(partnerToken, cycle(1), { id: productGlobalId() });
      expect(allowed.body.errors).toBeUndefined();
      expect(allowed.body.data!.product.supplier.products.nodes).toContainEqual({ id: productGlobalId() });
    });

    it("counts a page size given by a variable, not only a literal", async () => {
      const query = `query ($size: Int!) { searchProducts(query: "", first: $size) { nodes { supplier { products(first: 1000) { nodes { id title { text } } } } } } }`;
      const refused = await run(consumerToken, query, { size: 1000 });
      expect(refused.body.errors?.[0].extensions).toMatchObject({ reason: "COST_LIMIT_EXCEEDED" });
      expect(refused.statements).toBe(0);
    });

    it("charges each root field once per alias, and full-text and typo-tolerant Search criteria on top", async () => {
      const estimate = (query: string, variables: Record<string, unknown> = {}) => estimateOperation(apiSchema(), parse(query), variables, undefined);
      const search = (expression: string, aliases = 1) =>
        estimate(`{ ${Array.from({ length: aliases }, (_, i) => `a${i}: searchProducts(query: ${JSON.stringify(expression)}, first: 20) { nodes { id } }`).join(" ")} }`);
      const plain = search("countryCode:FR");
      expect(plain.total - plain.values).toBe(ROOT_FIELD_COSTS["Query.searchProducts"]);
      expect(ROOT_FIELD_COSTS["Query.searchProducts"]).toBeGreaterThan(0);
      // Each alias is another run of the field: its fixed cost counts again.
      expect(search("countryCode:FR", 3).total).toBe(3 * plain.total);
      const me = estimate("{ a: me { id } b: me { id } }");
      expect(me.total - me.values).toBe(2 * ROOT_FIELD_COSTS["Query.me"]);
      // The heavy search: three typo-tolerant criteria over text, title and city.
      const fuzzy = search("text:~museum AND title:~tour AND cityName:~paris");
      expect(fuzzy.values).toBe(plain.values);
      expect(fuzzy.total).toBe(plain.total + 3 * SEARCH_CRITERION_COSTS.fuzzy);
      const fullText = search("title:museum AND countryCode:FR");
      expect(fullText.total).toBe(plain.total + SEARCH_CRITERION_COSTS.fullText);
      expect(SEARCH_CRITERION_COSTS.fuzzy).toBeGreaterThanOrEqual(SEARCH_CRITERION_COSTS.fullText);
      expect(SEARCH_CRITERION_COSTS.fullText).toBeGreaterThan(0);
      // An expression that does not parse is refused by the field before any SQL: it adds nothing.
      expect(search("title:").total).toBe(plain.total);

      // The same document, its expression given by a variable: each request is estimated by its own.
      const query = `query ($search: String!) { searchProducts(query: $search, first: 20) { nodes { id } } }`;
      const document = parse(query);
      const cost = (expression: string) => checkOperationCost("edge", apiSchema(), document, { search: expression }, undefined);
      expect([cost("countryCode:FR"), cost("text:~museum AND title:~tour AND cityName:~paris"), cost("countryCode:FR")]).toEqual([plain.total, fuzzy.total, plain.total]);
    });

    it("estimates each request by its own page sizes and directives, though the document was seen before", async () => {
      const query = `query ($search: String!, $size: Int!, $deep: Boolean!) { searchProducts(query: $search, first: $size) { totalCount { count } nodes @include(if: $deep) { supplier { products(first: 1000) { nodes { id } } } } } }`;
      const outcomes = [];
      for (const variables of [{ size: 1, deep: false }, { size: 1000, deep: true }, { size: 1, deep: true }, { size: 1000, deep: false }, { size: 1000, deep: true }]) {
        const answer = await run(consumerToken, query, { ...variables, search: `bookingEngine:${engineName}` });
        outcomes.push(answer.body.errors?.[0].extensions?.reason ?? "answered");
      }
      // Only the deep walk at a page of 1,000 costs more than the limit.
      expect(outcomes).toEqual(["answered", "COST_LIMIT_EXCEEDED", "answered", "answered", "COST_LIMIT_EXCEEDED"]);
      // The same parsed document, as Apollo's document store hands it back, with the counts the gateway's plans send.
      const document = parse(`query ($representations: [_Any!]!) { _entities(representations: $representations) { ... on Product { supplier { products(first: 1000) { nodes { id } } } } } }`);
      const cost = (count: number) => {
        try {
          return checkOperationCost("subgraph", stack.service.edge!.subgraphs.catalogue!.schema, document, { representations: Array.from({ length: count }, (_, id) => ({ __typename: "Product", id })) }, undefined);
        } catch (error) {
          return (error as { extensions: { reason: string } }).extensions.reason;
        }
      };
      expect([cost(1), cost(2000), cost(1)]).toEqual([expect.any(Number), "COST_LIMIT_EXCEEDED", cost(1)]);
      expect(cost(2)).toBeGreaterThan(cost(1) as number);
    });

    it("refuses 1,000 aliases of a search, and of recommendations, running no SQL", async () => {
      for (const field of ['searchProducts(query: "") { totalCount { count } }', "recommendations { totalCount { count } }"]) {
        const batch = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(" ")} }`;
        // 1,000 of them are past the token limit before the document is even parsed whole.
        const thousand = await run(consumerToken, batch(1000));
        expect(thousand.status).toBe(400);
        expect(thousand.body.errors?.[0].extensions).toEqual({ code: "GRAPHQL_PARSE_FAILED" });
        expect(thousand.statements).toBe(0);
        const hundred = await run(consumerToken, batch(100));
        expect(hundred.status).toBe(400);
        expect(hundred.body.errors?.[0]).toMatchObject({ message: `Aliases limit of ${OPERATION_LIMITS.maxAliases} exceeded, found 100.`, extensions: { reason: "TOO_MANY_ALIASES" } });
        expect(hundred.statements).toBe(0);
      }
    });

    it("refuses 300 aliased mutations without changing anything, and caps mutations per operation", async () => {
      const count = async () => (await rows<{ n: number }>(database.db, sql`select count(*)::int as n from availabilities`))[0].n;
      const before = await count();
      const aliases = Array.from({ length: 300 }, (_, i) => `a${i}: createAvailability(input: { productId: "${productGlobalId()}", date: "2027-03-01" }) { availability { id } }`).join(" ");
      const refused = await run(consumerToken, `mutation { ${aliases} }`);
      expect(refused.status).toBe(400);
      expect(refused.statements).toBe(0);
      expect(await count()).toBe(before);

      const six = ["me", "me", "me", "me", "me", "me"].map((_, i) => `m${i}: createAvailability(input: { productId: "${productGlobalId()}", date: "2027-03-0${i + 1}" }) { availability { id } }`);
      // Five aliases stay under the alias limit; the mutation cap is what refuses six.
      const sixRefused = await run(consumerToken, `mutation { ${six.join(" ")} }`);
      expect(sixRefused.body.errors).toEqual([
        expect.objectContaining({ message: `The operation runs 6 mutations; the limit is ${OPERATION_LIMITS.maxMutations} per operation`, extensions: { code: "GRAPHQL_VALIDATION_FAILED", reason: "TOO_MANY_MUTATIONS" } }),
      ]);
      expect(await count()).toBe(before);
    });

    it("refuses a document of nested fragments at once, however many levels it doubles", async () => {
      // Each fragment spreads the next twice under different fields: expanded, 2^40 selections.
      const levels = 40;
      const fragments = Array.from({ length: levels }, (_, i) =>
        i === levels - 1 ? `fragment F${i} on Organisation { name }` : `fragment F${i} on Organisation { bookingEngine { organisations: __typename } ...F${i + 1} x${i}: bookingEngine { id } ...F${i + 1} }`,
      );
      const bomb = `{ me { organisation { ...F0 } } } ${fragments.join(" ")}`;
      const refused = await run(consumerToken, bomb);
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
      expect(refused.statements).toBe(0);
    });

    it("lets one operation make one round of calls to supplier systems, however it is aliased", async () => {
      const platform = await stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
      const engine = (name: string) => `{ name: "${name}", baseUrl: "http://127.0.0.1:9", apiKey: "k", countryCode: "FR" }`;
      const twice = await run(platform, `mutation { a: registerOctoEngine(input: ${engine("ALIAS_A")}) { bookingEngine { id } } b: registerOctoEngine(input: ${engine("ALIAS_B")}) { bookingEngine { id } } }`);
      expect(twice.status).toBe(400);
      expect(twice.body.errors?.[0].extensions).toMatchObject({ reason: "COST_LIMIT_EXCEEDED" });
      expect(twice.statements).toBe(0);
      const imports = await run(platform, `mutation { a: importOctoEngine(input: { bookingEngineName: "X" }) { octoImport { createdProductCount } } b: importOctoEngine(input: { bookingEngineName: "X" }) { octoImport { createdProductCount } } }`);
      expect(imports.body.errors?.[0].extensions).toMatchObject({ reason: "COST_LIMIT_EXCEEDED" });
      // One is an ordinary request: it runs (and is refused by the supplier check, not the limit).
      const once = await run(platform, `mutation { registerOctoEngine(input: ${engine("ALIAS_ONE")}) { bookingEngine { id } userErrors { code } } }`);
      expect(once.body.data?.registerOctoEngine).toEqual({ bookingEngine: null, userErrors: [{ code: "ENGINE_VERIFICATION_FAILED" }] });
    });

    it("counts a JSON record as the typed fields it stands for, so aliasing records buys no extra work", async () => {
      const aliased = (n: number) => Array.from({ length: n }, (_, i) => `r${i}: consumerRecord`).join(" ");
      const refused = await run(consumerToken, `{ searchProducts(query: "countryCode:CH", first: 1000) { nodes { ${aliased(25)} } } }`);
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.[0].extensions).toMatchObject({ reason: "COST_LIMIT_EXCEEDED" });
      expect(refused.statements).toBe(0);
      const importBatch = Array.from({ length: 25 }, (_, i) => `p${i}: activeActivities(first: 1000) { records }`).join(" ");
      const importRefused = await run(consumerToken, `{ ${importBatch} }`);
      expect(importRefused.body.errors?.[0].extensions).toMatchObject({ reason: "COST_LIMIT_EXCEEDED" });
      expect(importRefused.statements).toBe(0);
      // Either record once on a full page is what REST asks for, and is answered.
      const once = await run(consumerToken, `{ searchProducts(query: "countryCode:CH", first: 1000) { nodes { consumerRecord } } }`);
      expect(once.body.errors).toBeUndefined();
    });

    it("weighs each record at least as many values as a real record carries", async () => {
      /** Every scalar in the record, as many as the typed fields selected one by one would resolve. */
      const values = (value: unknown): number =>
        Array.isArray(value) ? value.reduce((sum: number, item) => sum + values(item), 0) : value !== null && typeof value === "object" ? Object.values(value).reduce((sum: number, item) => sum + values(item), 0) : 1;
      const product = await run(consumerToken, `query ($id: ID!) { product(id: $id) { consumerRecord } }`, { id: productGlobalId() });
      const consumerValues = values(product.body.data!.product.consumerRecord);
      const page = await run(consumerToken, `query ($engines: [String!]) { activeActivities(filter: { bookingEngineNames: $engines }, first: 10) { records } }`, { engines: [engineName] });
      const [record] = page.body.data!.activeActivities.records;
      const importValues = values(record);
      expect(consumerValues).toBeGreaterThan(40);
      expect(importValues).toBeGreaterThan(40);
      expect(RECORD_WEIGHTS["Product.consumerRecord"]).toBeGreaterThanOrEqual(consumerValues);
      expect(RECORD_WEIGHTS["ActiveActivityConnection.records"]).toBeGreaterThanOrEqual(importValues);
    });

    it("refuses operations nested beyond the depth limit, and documents beyond the token limit", async () => {
      const deep = await run(consumerToken, cycle(6), { id: productGlobalId() });
      expect(deep.body.errors?.[0].extensions).toMatchObject({ code: "GRAPHQL_VALIDATION_FAILED", reason: "TOO_DEEP" });
      const huge = await run(consumerToken, `{ ${"me { id } ".repeat(OPERATION_LIMITS.maxTokens)} }`);
      expect(huge.status).toBe(400);
      // graphql-js's own wording ("more that").
      expect(huge.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(`more th.. ${OPERATION_LIMITS.maxTokens} tokens`), extensions: { code: "GRAPHQL_PARSE_FAILED" } });
      expect(huge.statements).toBe(0);
    });
  });

  describe("over graphql-ws", () => {
    const connect = (token: string) => {
      const client = wsClient(stack, token);
      clients.push(client);
      return client;
    };
    const outcome = wsOutcome;

    it("applies the same limits to queries, mutations and subscriptions", async () => {
      const client = connect(partnerToken);
      const cyclic = await outcome(client, cycle(3), { id: productGlobalId() });
      expect(cyclic.errors?.[0].extensions).toMatchObject({ code: "GRAPHQL_VALIDATION_FAILED", reason: "COST_LIMIT_EXCEEDED" });
      const aliases = await outcome(client, `{ ${Array.from({ length: 100 }, (_, i) => `a${i}: me { id }`).join(" ")} }`);
      expect(aliases.errors?.[0].extensions).toMatchObject({ reason: "TOO_MANY_ALIASES" });
      const mutations = await outcome(client, `mutation { ${Array.from({ length: 6 }, (_, i) => `m${i}: createAvailability(input: { productId: "${productGlobalId()}", date: "2027-04-0${i + 1}" }) { availability { id } }`).join(" ")} }`);
      expect(mutations.errors?.[0].extensions).toMatchObject({ reason: "TOO_MANY_MUTATIONS" });
      const huge = await outcome(client, `{ ${"me { id } ".repeat(OPERATION_LIMITS.maxTokens)} }`);
      expect(huge.errors?.[0].extensions).toMatchObject({ code: "GRAPHQL_PARSE_FAILED" });
      let deep = "id";
      for (let i = 0; i < 6; i++) deep = `product { supplier { products { nodes { ${deep} } } } }`;
      const subscription = await outcome(client, `subscription { bookingStatusChanged(bookingId: "00000000-0000-4000-8000-000000000000") { ${deep} } }`);
      expect(subscription.errors?.[0].extensions).toMatchObject({ code: "GRAPHQL_VALIDATION_FAILED" });
      // The connection survives its refusals.
      const ordinary = await outcome(client, "{ me { roles } }");
      expect(ordinary.result?.data).toEqual({ me: { roles: ["CONTENT_PARTNER"] } });
    });
  });

  describe("what the limits allow", () => {
    it("fits every REST operation at its largest page, with the most expensive Search expression it can take", () => {
      const largest = { resultsPerPage: 1_000_000, limit: 1_000_000, first: 1_000_000, max: 1_000_000 };
      // 20 criteria is the most an expression may hold (docs/search.md), each typo-tolerant.
      const worstSearch = Array.from({ length: 20 }, (_, i) => (i % 2 ? `title:~tour${i}` : `text:~museum${i}`)).join(" AND ");
      const operations = restRoutes.flatMap((route) => [route.operation, ...(route.otherwise ? [route.otherwise.operation] : [])].map((operation) => ({ ...route, operation })));
      for (const route of operations) {
        const document = parse(route.operation);
        expect(validate(apiSchema(), document, [...specifiedRules, ...limitValidationRules("edge")]), `${route.method} ${route.url}`).toEqual([]);
        const variables = sampleVariables(apiSchema(), document, largest);
        const cost = checkOperationCost("edge", apiSchema(), document, variables, undefined);
        expect(cost, `${route.method} ${route.url}`).toBeLessThanOrEqual(OPERATION_LIMITS.maxCost);
        // The Search expression is the `query` variable of the search-style paths.
        if (!("query" in variables)) continue;
        const searched = checkOperationCost("edge", apiSchema(), document, { ...variables, query: worstSearch }, undefined);
        expect(searched, `${route.method} ${route.url} with ${worstSearch}`).toBeGreaterThan(cost);
        expect(searched, `${route.method} ${route.url} with ${worstSearch}`).toBeLessThanOrEqual(OPERATION_LIMITS.maxCost);
      }
    });

    it("prices every root field of the API schema deliberately", () => {
      // The client schema adds the edge's subscriptions (graphql-ws estimates them against it).
      const schemas = [apiSchema(), stack.service.edge!.graph.clientSchema];
      const roots = new Set<string>();
      for (const schema of schemas) {
        for (const type of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
          for (const field of Object.keys(type?.getFields() ?? {})) roots.add(`${type!.name}.${field}`);
        }
      }
      expect(roots.size).toBeGreaterThan(50);
      expect([...roots].filter((key) => !(key in ROOT_FIELD_COSTS))).toEqual([]);
      // Keys naming no root field are left over from a field renamed or removed.
      expect(Object.keys(ROOT_FIELD_COSTS).filter((key) => !roots.has(key))).toEqual([]);
      expect(Object.entries(ROOT_FIELD_COSTS).filter(([, points]) => !(points > 0))).toEqual([]);
    });

    it("fits the standard introspection query (sandbox)", async () => {
      const answered = await run(consumerToken, getIntrospectionQuery());
      expect(answered.body.errors).toBeUndefined();
      expect(answered.body.data!.__schema.queryType.name).toBe("Query");
    });

    it("sizes every list of the API schema deliberately", () => {
      const unsized: string[] = [];
      for (const type of Object.values(apiSchema().getTypeMap())) {
        if (!isObjectType(type) || type.name.startsWith("__")) continue;
        for (const field of Object.values(type.getFields())) {
          const key = `${type.name}.${field.name}`;
          const paged = field.args.some((arg) => (PAGE_SIZE_ARGUMENTS as readonly string[]).includes(arg.name));
          if (paged && !(key in PAGE_SIZE_MAXIMA)) unsized.push(`${key} (page size without a maximum)`);
          const list = isListType(getNullableType(field.type)) && isCompositeType(getNamedType(field.type));
          // Every payload's userErrors is sized once (USER_ERRORS_SIZE).
          const userErrors = field.name === "userErrors" && type.name.endsWith("Payload");
          if (list && !paged && !userErrors && !(key in LIST_SIZES)) unsized.push(key);
        }
      }
      expect(unsized).toEqual([]);
    });
  });
});
