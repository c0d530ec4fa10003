import { toGlobalId } from "../../core/global-id.js";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "graphql-ws";
import { contentPartner, supplierRequest } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";
import { wsClient, wsOutcome } from "../support/ws-client.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

/**
 * A text the edge has run once without errors skips its Apollo Server pipeline afterwards
 * (gateway/direct-execution.ts). A client chooses the texts it sends over graphql-ws, so it can
 * get its own text admitted with harmless variables and then send hostile ones: each run must
 * still meet the edge's limits. Over HTTP, only a text that answered a client's HTTP request
 * without errors runs directly, and each run must meet the same limits.
 */
describe("an operation the edge has admitted", () => {
  const t = useStack();
  let partner: Partner;
  let supplierId: string;
  let supplierNumber: number;
  let client: Client;
  const nested = () => `# ${randomUUID()}
    query ($id: ID!, $n: Int!, $note: String) { supplier(id: $id) { id products(first: $n, filter: { cityName: $note }) { nodes { supplier { products(first: $n) { nodes { supplier { products(first: $n) { nodes { id } } } } } } } } } }`;

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    supplierNumber = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    supplierId = toGlobalId("Supplier", supplierNumber);
    client = wsClient(t.stack, partner.token);
  });
  afterAll(() => client.dispose());

  it("keeps the cost limit and the text checks for a WebSocket client's own text, run after run", async () => {
    const text = nested();
    const graph = t.stack.service.edge!.graph;
    for (let run = 0; run < 2; run++) expect((await wsOutcome(client, text, { id: supplierId, n: 1 })).result?.errors).toBeUndefined();
    const before = { ...graph.executeCounts };

    const costly = await wsOutcome(client, text, { id: supplierId, n: 100 });
    expect(costly.errors ?? costly.result?.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: "GRAPHQL_VALIDATION_FAILED", reason: "COST_LIMIT_EXCEEDED" }) })]);
    const nul = await wsOutcome(client, text, { id: supplierId, n: 1, note: "Zer\u0000matt" });
    expect((nul.errors ?? nul.result?.errors)?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    const fine = await wsOutcome(client, text, { id: supplierId, n: 1 });
    expect(fine.result?.data).toEqual({ supplier: { id: supplierId, products: { nodes: [] } } });
    // Whichever layer refused the hostile runs, the harmless one ran directly: the text was admitted.
    expect(graph.executeCounts.direct).toBeGreaterThan(before.direct);
  });

  it("takes the direct path over HTTP only for a text admitted over HTTP, and keeps every limit on it", async () => {
    const text = nested();
    const graph = t.stack.service.edge!.graph;
    const http = (variables: Record<string, unknown>) => graphql(`${t.stack.url}/graphql`, partner.token, text, variables);
    const direct = async (call: () => Promise<{ status: number; body: unknown }>) => {
      const before = graph.clientCounts.direct;
      const answer = await call();
      return { answer, direct: graph.clientCounts.direct - before };
    };
    // Admitted over graphql-ws: that admits nothing for HTTP.
    await wsOutcome(client, text, { id: supplierId, n: 1 });
    await wsOutcome(client, text, { id: supplierId, n: 1 });
    const refusedFirst = await direct(() => http({ id: supplierId, n: 100 }));
    expect(refusedFirst.direct).toBe(0);
    expect(refusedFirst.answer.body).toMatchObject({ errors: [{ extensions: { code: "GRAPHQL_VALIDATION_FAILED", reason: "COST_LIMIT_EXCEEDED" } }] });
    expect((await direct(() => http({ id: supplierId, n: 1 }))).direct).toBe(0);
    // Admitted over HTTP now: harmless runs go directly, hostile ones still meet every limit, with the pipeline's answer.
    expect(await direct(() => http({ id: supplierId, n: 1 }))).toEqual({ answer: { status: 200, body: { data: { supplier: { id: supplierId, products: { nodes: [] } } }, extensions: { cost: expect.any(Object) } } }, direct: 1 });
    expect(await direct(() => http({ id: supplierId, n: 100 }))).toEqual({ answer: refusedFirst.answer, direct: 0 });
    const nul = await direct(() => http({ id: supplierId, n: 1, note: "Zer\u0000matt" }));
    expect(nul.direct).toBe(0);
    expect(nul.answer.body).toMatchObject({ errors: [{ extensions: { code: "BAD_USER_INPUT" } }] });
    // The access hook still runs first: without a token there is no answer, admitted text or not.
    const anonymous = await direct(() => graphql(`${t.stack.url}/graphql`, undefined, text, { id: supplierId, n: 1 }));
    expect(anonymous).toMatchObject({ answer: { status: 401 }, direct: 0 });
  });

  it("holds a bounded amount of client text however many long texts a caller gets admitted", async () => {
    const graph = t.stack.service.edge!.graph;
    // Each about 4,000 characters (a comment pads them; the cache counts characters), valid, cheap
    // and answered without errors: 30 of them are more than the 100,000 the cache of client texts holds.
    const long = (i: number) => `# ${i} ${randomUUID()} ${"x".repeat(4_000)}\nquery { supplier(id: "${supplierId}") { id } }`;
    const texts = Array.from({ length: 30 }, (_, i) => long(i));
    for (const text of texts) expect((await graphql(`${t.stack.url}/graphql`, partner.token, text)).body.errors).toBeUndefined();
    const runsDirectly = async (text: string) => {
      const before = graph.clientCounts.direct;
      expect((await graphql(`${t.stack.url}/graphql`, partner.token, text)).body.errors).toBeUndefined();
      return graph.clientCounts.direct - before === 1;
    };
    // The newest are admitted; the oldest were forgotten and take the pipeline again.
    expect(await runsDirectly(texts[29])).toBe(true);
    expect(await runsDirectly(texts[0])).toBe(false);
  });

  it("keeps the edge's own texts admitted however many long texts a graphql-ws client sends", async () => {
    const graph = t.stack.service.edge!.graph;
    const restRead = async () => {
      const before = graph.executeCounts.direct;
      expect((await partner.rest.get(`/api/supplier/${supplierNumber}`)).status).toBe(200);
      return graph.executeCounts.direct - before === 1;
    };
    await restRead();
    expect(await restRead()).toBe(true);
    // More characters of harmless texts than a cache holds (100,000), each admitted by its first run.
    // The edge runs a client's document as printed, without comments: a long name keeps it long.
    const long = (i: number) => `query Long${i}_${randomUUID().replace(/-/g, "")}_${"x".repeat(4_000)}($id: ID!) { supplier(id: $id) { id } }`;
    for (let i = 0; i < 30; i++) {
      const text = long(i);
      for (let run = 0; run < 2; run++) expect((await wsOutcome(client, text, { id: supplierId })).result?.errors).toBeUndefined();
    }
    expect(await restRead()).toBe(true);
  });
});
