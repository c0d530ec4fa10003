import { createHash, randomUUID } from "node:crypto";
import { ApolloClient, HttpLink, InMemoryCache, gql } from "@apollo/client";
import { PersistedQueryLink } from "@apollo/client/link/persisted-queries";
import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../support/stack.js";

interface LogLine {
  level: number;
  msg: string;
  code?: string;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Issue 41, item 5: automatic persisted queries with a wrong hash or `version: 2` answered 400
 * `INTERNAL_SERVER_ERROR` and were logged at error level with a stack. They are the caller's
 * mistakes: each answers a code Apollo's clients act on (PERSISTED_QUERY_NOT_FOUND: send the text;
 * PERSISTED_QUERY_NOT_SUPPORTED: stop using persisted queries; PERSISTED_QUERY_HASH_MISMATCH, as
 * Apollo's router answers it) and is logged at info. The protocol itself works: a text sent with
 * its hash is registered, and its hash alone runs it, by POST and by GET.
 */
describe("automatic persisted queries", () => {
  const logLines: string[] = [];
  const t = useStack({ logLines });
  let token: string;

  beforeAll(async () => {
    token = await t.stack.tokenFor("CONSUMER");
  });

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${t.stack.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as { data?: Record<string, unknown>; errors?: { message: string; extensions?: { code?: string } }[]; extensions?: { cost?: { requestedQueryCost: number } } } };
  };
  const get = async (params: Record<string, string>, withToken = true) => {
    const response = await fetch(`${t.stack.url}/graphql?${new URLSearchParams(params)}`, {
      headers: { ...(withToken ? { authorization: `Bearer ${token}` } : {}), "apollo-require-preflight": "true" },
    });
    return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown>; errors?: { extensions?: { code?: string } }[] } };
  };
  const persisted = (hash: string, version: unknown = 1) => ({ persistedQuery: { version, sha256Hash: hash } });
  /** A text of its own per test: the cache of registered texts is the process's. */
  const freshQuery = () => `# ${randomUUID()}\nquery Me { me { username } }`;
  const lines = () => logLines.map((line) => JSON.parse(line) as LogLine);
  const errorLines = () => lines().filter((line) => line.level >= 50);

  it("runs a text registered with its hash from the hash alone, by POST and GET", async () => {
    const query = freshQuery();
    const miss = await post({ extensions: persisted(sha256(query)) });
    expect(miss.status).toBe(200);
    expect(miss.body.errors?.[0].extensions?.code).toBe("PERSISTED_QUERY_NOT_FOUND");
    expect(miss.headers.get("cache-control")).toBe("private, no-cache, must-revalidate");

    const registered = await post({ query, extensions: persisted(sha256(query)) });
    expect(registered.status).toBe(200);
    expect(registered.body.data?.me).toBeDefined();

    const byHash = await post({ extensions: persisted(sha256(query)) });
    expect(byHash.status).toBe(200);
    expect(byHash.body.data).toEqual(registered.body.data);
    expect(byHash.body.extensions?.cost?.requestedQueryCost).toBe(registered.body.extensions?.cost?.requestedQueryCost);
    const byGet = await get({ extensions: JSON.stringify(persisted(sha256(query))) });
    expect(byGet.status).toBe(200);
    expect(byGet.body.data).toEqual(registered.body.data);
    // Access comes first: a hash is no way around the token.
    expect((await get({ extensions: JSON.stringify(persisted(sha256(query))) }, false)).status).toBe(401);
  });

  it.each([
    ["a text with another text's hash", () => ({ query: freshQuery(), extensions: persisted(sha256("query { me { id } }")) }), 400, "PERSISTED_QUERY_HASH_MISMATCH"],
    ["a text with a hash in upper case", () => { const query = freshQuery(); return { query, extensions: persisted(sha256(query).toUpperCase()) }; }, 400, "PERSISTED_QUERY_HASH_MISMATCH"],
    ["version 2", () => ({ extensions: persisted(sha256("query { me { id } }"), 2) }), 200, "PERSISTED_QUERY_NOT_SUPPORTED"],
    ["version 2 with its text", () => { const query = freshQuery(); return { query, extensions: persisted(sha256(query), 2) }; }, 200, "PERSISTED_QUERY_NOT_SUPPORTED"],
    ["a persistedQuery that is no object", () => ({ query: freshQuery(), extensions: { persistedQuery: "yes" } }), 200, "PERSISTED_QUERY_NOT_SUPPORTED"],
    ["an unknown hash", () => ({ extensions: persisted(sha256(freshQuery())) }), 200, "PERSISTED_QUERY_NOT_FOUND"],
    ["a hash that is no hash", () => ({ extensions: persisted("not a hash") }), 200, "PERSISTED_QUERY_NOT_FOUND"],
    ["a hash that is no string", () => ({ extensions: { persistedQuery: { version: 1, sha256Hash: 42 } } }), 400, "BAD_REQUEST"],
  ])("answers %s with its code, logged at info", async (_name, body, status, code) => {
    const before = logLines.length;
    const answer = await post(body());
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.errors).toEqual([{ message: expect.any(String), extensions: { code } }]);
    expect(answer.body.data).toBeUndefined();
    await expect.poll(() => lines().slice(before).some((line) => line.msg === "persisted query refused" && line.code === code)).toBe(true);
    const refused = lines().slice(before).filter((line) => line.msg === "persisted query refused");
    expect(refused.every((line) => line.level === 30)).toBe(true);
    expect(errorLines()).toEqual([]);
  });

  it("answers the same over GET, and registers nothing under a wrong hash", async () => {
    const query = freshQuery();
    const wrong = sha256(`${query} `);
    const mismatch = await get({ query, extensions: JSON.stringify(persisted(wrong)) });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors?.[0].extensions?.code).toBe("PERSISTED_QUERY_HASH_MISMATCH");
    expect((await post({ extensions: persisted(wrong) })).body.errors?.[0].extensions?.code).toBe("PERSISTED_QUERY_NOT_FOUND");
    const unsupported = await get({ query, extensions: JSON.stringify(persisted(sha256(query), 2)) });
    expect(unsupported.status).toBe(200);
    expect(unsupported.body.errors?.[0].extensions?.code).toBe("PERSISTED_QUERY_NOT_SUPPORTED");
    expect(errorLines()).toEqual([]);
  });

  describe("with Apollo Client's own persisted-query link", () => {
    /** A client whose requests are kept as sent; `rewrite` may change a body on its way out. */
    const apolloClient = (rewrite: (body: Record<string, any>) => Record<string, any> = (body) => body) => {
      const sent: Record<string, any>[] = [];
      const recording: typeof fetch = async (input, init) => {
        const body = rewrite(JSON.parse(String(init?.body)));
        sent.push(body);
        return fetch(input, { ...init, body: JSON.stringify(body) });
      };
      const link = new PersistedQueryLink({ sha256 }).concat(new HttpLink({ uri: `${t.stack.url}/graphql`, headers: { authorization: `Bearer ${token}` }, fetch: recording }));
      return { client: new ApolloClient({ link, cache: new InMemoryCache() }), sent };
    };
    const operation = () => gql(`query Apq_${randomUUID().replace(/-/g, "")} { me { username } }`);

    it("sends the hash, is told PERSISTED_QUERY_NOT_FOUND, registers the text, and a second client runs it by its hash alone", async () => {
      const query = operation();
      const first = apolloClient();
      const answer = await first.client.query({ query, fetchPolicy: "no-cache" });
      expect((answer.data as { me: { username: string } }).me.username).toEqual(expect.any(String));
      expect(first.sent).toHaveLength(2);
      expect(first.sent[0]).not.toHaveProperty("query");
      expect(first.sent[0].extensions.persistedQuery).toMatchObject({ version: 1, sha256Hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(first.sent[1]).toMatchObject({ query: expect.any(String), extensions: first.sent[0].extensions });

      const second = apolloClient();
      expect((await second.client.query({ query, fetchPolicy: "no-cache" })).data).toEqual(answer.data);
      expect(second.sent).toHaveLength(1);
      expect(second.sent[0]).not.toHaveProperty("query");
    });

    it("stops hashing and sends the text when told PERSISTED_QUERY_NOT_SUPPORTED (a version the service does not speak)", async () => {
      const client = apolloClient((body) => (body.extensions?.persistedQuery ? { ...body, extensions: { persistedQuery: { ...body.extensions.persistedQuery, version: 2 } } } : body));
      const answer = await client.client.query({ query: operation(), fetchPolicy: "no-cache" });
      expect((answer.data as { me: { username: string } }).me.username).toEqual(expect.any(String));
      expect(client.sent.at(-1)).toMatchObject({ query: expect.any(String) });
      expect(client.sent.at(-1)?.extensions?.persistedQuery).toBeUndefined();
      expect(errorLines()).toEqual([]);
    });
  });
});
