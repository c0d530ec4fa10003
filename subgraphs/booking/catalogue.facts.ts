import DataLoader from "dataloader";
import { MAX_BOOKING_FACT_IDS, type ProductFacts } from "../common/booking-product.facts.js";
import type { ServiceGraph } from "../common/service.graph.js";

export type { ProductFacts };

const PRODUCT_FACTS = `query BookingProductFacts($ids: [Int!]!) {
  bookingProductFacts(ids: $ids) {
    id supplierId externalId title supplierName scopeEngineId bookingEngineName bookingEngineKind availabilityPeriods deprecated duration estCommFrpricePerc estCommNet minPrice
  }
}`;

const ORGANISATION_ENGINES = `query BookingOrganisationEngines($representations: [_Any!]!) {
  _entities(representations: $representations) {
    ... on Organisation { legacyResourceId bookingEngine { legacyResourceId } }
  }
}`;

export interface CatalogueFacts {
  /** Live products (not deleted by their supplier); undefined for unknown or deleted ones. */
  product: DataLoader<number, ProductFacts | undefined>;
  /** The booking engine whose content an organisation manages, or null. */
  organisationEngine: DataLoader<number, number | null>;
}

/** One set per request (or per job): batched, and nothing is kept once it ends. */
export function catalogueFacts(graph: ServiceGraph): CatalogueFacts {
  return {
    product: new DataLoader(
      async (ids) => {
        const { bookingProductFacts } = await graph.request<{ bookingProductFacts: (ProductFacts | null)[] }>("catalogue", PRODUCT_FACTS, { ids });
        return bookingProductFacts.map((facts) => facts ?? undefined);
      },
      { maxBatchSize: MAX_BOOKING_FACT_IDS },
    ),
    organisationEngine: new DataLoader(async (ids) => {
      const { _entities } = await graph.request<{ _entities: ({ bookingEngine: { legacyResourceId: number } | null } | null)[] }>("catalogue", ORGANISATION_ENGINES, {
        representations: ids.map((legacyResourceId) => ({ __typename: "Organisation", legacyResourceId })),
      }, { missing: "null" });
      return _entities.map((entity) => entity?.bookingEngine?.legacyResourceId ?? null);
    }),
  };
}
