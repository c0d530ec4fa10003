import { toGlobalId } from "../../core/global-id.js";
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { EdgeContext } from "../../gateway/edge-context.js";
import type { EdgeGraph } from "../../gateway/gateway.js";
import { contentPartner, supplierRequest } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

/**
 * The operations the edge runs itself (REST paths, subscription messages) go through the edge's
 * Apollo Server the first time a text is run and straight to the gateway's executor once it has
 * answered without errors (gateway/direct-execution.ts). Each answer here is compared with the
 * one the edge's Apollo Server gives for the same request: the direct path must keep every rule
 * of the edge and format every error the same way.
 */
describe("operations the edge runs itself", () => {
  const t = useStack();
  let partner: Partner;
  let graph: EdgeGraph;
  let context: EdgeContext;
  let supplierId: string;

  const throughApollo = async (query: string, variables: Record<string, unknown>, operationName?: string) => {
    const response = await graph.server.executeOperation({ query, variables, operationName }, { contextValue: context });
    if (response.body.kind !== "single") throw new Error("incremental answer");
    return response.body.singleResult;
  };
  /** A text no other test sends, so that its first run is the first in this process. */
  const supplierText = () => `# ${randomUUID()}
    query Supplier($id: ID!) { supplier(id: $id) { id name countryCode bookingEngine { name } } }
    query Other { __typename }`;
  const sameAsApollo = async (query: string, variables: Record<string, unknown>, operationName?: string) => {
    const before = { ...graph.executeCounts };
    const answer = await graph.execute({ query, variables, operationName }, context);
    expect(graph.executeCounts.direct - before.direct).toBe(1);
    expect(answer).toEqual(await throughApollo(query, variables, operationName));
    return answer;
  };

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    graph = t.stack.service.edge!.graph;
    const caller = await t.stack.service.identity.verifier.verify(partner.token);
    context = { caller, token: partner.token, requestId: randomUUID() };
    supplierId = toGlobalId("Supplier", (await partner.rest.post("/api/supplier", supplierRequest())).body.id);
  });

  it("runs a text through the pipeline until it has answered without errors, then directly, with the same answers", async () => {
    const text = supplierText();
    const before = { ...graph.executeCounts };
    const first = await graph.execute({ query: text, variables: { id: supplierId }, operationName: "Supplier" }, context);
    expect(graph.executeCounts).toEqual({ pipeline: before.pipeline + 1, direct: before.direct });
    expect(first).toEqual({ data: { supplier: { id: supplierId, name: expect.any(String), countryCode: "CH", bookingEngine: { name: partner.engineName } } } });
    expect(await sameAsApollo(text, { id: supplierId }, "Supplier")).toEqual(first);
    // Another operation of the same text is admitted on its own.
    const beforeOther = { ...graph.executeCounts };
    await graph.execute({ query: text, variables: {}, operationName: "Other" }, context);
    expect(graph.executeCounts.pipeline - beforeOther.pipeline).toBe(1);
  });

  it("does not admit a text whose answer had errors, nor introspection", async () => {
    const text = `# ${randomUUID()}\nquery Suppliers($name: String!) { suppliers(bookingEngineName: $name) { totalCount { count } } }`;
    for (let run = 0; run < 2; run++) {
      const before = { ...graph.executeCounts };
      expect((await graph.execute({ query: text, variables: { name: "NO_SUCH_ENGINE" } }, context)).errors?.[0].extensions?.reason).toBe("UNKNOWN_BOOKING_ENGINE");
      expect(graph.executeCounts.pipeline - before.pipeline).toBe(1);
    }
    const introspection = `# ${randomUUID()}\n{ __schema { queryType { name } } }`;
    for (let run = 0; run < 2; run++) {
      const before = { ...graph.executeCounts };
      await graph.execute({ query: introspection }, context);
      expect(graph.executeCounts.pipeline - before.pipeline).toBe(1);
    }
  });

  describe("an admitted text", () => {
    let text: string;
    beforeAll(async () => {
      text = `# ${randomUUID()}
        query ($id: ID!, $name: String!, $page: Int) { supplier(id: $id) { id name } suppliers(bookingEngineName: $name, first: $page) { totalCount { count } nodes { id } } }`;
      await graph.execute({ query: text, variables: { id: supplierId, name: partner.engineName } }, context);
      const before = { ...graph.executeCounts };
      await graph.execute({ query: text, variables: { id: supplierId, name: partner.engineName } }, context);
      expect(graph.executeCounts.direct - before.direct).toBe(1);
    });

    it("answers as the pipeline does", async () => {
      const answer = await sameAsApollo(text, { id: supplierId, name: partner.engineName, page: 5 });
      expect(answer.errors).toBeUndefined();
      expect((answer.data as { suppliers: { nodes: unknown[] } }).suppliers.nodes.length).toBeGreaterThan(0);
    });

    it("still refuses text no database can store in its variables", async () => {
      const answer = await sameAsApollo(text, { id: supplierId, name: "a\u0000b" });
      expect(answer.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    });

    it("still refuses a variable of the wrong type, and a missing one", async () => {
      expect((await sameAsApollo(text, { id: 7, name: partner.engineName, page: "seven" })).errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
      expect((await sameAsApollo(text, { name: partner.engineName })).errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    });

    it("passes a subgraph's refusal and its field problems through", async () => {
      const answer = await sameAsApollo(text, { id: supplierId, name: partner.engineName, page: 100_000 });
      expect(answer.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
      const missing = await sameAsApollo(text, { id: supplierId, name: "NO_SUCH_ENGINE" });
      expect(missing.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "UNKNOWN_BOOKING_ENGINE", problems: [{ field: "bookingEngineName", rule: "exists" }] });
    });
  });

  it("still refuses an admitted text over the cost limit, by its variables", async () => {
    const text = `# ${randomUUID()}
      query ($id: ID!, $n: Int!) { supplier(id: $id) { products(first: $n) { nodes { supplier { products(first: $n) { nodes { supplier { products(first: $n) { nodes { id } } } } } } } } } }`;
    await graph.execute({ query: text, variables: { id: supplierId, n: 1 } }, context);
    const answer = await graph.execute({ query: text, variables: { id: supplierId, n: 1 } }, context);
    expect(answer.errors).toBeUndefined();
    const costly = await sameAsApollo(text, { id: supplierId, n: 100 });
    expect(costly.errors?.[0].extensions).toMatchObject({ code: "GRAPHQL_VALIDATION_FAILED", reason: "COST_LIMIT_EXCEEDED" });
  });
});
