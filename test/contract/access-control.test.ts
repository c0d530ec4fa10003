import { toGlobalId } from "../../core/global-id.js";
import { beforeAll, describe, expect, it } from "vitest";
import { asc, count, inArray } from "drizzle-orm";
import { organisations } from "../../drizzle/schema.js";
import { getJson, graphql, useStack } from "../support/stack.js";

describe("authentication and authorisation on GraphQL and REST", () => {
  const t = useStack();
  let consumer: string;
  let operator: string;

  beforeAll(async () => {
    consumer = await t.stack.tokenFor("CONSUMER");
    operator = await t.stack.tokenFor("OPERATOR");
  });

  describe("401 without a valid token", () => {
    it.each([
      ["no Authorization header", undefined],
      ["a token that is not a JWT", "not-a-jwt"],
    ])("REST answers 401 in the error body for %s", async (_case, token) => {
      const response = await getJson(`${t.stack.url}/api/me`, token);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        status: 401,
        code: "UNAUTHENTICATED",
        message: expect.any(String),
        requestId: response.headers.get("x-request-id"),
      });
    });

    it("REST answers 401 for a Basic scheme instead of Bearer", async () => {
      const response = await fetch(`${t.stack.url}/api/me`, { headers: { authorization: "Basic dXNlcjpwYXNz" } });
      expect(response.status).toBe(401);
    });

    it("GraphQL answers 401 with extensions.code UNAUTHENTICATED", async () => {
      const response = await graphql(`${t.stack.url}/graphql`, undefined, "{ me { username } }");
      expect(response.status).toBe(401);
      expect(response.body.errors?.[0].extensions?.code).toBe("UNAUTHENTICATED");
      expect(response.body.data).toBeUndefined();
      const bad = await graphql(`${t.stack.url}/graphql`, "garbage", "{ __typename }");
      expect(bad.status).toBe(401);
    });

    it("a subgraph is not reachable over HTTP in the single process, whatever the token", async () => {
      for (const token of [undefined, consumer]) {
        const direct = await graphql(`${t.stack.url}/subgraphs/booking/graphql`, token, "{ bookingEngines { id } }");
        expect(direct.status).toBe(404);
        expect(direct.body).toMatchObject({ status: 404, code: "NOT_FOUND" });
      }
    });
  });

  describe("403 when authenticated but not permitted", () => {
    it("REST answers 403 in the error body", async () => {
      const response = await getJson(`${t.stack.url}/api/organisations`, consumer);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ status: 403, code: "FORBIDDEN", message: expect.stringContaining("OPERATOR") });
    });

    it("GraphQL answers with extensions.code FORBIDDEN and no data", async () => {
      const response = await graphql(`${t.stack.url}/graphql`, consumer, "{ organisations { nodes { id } } }");
      expect(response.body.errors?.[0].extensions?.code).toBe("FORBIDDEN");
      expect(response.body.data).toBeNull();
    });

    it("lets a platform role through the same paths", async () => {
      const rest = await getJson(`${t.stack.url}/api/organisations`, operator);
      expect(rest.status).toBe(200);
      expect(Array.isArray(rest.body.items)).toBe(true);
      const graph = await graphql(`${t.stack.url}/graphql`, operator, "{ organisations { nodes { id name } } }");
      expect(graph.body.errors).toBeUndefined();
    });

    it("pages every organisation by name, forwards and backwards, on the graph and on REST", async () => {
      const created: string[] = [];
      for (let i = 0; i < 5; i++) created.push((await t.stack.createAccount("CONSUMER")).organisationName!);
      const page = `query ($first: Int, $after: String, $last: Int, $before: String) {
        organisations(first: $first, after: $after, last: $last, before: $before) {
          edges { cursor node { id name } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        }
      }`;
      const read = async (variables: Record<string, unknown>) => (await graphql(`${t.stack.url}/graphql`, operator, page, variables)).body;
      const forwards: string[] = [];
      let after: string | null = null;
      let first = true;
      for (;;) {
        const { data, errors } = await read({ first: 2, after });
        expect(errors).toBeUndefined();
        const connection = data!.organisations;
        expect(connection.pageInfo.hasPreviousPage).toBe(!first);
        forwards.push(...connection.edges.map((edge: { node: { name: string } }) => edge.node.name));
        first = false;
        if (!connection.pageInfo.hasNextPage) break;
        after = connection.pageInfo.endCursor;
      }
      // Other files may add organisations meanwhile: each seen once, in the database's own collation.
      expect(new Set(forwards).size).toBe(forwards.length);
      expect(forwards).toEqual(expect.arrayContaining(created));
      const ordered = (await t.database.db.select({ name: organisations.name }).from(organisations).where(inArray(organisations.name, forwards)).orderBy(asc(organisations.name))).map((row) => row.name);
      expect(forwards).toEqual(ordered);
      const countBefore = (await t.database.db.select({ n: count() }).from(organisations))[0].n;
      const total = (await graphql(`${t.stack.url}/graphql`, operator, "{ organisations(first: 0) { totalCount { count precision } } }")).body.data!.organisations.totalCount;
      const countAfter = (await t.database.db.select({ n: count() }).from(organisations))[0].n;
      expect(total.precision).toBe("EXACT");
      expect(total.count).toBeGreaterThanOrEqual(countBefore);
      expect(total.count).toBeLessThanOrEqual(countAfter);
      // The last two, then the two before them, each page in the list's order.
      const namesOf = (connection: { edges: { node: { name: string } }[] }) => connection.edges.map((edge) => edge.node.name);
      const tail = (await read({ last: 2 })).data!.organisations;
      expect(tail.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
      const before = (await read({ last: 2, before: tail.pageInfo.startCursor })).data!.organisations;
      expect(before.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
      const four = [...namesOf(before), ...namesOf(tail)];
      expect(four).toHaveLength(4);
      expect((await t.database.db.select({ name: organisations.name }).from(organisations).where(inArray(organisations.name, four)).orderBy(asc(organisations.name))).map((row) => row.name)).toEqual(four);

      for (const variables of [{ after: "bm90LWEtY3Vyc29y" }, { first: 101 }, { first: 1, last: 1 }]) {
        const refused = await read(variables);
        expect(refused.errors?.[0].extensions?.code, JSON.stringify(variables)).toBe("BAD_USER_INPUT");
      }

      // REST: the same order, a page at a time through nextCursor.
      const rest: string[] = [];
      let cursor: string | null = null;
      do {
        const response = await getJson(`${t.stack.url}/api/organisations?first=2${cursor ? `&after=${cursor}` : ""}`, operator);
        expect(response.status).toBe(200);
        expect(response.body.items.length).toBeLessThanOrEqual(2);
        rest.push(...response.body.items.map((item: { name: string }) => item.name));
        cursor = response.body.nextCursor;
      } while (cursor);
      expect(rest.filter((name) => forwards.includes(name))).toEqual(forwards.filter((name) => rest.includes(name)));
      expect(rest).toEqual(expect.arrayContaining(created));
      const badCursor = await getJson(`${t.stack.url}/api/organisations?after=nonsense`, operator);
      expect(badCursor.status).toBe(400);
      expect(badCursor.body.details?.[0]?.field).toBe("after");
    });

    it("hides another organisation: its id reads as one that names nothing, null alike in organisation and node", async () => {
      const other = await t.stack.createAccount("CONSUMER");
      const otherToken = (await t.stack.login(other.username, other.password)).access_token;
      const otherOrg = toGlobalId("Organisation", (await getJson(`${t.stack.url}/api/me`, otherToken)).body.organisation.id);
      const query = "query ($id: ID!) { organisation(id: $id) { name } node(id: $id) { id } }";
      const hidden = await graphql(`${t.stack.url}/graphql`, consumer, query, { id: otherOrg });
      expect(hidden.body).toMatchObject({ data: { organisation: null, node: null } });
      expect(hidden.body.errors).toBeUndefined();
      const missing = await graphql(`${t.stack.url}/graphql`, consumer, query, { id: toGlobalId("Organisation", 2_000_000_000) });
      expect(missing.body).toMatchObject({ data: { organisation: null, node: null } });
      // Its own organisation, and what a platform account sees of the other.
      const ownOrg = (await graphql(`${t.stack.url}/graphql`, otherToken, "{ me { id legacyResourceId organisation { id legacyResourceId name } } }")).body.data!.me;
      expect(ownOrg.organisation.id).toBe(otherOrg);
      expect(ownOrg.id).toBe(toGlobalId("Account", ownOrg.legacyResourceId));
      const seen = await graphql(`${t.stack.url}/graphql`, otherToken, "query ($id: ID!, $me: ID!) { organisation(id: $id) { name } node(id: $id) { ... on Organisation { name } } account: node(id: $me) { ... on Account { username } } }", { id: otherOrg, me: ownOrg.id });
      expect(seen.body.data).toEqual({ organisation: { name: ownOrg.organisation.name }, node: { name: ownOrg.organisation.name }, account: { username: other.username } });
      const platform = await t.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
      expect((await graphql(`${t.stack.url}/graphql`, platform, query, { id: otherOrg })).body.data).toEqual({ organisation: { name: ownOrg.organisation.name }, node: { id: otherOrg } });
      // Another's account is as absent as a missing one.
      expect((await graphql(`${t.stack.url}/graphql`, consumer, "query ($me: ID!) { node(id: $me) { id } }", { me: ownOrg.id })).body.data).toEqual({ node: null });
    });
  });

  describe("the federated graph answers as the caller", () => {
    it("resolves the caller's organisation and booking engine across subgraphs", async () => {
      const partner = await t.stack.createAccount("CONTENT_PARTNER", { country: "CH", bookingEngine: "ALPINE_ENGINE" });
      const token = (await t.stack.login(partner.username, partner.password)).access_token;
      const response = await graphql(
        `${t.stack.url}/graphql`,
        token,
        `{ me { username roles organisation { name countryCode commercialModel bookingEngine { name kind } } } }`,
      );
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data).toEqual({
        me: {
          username: partner.username,
          roles: ["CONTENT_PARTNER"],
          organisation: { name: partner.organisationName, countryCode: "CH", commercialModel: "AGENT", bookingEngine: { name: "ALPINE_ENGINE", kind: "INVENTORY" } },
        },
      });
      // Reports cover bookings the caller's organisation made: a consumer's, not a content partner's.
      const partnerReports = await graphql(`${t.stack.url}/graphql`, token, "{ reportingAccess { scope } }");
      expect(partnerReports.body.errors?.[0].extensions?.code).toBe("FORBIDDEN");
      const buyer = await t.stack.createAccount("CONSUMER", { country: "AT" });
      const buyerToken = (await t.stack.login(buyer.username, buyer.password)).access_token;
      const buyerReports = await graphql(`${t.stack.url}/graphql`, buyerToken, "{ reportingAccess { scope isTestOnly organisation { name countryCode } } }");
      expect(buyerReports.body.data).toEqual({
        reportingAccess: { scope: "OWN_ORGANISATION", isTestOnly: true, organisation: { name: buyer.organisationName, countryCode: "AT" } },
      });
      const rest = await getJson(`${t.stack.url}/api/me`, token);
      expect(rest.body.organisation).toMatchObject({ country: "CH", bookingEngine: "ALPINE_ENGINE" });
    });

    it("refuses operations nested beyond the depth limit before calling any subgraph", async () => {
      let selection = "id";
      for (let turn = 0; turn < 4; turn++) selection = `supplier { products { nodes { ${selection} } } }`;
      const response = await graphql(`${t.stack.url}/graphql`, consumer, `{ me { id } product(id: 1) { ${selection} } }`);
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0]).toMatchObject({
        message: "Query depth limit of 12 exceeded, found 14.",
        extensions: { code: "GRAPHQL_VALIDATION_FAILED", reason: "TOO_DEEP" },
      });
    });
  });

  describe("the REST error body and public endpoints", () => {
    it("answers unknown paths with 404 in the error body", async () => {
      const response = await getJson(`${t.stack.url}/api/no-such-thing`, consumer);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ status: 404, code: "NOT_FOUND", requestId: expect.any(String) });
    });

    it("keeps the caller's X-Request-Id", async () => {
      const response = await getJson(`${t.stack.url}/api/me`, consumer, { "x-request-id": "trace-abc.123" });
      expect(response.headers.get("x-request-id")).toBe("trace-abc.123");
    });

    it("serves health without a token", async () => {
      expect(await getJson(`${t.stack.url}/health/live`)).toMatchObject({ status: 200, body: { status: "ok" } });
      expect(await getJson(`${t.stack.url}/health/ready`)).toMatchObject({ status: 200, body: { status: "ready" } });
    });
  });
});

describe("REST input validation", () => {
  const t = useStack();
  let token: string;
  beforeAll(async () => {
    token = await t.stack.tokenFor("CONSUMER");
  });

  it("answers a value outside the schema with 400 naming the field and the rule", async () => {
    const response = await getJson(`${t.stack.url}/api/booking-engines?kind=TELEPATHY`, token);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 400,
      code: "VALIDATION_FAILED",
      details: [{ field: "kind", rule: "enum", message: expect.stringContaining("allowed values") }],
    });
  });

  it("answers an unknown parameter with 400 naming it", async () => {
    const response = await getJson(`${t.stack.url}/api/booking-engines?colour=blue`, token);
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([expect.objectContaining({ field: "colour", rule: "additionalProperties" })]);
  });

  it("filters by a valid value", async () => {
    await t.stack.createAccount("CONTENT_PARTNER", { bookingEngine: `FILTER_${Date.now()}` });
    const inventory = await getJson(`${t.stack.url}/api/booking-engines?kind=INVENTORY`, token);
    expect(inventory.status).toBe(200);
    expect(inventory.body.items.length).toBeGreaterThan(0);
    expect(inventory.body.items.every((e: { kind: string }) => e.kind === "INVENTORY")).toBe(true);
    const octo = await getJson(`${t.stack.url}/api/booking-engines?kind=OCTO`, token);
    expect(octo.status).toBe(200);
    expect(octo.body.items.every((e: { kind: string }) => e.kind === "OCTO")).toBe(true);
    const unknown = await getJson(`${t.stack.url}/api/booking-engines?kind=SOAP`, token);
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([expect.objectContaining({ field: "kind", rule: "enum" })]);
  });
});
