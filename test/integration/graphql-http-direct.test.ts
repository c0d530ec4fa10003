import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { EdgeGraph } from "../../gateway/gateway.js";
import { keyOfGlobalId, toGlobalId } from "../../core/global-id.js";
import { contentPartner, signIn, supplierInput, supplierRequest } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

interface HttpAnswer {
  status: number;
  contentType: string | null;
  text: string;
}

/**
 * A client's `POST /graphql` skips the edge's Apollo Server pipeline once its text has answered a
 * client without errors through it (gateway/direct-execution.ts, `answerClient`). Each request
 * here is sent before and after its text is admitted, and the two HTTP answers must be the same
 * to the byte: status, content type and body.
 */
describe("clients' POST /graphql on the direct path", () => {
  const t = useStack();
  let partner: Partner;
  let graph: EdgeGraph;
  let supplierId: string;

  const post = async (body: unknown, token = partner.token, headers: Record<string, string> = {}): Promise<HttpAnswer> => {
    const response = await fetch(`${t.stack.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify(body),
    });
    // What the bucket holds when the answer is written moves with time: the rest must match byte for byte.
    const text = (await response.text()).replace(/"currentlyAvailable":\d+/, '"currentlyAvailable":0');
    return { status: response.status, contentType: response.headers.get("content-type"), text };
  };
  /** Sends the request and says whether the direct path answered it. */
  const sent = async (body: unknown, token?: string, headers?: Record<string, string>) => {
    const before = graph.clientCounts.direct;
    const answer = await post(body, token, headers);
    return { answer, direct: graph.clientCounts.direct - before === 1 };
  };
  const supplierText = () => `# ${randomUUID()}
    query Supplier($id: ID!, $name: String!, $page: Int) { supplier(id: $id) { id name countryCode } suppliers(bookingEngineName: $name, first: $page) { totalCount { count } nodes { id } } }
    query Other { __typename }`;
  /** Admits the text with a request that answers without errors, and checks the next one runs directly. */
  const admit = async (query: string) => {
    const body = { query, operationName: "Supplier", variables: { id: supplierId, name: partner.engineName } };
    const first = await sent(body);
    expect(first.direct).toBe(false);
    expect(JSON.parse(first.answer.text).errors).toBeUndefined();
    const second = await sent(body);
    expect(second.direct).toBe(true);
    expect(second.answer).toEqual(first.answer);
  };

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    graph = t.stack.service.edge!.graph;
    supplierId = toGlobalId("Supplier", (await partner.rest.post("/api/supplier", supplierRequest())).body.id);
  });

  it("answers an admitted text exactly as Apollo Server did, errors included", async () => {
    const query = supplierText();
    const requests = [
      // The subgraph's refusal of an engine, with its reason and field problems.
      { query, operationName: "Supplier", variables: { id: supplierId, name: "NO_SUCH_ENGINE" } },
      // The subgraph's refusal of a page size, with its field problems.
      { query, operationName: "Supplier", variables: { id: supplierId, name: partner.engineName, page: 100_000 } },
    ];
    const before = await Promise.all(requests.map((body) => sent(body)));
    expect(before.map((b) => b.direct)).toEqual([false, false]);
    expect(JSON.parse(before[0].answer.text).errors[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "UNKNOWN_BOOKING_ENGINE" });
    expect(JSON.parse(before[1].answer.text).errors[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: "first" }] });
    await admit(query);
    for (const [i, body] of requests.entries()) {
      const after = await sent(body);
      expect(after.direct).toBe(true);
      expect(after.answer).toEqual(before[i].answer);
    }
    // Only the admitted operation of the text: another one of it goes through the pipeline.
    expect((await sent({ query, operationName: "Other" })).direct).toBe(false);
  });

  it("leaves refusals of the variables to the pipeline, with its own answers", async () => {
    const query = supplierText();
    const refused = [
      { query, operationName: "Supplier", variables: { id: true, name: partner.engineName } },
      { query, operationName: "Supplier", variables: { name: partner.engineName } },
      { query, operationName: "Supplier", variables: { id: supplierId, name: "a\u0000b" } },
    ];
    const before = await Promise.all(refused.map((body) => post(body)));
    expect(before.map((answer) => JSON.parse(answer.text).errors[0].extensions.code)).toEqual(["BAD_USER_INPUT", "BAD_USER_INPUT", "BAD_USER_INPUT"]);
    await admit(query);
    for (const [i, body] of refused.entries()) {
      const after = await sent(body);
      expect(after.direct).toBe(false);
      expect(after.answer).toEqual(before[i]);
    }
  });

  it("runs another caller's request on an admitted text with that caller's rights", async () => {
    const query = supplierText();
    const other = await contentPartner(t.stack);
    const consumer = await t.stack.createAccount("CONSUMER");
    const consumerToken = await signIn(t.stack, consumer.username, consumer.password);
    const body = { query, operationName: "Supplier", variables: { id: supplierId, name: partner.engineName } };
    const before = [await sent(body, other.token), await sent(body, consumerToken)];
    expect(before.map((b) => b.direct)).toEqual([false, false]);
    // Not that partner's supplier or engine, and not a consumer's business: refused by the catalogue subgraph.
    expect(JSON.parse(before[0].answer.text)).toMatchObject({ errors: [{ path: ["suppliers"], extensions: { code: "BAD_USER_INPUT", reason: "WRONG_BOOKING_ENGINE" } }], data: null });
    const refused = JSON.parse(before[1].answer.text);
    expect(refused).toMatchObject({ errors: [{ path: ["supplier"], extensions: { code: "FORBIDDEN" } }, { path: ["suppliers"], extensions: { code: "FORBIDDEN" } }], data: null });
    // Nothing came back: all but the root fields' fixed costs is given back.
    expect(refused.extensions.cost.actualQueryCost).toBeLessThan(refused.extensions.cost.requestedQueryCost);
    await admit(query);
    const after = [await sent(body, other.token), await sent(body, consumerToken)];
    expect(after.map((a) => a.direct)).toEqual([true, true]);
    expect(after.map((a) => a.answer)).toEqual(before.map((b) => b.answer));
    // A request without a token never reaches either path.
    const anonymous = await fetch(`${t.stack.url}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(anonymous.status).toBe(401);
  });

  it("runs an admitted mutation once per request", async () => {
    const query = `# ${randomUUID()}
      mutation Rename($input: UpdateSupplierInput!) { updateSupplier(input: $input) { supplier { id name } userErrors { code } } }`;
    const run = (name: string) => sent({ query, operationName: "Rename", variables: { input: supplierInput({ supplierId, name }) } });
    expect((await run("First name")).direct).toBe(false);
    const second = await run("Second name");
    expect(second.direct).toBe(true);
    expect(JSON.parse(second.answer.text)).toEqual({ data: { updateSupplier: { supplier: { id: supplierId, name: "Second name" }, userErrors: [] } }, extensions: { cost: expect.objectContaining({ actualQueryCost: expect.any(Number) }) } });
    expect((await partner.rest.get(`/api/supplier/${keyOfGlobalId(supplierId, "Supplier")}`)).body.name).toBe("Second name");
  });

  it("leaves to Apollo Server what it answers otherwise than with plain JSON", async () => {
    const query = supplierText();
    await admit(query);
    const body = { query, operationName: "Supplier", variables: { id: supplierId, name: partner.engineName } };
    const graphqlResponse = await sent(body, undefined, { accept: "application/graphql-response+json" });
    expect(graphqlResponse.direct).toBe(false);
    expect(graphqlResponse.answer.contentType).toBe("application/graphql-response+json; charset=utf-8");
    const weighted = await sent(body, undefined, { accept: "application/json;q=0.5, application/graphql-response+json" });
    expect(weighted.direct).toBe(false);
    expect(weighted.answer.contentType).toBe("application/graphql-response+json; charset=utf-8");
    const refusedAccept = await sent(body, undefined, { accept: "text/plain" });
    expect(refusedAccept.direct).toBe(false);
    expect(refusedAccept.answer.status).toBe(406);
    const withExtensions = await sent({ ...body, extensions: { persistedQuery: { version: 1, sha256Hash: "0".repeat(64) } } });
    expect(withExtensions.direct).toBe(false);
    expect(withExtensions.answer.status).toBe(400);
    const stringVariables = await sent({ ...body, variables: JSON.stringify(body.variables) });
    expect(stringVariables.direct).toBe(false);
    expect(stringVariables.answer.status).toBe(400);
    const batch = await sent([body]);
    expect(batch.direct).toBe(false);
    expect(batch.answer.status).toBe(400);
    const plain = await sent(body, undefined, { accept: "application/json, */*" });
    expect(plain.direct).toBe(true);
    expect(plain.answer.contentType).toBe("application/json; charset=utf-8");
  });

  it("does not admit a text whose answer had errors, nor introspection, nor a GET", async () => {
    const query = supplierText();
    const failing = { query, operationName: "Supplier", variables: { id: supplierId, name: "NO_SUCH_ENGINE" } };
    for (let run = 0; run < 2; run++) expect((await sent(failing)).direct).toBe(false);
    const introspection = { query: `# ${randomUUID()}\n{ __schema { queryType { name } } }` };
    for (let run = 0; run < 2; run++) expect((await sent(introspection)).direct).toBe(false);
    const getText = `# ${randomUUID()}\nquery { __typename supplier(id: "${supplierId}") { id } }`;
    const url = `${t.stack.url}/graphql?query=${encodeURIComponent(getText)}`;
    for (let run = 0; run < 2; run++) {
      const response = await fetch(url, { headers: { authorization: `Bearer ${partner.token}`, "apollo-require-preflight": "true" } });
      expect(response.status).toBe(200);
    }
    expect((await sent({ query: getText })).direct).toBe(false);
  });
});
