import { languageObjectOf } from "../../rest-compat/language-objects.js";
import { beforeAll, describe, expect, it } from "vitest";
import { catalogueFacts } from "../../subgraphs/booking/catalogue.facts.js";
import { MAX_BOOKING_FACT_IDS } from "../../subgraphs/common/booking-product.facts.js";
import { inProcessServiceGraphs } from "../../subgraphs/common/service.graph.js";
import type { RunningSubgraph } from "../../subgraphs/common/subgraph.running.js";
import { bookableProduct, type BookableProduct } from "../support/booking.js";
import { productRequest, signIn } from "../support/catalogue.js";
import { typedPeriodsOf } from "../../subgraphs/catalogue/product/availability-periods.type.js";
import { graphql, useStack } from "../support/stack.js";

const DAY = "{ open hours { start end } }";
const PERIODS = `weeklyPeriods { description startDate endDate closedDays monday ${DAY} tuesday ${DAY} wednesday ${DAY} thursday ${DAY} friday ${DAY} saturday ${DAY} sunday ${DAY} } spontaneousPeriod { description eventStarts }`;

const FACTS = `query ($ids: [Int!]!) { bookingProductFacts(ids: $ids) { id supplierId externalId title supplierName scopeEngineId bookingEngineName bookingEngineKind availabilityPeriods deprecated duration estCommFrpricePerc estCommNet minPrice } }`;

/**
 * What the booking flow reads of a catalogue product (`bookingProductFacts`, a narrow row instead
 * of the whole `Product` entity): the same facts the entity gives, for the booking service only.
 */
describe("a product's booking facts", () => {
  const t = useStack();
  let product: BookableProduct;
  let catalogue: RunningSubgraph;
  const asService = async (service: string, ids: unknown) => catalogue.executeInProcess({ query: FACTS, variables: { ids } }, catalogue.createServiceContext(service));

  beforeAll(async () => {
    product = await bookableProduct(t.stack, undefined, undefined, { duration: "PT3H", minPrice: 45.5, estCommNet: 12.25, estCommFrpricePerc: 0.18 });
    catalogue = t.stack.service.edge!.subgraphs.catalogue!;
  });

  it("are the facts the Product entity gives, null for unknown and deleted products", async () => {
    const { partner, supplierId, productId } = product;
    const deleted = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest())).body.id;
    expect((await partner.rest.delete(`/api/supplier/${supplierId}/product/${deleted}`)).status).toBe(200);

    const answer = await asService("booking", [productId, 2_000_000_000, deleted, productId]);
    expect(answer.errors).toBeUndefined();
    const [facts, unknown, gone, again] = (answer.data as { bookingProductFacts: (Record<string, unknown> | null)[] }).bookingProductFacts;
    expect([unknown, gone]).toEqual([null, null]);
    expect(again).toEqual(facts);

    const entity = await catalogue.executeInProcess(
      {
        query: `query ($r: [_Any!]!) { _entities(representations: $r) { ... on Product { legacyResourceId externalId title { translations { language text } } deprecated duration availabilityPeriods { ${PERIODS} } commissionTerms { netCommission commissionRate } minPrice { amount } bookingEngine { name kind } supplier { legacyResourceId name bookingEngine { legacyResourceId } } } } }`,
        variables: { r: [{ __typename: "Product", legacyResourceId: productId }] },
      },
      catalogue.createServiceContext("booking"),
    );
    const [full] = (entity.data as { _entities: Record<string, any>[] })._entities;
    expect(facts).toEqual({
      id: full.legacyResourceId,
      supplierId: full.supplier.legacyResourceId,
      externalId: full.externalId,
      title: languageObjectOf(full.title.translations),
      supplierName: full.supplier.name,
      scopeEngineId: full.supplier.bookingEngine.legacyResourceId,
      bookingEngineName: full.bookingEngine.name,
      bookingEngineKind: full.bookingEngine.kind,
      availabilityPeriods: expect.objectContaining({ weeklyPeriods: expect.any(Array) }),
      deprecated: full.deprecated,
      duration: "PT3H",
      estCommFrpricePerc: 0.18,
      estCommNet: 12.25,
      minPrice: 45.5,
    });
    // The kept document is what the entity answers typed.
    expect(full.availabilityPeriods).toEqual(typedPeriodsOf((facts as { availabilityPeriods: Record<string, unknown> }).availabilityPeriods));
    expect(full).toMatchObject({ duration: "PT3H", commissionTerms: { commissionRate: "0.18", netCommission: "12.25" }, minPrice: { amount: "45.50" } });
  });

  it("are what the booking service's loader answers, batched into one call", async () => {
    const loader = catalogueFacts(inProcessServiceGraphs((name) => t.stack.service.edge!.subgraphs[name])("booking")).product;
    const [facts, unknown] = await Promise.all([loader.load(product.productId), loader.load(2_000_000_000)]);
    expect(facts).toMatchObject({ id: product.productId, supplierId: product.supplierId, bookingEngineKind: "INVENTORY", duration: "PT3H" });
    expect(unknown).toBeUndefined();
  });

  it("are refused beyond the most ids a call", async () => {
    const answer = await asService("booking", Array.from({ length: MAX_BOOKING_FACT_IDS + 1 }, (_, i) => i + 1));
    expect(answer.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [expect.objectContaining({ field: "ids" })] });
  });

  it("are for the booking service only: not in the client API, refused to callers and to other services", async () => {
    const platformAccount = await t.stack.createAccount("PLATFORM_CATALOG_MANAGEMENT");
    const platform = await signIn(t.stack, platformAccount.username, platformAccount.password);
    for (const token of [product.partner.token, platform]) {
      const answer = await graphql(`${t.stack.url}/graphql`, token, FACTS, { ids: [product.productId] });
      expect(answer.body.errors?.[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
      const direct = await catalogue.executeInProcess({ query: FACTS, variables: { ids: [product.productId] } }, await catalogue.createContext({ authorization: `Bearer ${token}` }));
      expect(direct.errors?.[0].extensions?.code).toBe("FORBIDDEN");
      expect(direct.data).toBeNull();
    }
    const reporting = await asService("reporting", [product.productId]);
    expect(reporting.errors?.[0].extensions?.code).toBe("FORBIDDEN");
  });
});
