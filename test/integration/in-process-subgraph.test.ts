import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningSubgraph } from "../../subgraphs/common/subgraph-server.js";
import { contentPartner, productRequest, supplierRequest } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

/**
 * The gateway's fetches and the subgraphs' service calls run a text through Apollo Server's
 * pipeline the first time and directly after it has answered once without errors
 * (`executeInProcess`, subgraphs/common/subgraph-server.ts). Each answer here is compared with the
 * one the subgraph's own Apollo Server gives for the same request: the direct path must keep
 * every rule and format every error the same way.
 */
describe("a subgraph called in process", () => {
  const t = useStack();
  let partner: Partner;
  let catalogue: RunningSubgraph;
  let productId: number;
  let supplierId: number;

  const context = () => catalogue.createContext({ authorization: `Bearer ${partner.token}` });
  /** A text no other test sends, so that its first call is the first in this process. */
  const entitiesText = () => `# ${randomUUID()}
    query ($r: [_Any!]!) { _entities(representations: $r) { ... on Product { id externalId supplier { id } } ... on Supplier { id country } } }`;
  const throughApollo = async (query: string, variables: Record<string, unknown>) => {
    const response = await catalogue.server.executeOperation({ query, variables }, { contextValue: await context() });
    if (response.body.kind !== "single") throw new Error("incremental answer");
    return response.body.singleResult;
  };
  const direct = async (query: string, variables: Record<string, unknown>) => catalogue.executeInProcess({ query, variables }, await context());
  /** Runs the request in process (admitted text: directly) and checks the answer equals Apollo Server's. */
  const sameAsApollo = async (query: string, variables: Record<string, unknown>) => {
    const before = { ...catalogue.inProcessCounts };
    const answer = await direct(query, variables);
    expect(catalogue.inProcessCounts.direct - before.direct).toBe(1);
    expect(answer).toEqual(await throughApollo(query, variables));
    return answer;
  };

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    catalogue = t.stack.service.edge!.subgraphs.catalogue!;
    supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    productId = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest())).body.id;
  });

  it("runs a text through the pipeline until it has answered without errors, then directly, with the same answers", async () => {
    const text = entitiesText();
    const variables = { r: [{ __typename: "Product", id: productId }, { __typename: "Supplier", id: supplierId }] };
    const before = { ...catalogue.inProcessCounts };
    const first = await direct(text, variables);
    expect(catalogue.inProcessCounts).toEqual({ pipeline: before.pipeline + 1, direct: before.direct });
    expect(first).toEqual({ data: { _entities: [{ id: productId, externalId: expect.any(String), supplier: { id: supplierId } }, { id: supplierId, country: "CH" }] } });
    expect(await sameAsApollo(text, variables)).toEqual(first);
    expect(await sameAsApollo(text, { r: [{ __typename: "Supplier", id: supplierId }] })).toEqual({ data: { _entities: [{ id: supplierId, country: "CH" }] } });
  });

  it("does not admit a text whose answer had errors", async () => {
    const text = entitiesText();
    const missing = { r: [{ __typename: "Product", id: 2_000_000_000 }] };
    for (let call = 0; call < 2; call++) {
      const before = { ...catalogue.inProcessCounts };
      expect((await direct(text, missing)).errors?.[0].extensions?.code).toBe("NOT_FOUND");
      expect(catalogue.inProcessCounts.pipeline - before.pipeline).toBe(1);
    }
    const invalid = `# ${randomUUID()}\n query { noSuchField }`;
    for (let call = 0; call < 2; call++) {
      const before = { ...catalogue.inProcessCounts };
      expect((await direct(invalid, {})).errors?.[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
      expect(catalogue.inProcessCounts.pipeline - before.pipeline).toBe(1);
    }
  });

  describe("an admitted text", () => {
    let text: string;
    beforeAll(async () => {
      text = entitiesText();
      const before = { ...catalogue.inProcessCounts };
      await direct(text, { r: [{ __typename: "Supplier", id: supplierId }] });
      await direct(text, { r: [{ __typename: "Supplier", id: supplierId }] });
      expect(catalogue.inProcessCounts.direct - before.direct).toBe(1);
    });

    it("is still refused over the cost limit, by its variables", async () => {
      // Each representation costs what its widest fragment selects: 400,000 of them are over the subgraph's bound.
      const many = { r: Array.from({ length: 400_000 }, () => ({ __typename: "Supplier", id: supplierId })) };
      const answer = await sameAsApollo(text, many);
      expect(answer.data).toBeUndefined();
      expect(answer.errors?.[0].extensions).toMatchObject({ code: "GRAPHQL_VALIDATION_FAILED", reason: "COST_LIMIT_EXCEEDED" });
    });

    it("still refuses text no database can store in its variables", async () => {
      const answer = await sameAsApollo(text, { r: [{ __typename: "Supplier", id: supplierId, note: "a\u0000b" }] });
      expect(answer.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    });

    it("answers a variable of the wrong type with BAD_USER_INPUT, as Apollo Server does", async () => {
      const answer = await sameAsApollo(text, { r: null });
      expect(answer.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    });

    it("passes expected errors with their code and hides unexpected ones", async () => {
      const notFound = await sameAsApollo(text, { r: [{ __typename: "Supplier", id: 2_000_000_000 }] });
      expect(notFound.errors?.[0].extensions).toEqual({ code: "NOT_FOUND" });
      // An id no integer column holds: PostgreSQL (or PGlite) refuses it, which no rule expects.
      const unexpected = await sameAsApollo(text, { r: [{ __typename: "Supplier", id: "not-a-number" }] });
      expect(unexpected.errors?.[0]).toMatchObject({ message: "Internal server error", extensions: { code: "INTERNAL_SERVER_ERROR" } });
    });
  });
});
