import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { gatewayOperationCounts } from "../../gateway/operation-cache.js";
import { contentPartner, supplierRequest } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

/**
 * The gateway's per-request `Operation` (what it shapes the answer by) is built once per parsed
 * operation and reused: the answer must still follow each request's own variables.
 */
describe("the gateway reuses the operation it shapes answers by", () => {
  const t = useStack();
  let partner: Partner;
  let supplierId: number;
  const gql = (query: string, variables: Record<string, unknown>) => graphql(`${t.stack.url}/graphql`, partner.token, query, variables);

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    const created = await gql(`mutation ($input: SupplierInput!) { createSupplier(input: $input) { id } }`, { input: supplierRequest() });
    supplierId = created.body.data!.createSupplier.id;
  });

  /** A text no other test sends, so its first request is a miss in any process. */
  const operation = () => `# ${randomUUID()}
    query ($id: Int!, $withEngine: Boolean!, $skipName: Boolean! = false) {
      supplier(id: $id) { id ...Names engine: bookingEngine @include(if: $withEngine) { name } }
    }
    fragment Names on Supplier { name @skip(if: $skipName) country }`;

  it("builds it on the first request of a text and reuses it after, each answer shaped by its own variables", async () => {
    const text = operation();
    const before = gatewayOperationCounts();
    const full = await gql(text, { id: supplierId, withEngine: true });
    const afterFirst = gatewayOperationCounts();
    const narrow = await gql(text, { id: supplierId, withEngine: false, skipName: true });
    const afterSecond = gatewayOperationCounts();

    expect(full.body.errors).toBeUndefined();
    expect(full.body.data!.supplier).toEqual({ id: supplierId, name: expect.any(String), country: "CH", engine: { name: partner.engineName } });
    expect(narrow.body.errors).toBeUndefined();
    expect(narrow.body.data!.supplier).toEqual({ id: supplierId, country: "CH" });

    expect(afterFirst.built - before.built).toBe(1);
    expect(afterSecond.built - afterFirst.built).toBe(0);
    expect(afterSecond.reused - afterFirst.reused).toBe(1);
  });

  it("builds anew for another text of the same shape", async () => {
    await gql(operation(), { id: supplierId, withEngine: false });
    const before = gatewayOperationCounts();
    const other = await gql(operation(), { id: supplierId, withEngine: true });
    expect(other.body.data!.supplier.engine).toEqual({ name: partner.engineName });
    expect(gatewayOperationCounts().built - before.built).toBe(1);
  });
});
