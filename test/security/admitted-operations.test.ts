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
 * still meet the edge's limits. Clients' HTTP requests never take the direct path.
 */
describe("an operation the edge has admitted", () => {
  const t = useStack();
  let partner: Partner;
  let supplierId: number;
  let client: Client;
  const nested = () => `# ${randomUUID()}
    query ($id: Int!, $n: Int!, $note: String) { supplier(id: $id) { id products(first: $n, filter: { cityName: $note }) { supplier { products(first: $n) { supplier { products(first: $n) { id } } } } } } }`;

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
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
    expect(fine.result?.data).toEqual({ supplier: { id: supplierId, products: [] } });
    // Whichever layer refused the hostile runs, the harmless one ran directly: the text was admitted.
    expect(graph.executeCounts.direct).toBeGreaterThan(before.direct);
  });

  it("never takes the direct path for a client's HTTP request, admitted text or not", async () => {
    const text = nested();
    const graph = t.stack.service.edge!.graph;
    await wsOutcome(client, text, { id: supplierId, n: 1 });
    await wsOutcome(client, text, { id: supplierId, n: 1 });
    const before = { ...graph.executeCounts };
    const overHttp = await graphql(`${t.stack.url}/graphql`, partner.token, text, { id: supplierId, n: 100 });
    expect(overHttp.body.errors?.[0].extensions).toMatchObject({ code: "GRAPHQL_VALIDATION_FAILED", reason: "COST_LIMIT_EXCEEDED" });
    expect((await graphql(`${t.stack.url}/graphql`, partner.token, text, { id: supplierId, n: 1 })).body.errors).toBeUndefined();
    expect(graph.executeCounts).toEqual(before);
  });
});
