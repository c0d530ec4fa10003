import { toGlobalId } from "../../core/global-id.js";
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningSubgraph } from "../../subgraphs/common/subgraph.running.js";
import { contentPartner, productRequest, supplierRequest } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

/**
 * The gateway's fetches and the subgraphs' service calls run a text through Apollo Server's
 * pipeline the first time and directly after it has answered once without errors
 * (`executeInProcess`, gateway/subgraph-server.ts). Each answer here is compared with the
 * one the subgraph's own Apollo Server gives for the same request: the direct path must keep
 * every rule and format every error the same way.
 */
describe("a subgraph called in process", () => {
  const t = useStack();
  let partner: Partner;
  let catalogue: RunningSubgraph;
  let productId: string;
  let supplierNumber: number;
  let supplierId: string;

  const context = () => catalogue.createContext({ authorization: `Bearer ${partner.token}` });
  /** A text no other test sends, so that its first call is the first in this process. */
  const entitiesText = () => `# ${randomUUID()}
    query ($r: [_Any!]!) { _entities(representations: $r) { ... on Product { id externalId supplier { id } } ... on Supplier { key: id countryCode } } }`;
  const throughApollo = async (query: string, variables: Record<string, unknown>) => {
    const response = await catalogue.server.executeOperation({ query, variables }, { contextValue: await context() });
    if (response.body.kind !== "single") throw new Error("incremental answer");
    return response.body.singleResult;
  };
  const direct = async (query: string, variables: Record<string, unknown>) => catalogue.executeInProcess({ query, variables }, await context());
  /** Runs the request in process (admitted text: directly) and checks the answer equals Apollo Server's, as the JSON a client would receive. */
  const sameAsApollo = async (query: string, variables: Record<string, unknown>) => {
    const before = { ...catalogue.inProcessCounts };
    const answer = await direct(query, variables);
    expect(catalogue.inProcessCounts.direct - before.direct).toBe(1);
    expect(JSON.parse(JSON.stringify(answer))).toStrictEqual(JSON.parse(JSON.stringify(await throughApollo(query, variables))));
    return answer;
  };
  /** Sends a fresh copy of `operation` once with `admitWith` (no errors: it is remembered), then checks every set of variables. */
  const eachSameAsApollo = async (operation: string, admitWith: Record<string, unknown>, cases: Record<string, unknown>[]) => {
    const text = `# ${randomUUID()}\n${operation}`;
    const first = await direct(text, admitWith);
    expect(first.errors, JSON.stringify(first.errors)).toBeUndefined();
    const answers = [];
    for (const variables of [admitWith, ...cases]) answers.push(await sameAsApollo(text, variables));
    return answers;
  };

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    catalogue = t.stack.service.edge!.subgraphs.catalogue!;
    supplierNumber = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    supplierId = toGlobalId("Supplier", supplierNumber);
    productId = toGlobalId("Product", (await partner.rest.post(`/api/supplier/${supplierNumber}/product`, productRequest())).body.id);
  });

  it("runs a text through the pipeline until it has answered without errors, then directly, with the same answers", async () => {
    const text = entitiesText();
    const variables = { r: [{ __typename: "Product", id: productId }, { __typename: "Supplier", id: supplierId }] };
    const before = { ...catalogue.inProcessCounts };
    const first = await direct(text, variables);
    expect(catalogue.inProcessCounts).toEqual({ pipeline: before.pipeline + 1, direct: before.direct });
    expect(first).toEqual({ data: { _entities: [{ id: productId, externalId: expect.any(String), supplier: { id: supplierId } }, { key: supplierId, countryCode: "CH" }] } });
    expect(await sameAsApollo(text, variables)).toEqual(first);
    expect(await sameAsApollo(text, { r: [{ __typename: "Supplier", id: supplierId }] })).toEqual({ data: { _entities: [{ key: supplierId, countryCode: "CH" }] } });
  });

  it("does not admit a text whose answer had errors", async () => {
    const text = entitiesText();
    const missing = { r: [{ __typename: "Product", id: toGlobalId("Product", 2_000_000_000) }] };
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

  describe("a direct execution", () => {
    const product = () => ({ __typename: "Product", id: productId });
    const supplier = () => ({ __typename: "Supplier", id: supplierId });
    const missing = { __typename: "Product", id: toGlobalId("Product", 2_000_000_000) };

    it("applies @skip and @include on fields, inline fragments and fragment spreads as Apollo Server does", async () => {
      const operation = `query ($r: [_Any!]!, $a: Boolean!, $b: Boolean!) {
        _entities(representations: $r) {
          __typename
          ... on Product @include(if: $a) { id t: title { language text translations { language text } } createdAt updatedAt metadata onlineBookable { language bookable } availableLanguages }
          ... on Product { externalId @skip(if: $b) id deprecated supplier { id ...Where @include(if: $b) } }
          ...Where @skip(if: $a)
          ... @include(if: $b) { ... on Supplier { i: id } }
        }
      }
      fragment Where on Supplier { countryCode country2: countryCode }`;
      const r = [product(), supplier(), product()];
      const answers = await eachSameAsApollo(operation, { r, a: true, b: true }, [
        { r, a: true, b: false },
        { r, a: false, b: true },
        { r, a: false, b: false },
      ]);
      const entities = (answer: (typeof answers)[number]) => answer.data?._entities as Record<string, unknown>[];
      expect(entities(answers[0])[0]).toMatchObject({ __typename: "Product", id: productId, supplier: { id: supplierId, countryCode: "CH", country2: "CH" } });
      expect(entities(answers[3])[1]).toEqual({ __typename: "Supplier", countryCode: "CH", country2: "CH" });
    });

    it("answers an error in one list item with the item's path and keeps the others", async () => {
      const operation = `query ($r: [_Any!]!) { _entities(representations: $r) { ... on Product { id title { translations { language text } } } ... on Supplier { key: id } } }`;
      const [, partial] = await eachSameAsApollo(operation, { r: [product()] }, [{ r: [product(), missing, supplier()] }]);
      expect(partial.data?._entities).toEqual([{ id: productId, title: { translations: expect.any(Array) } }, null, { key: supplierId }]);
      expect(partial.errors).toEqual([expect.objectContaining({ path: ["_entities", 1], extensions: { code: "NOT_FOUND" } })]);
    });

    it("nulls the whole answer for an error in a non-null root field, and serialises enums and dates", async () => {
      const operation = `query ($name: String!) { me { __typename username roles environment authenticatedAt organisation { name commercialModel } } suppliers(bookingEngineName: $name) { totalCount { count } } }`;
      const [found, gone] = await eachSameAsApollo(operation, { name: partner.engineName }, [{ name: "NO_SUCH_ENGINE" }]);
      expect(found.data?.me).toMatchObject({ __typename: "Account", roles: ["CONTENT_PARTNER"], authenticatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
      expect(gone.data).toBeNull();
      expect(gone.errors?.[0]).toMatchObject({ path: ["suppliers"], extensions: { code: "BAD_USER_INPUT", reason: "UNKNOWN_BOOKING_ENGINE" } });
    });

    it("uses the variables' defaults and refuses a value of the wrong type before executing", async () => {
      // A non-null variable with a default, omitted (the gateway copies clients' defaults into its fetches).
      const operation = `query ($id: ID!, $ext: String = "shop-7", $hide: Boolean! = false) {
        product(id: $id) { id externalId @skip(if: $hide) bookingLink(externalClientId: $ext) consumerRecord(externalClientId: $ext) }
      }`;
      const [omitted, , , hidden] = await eachSameAsApollo(operation, { id: productId }, [{ id: productId, ext: null }, { id: productId, ext: "other" }, { id: productId, hide: true }]);
      expect(omitted.data?.product).toMatchObject({ id: productId, externalId: expect.any(String) });
      expect(hidden.data?.product).not.toHaveProperty("externalId");
      const text = `# ${randomUUID()}\n${operation}`;
      await direct(text, { id: productId });
      const wrong = await sameAsApollo(text, { id: true });
      expect(wrong.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    });
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
      const notFound = await sameAsApollo(text, { r: [{ __typename: "Supplier", id: toGlobalId("Supplier", 2_000_000_000) }] });
      expect(notFound.errors?.[0].extensions).toEqual({ code: "NOT_FOUND" });
      // An id no integer column holds: PostgreSQL (or PGlite) refuses it, which no rule expects.
      const unexpected = await sameAsApollo(text, { r: [{ __typename: "Product", legacyResourceId: "not-a-number" }] });
      expect(unexpected.errors?.[0]).toMatchObject({ message: "Internal server error", extensions: { code: "INTERNAL_SERVER_ERROR" } });
    });
  });
});
