import DataLoader from "dataloader";
import type { ServiceGraph } from "../common/service-graph.js";

/**
 * What the booking flow needs to know of a catalogue product to sell it, asked of the catalogue
 * through the graph (booking never reads catalogue tables): never fields that the catalogue
 * resolves for clients, which reach booking clients through the federated Product.
 */
type LanguageText = Record<string, string>;

export interface ProductFacts {
  id: number;
  supplierId: number;
  externalId: string;
  title: LanguageText;
  supplierName: string | null;
  /** The supplier's engine: the content partner that manages the product. */
  scopeEngineId: number;
  bookingEngineName: string;
  /** INVENTORY: sold through a booking setup; OCTO: booked in the supplier's own system. */
  bookingEngineKind: string;
  availabilityPeriods: Record<string, unknown> | null;
  deprecated: boolean;
  /** ISO 8601; the booked activity ends this long after its start. */
  duration: string | null;
  /** The commission terms, recorded on each booking as it is made. */
  estCommFrpricePerc: number | null;
  estCommNet: number | null;
  minPrice: number | null;
}

interface ProductEntity {
  id: number;
  supplierId: number;
  externalId: string;
  title: { translations: LanguageText };
  deprecated: boolean;
  removed: boolean;
  duration: string | null;
  availabilityPeriods: Record<string, unknown> | null;
  estCommFrpricePerc: number | null;
  estCommNet: number | null;
  minPrice: number | null;
  bookingEngine: { name: string; kind: string };
  supplier: { name: string | null; bookingEngine: { id: number } };
}

const PRODUCT_FACTS = `query BookingProductFacts($representations: [_Any!]!) {
  _entities(representations: $representations) {
    ... on Product {
      id supplierId externalId title { translations } deprecated removed duration availabilityPeriods estCommFrpricePerc estCommNet minPrice
      bookingEngine { name kind }
      supplier { name bookingEngine { id } }
    }
  }
}`;

const ORGANISATION_ENGINES = `query BookingOrganisationEngines($representations: [_Any!]!) {
  _entities(representations: $representations) {
    ... on Organisation { id bookingEngine { id } }
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
    product: new DataLoader(async (ids) => {
      const { _entities } = await graph.request<{ _entities: (ProductEntity | null)[] }>("catalogue", PRODUCT_FACTS, {
        representations: ids.map((id) => ({ __typename: "Product", id })),
      }, { missing: "null" });
      return _entities.map((entity) => (entity && !entity.removed ? toFacts(entity) : undefined));
    }),
    organisationEngine: new DataLoader(async (ids) => {
      const { _entities } = await graph.request<{ _entities: ({ bookingEngine: { id: number } | null } | null)[] }>("catalogue", ORGANISATION_ENGINES, {
        representations: ids.map((id) => ({ __typename: "Organisation", id })),
      }, { missing: "null" });
      return _entities.map((entity) => entity?.bookingEngine?.id ?? null);
    }),
  };
}

function toFacts(entity: ProductEntity): ProductFacts {
  return {
    id: entity.id,
    supplierId: entity.supplierId,
    externalId: entity.externalId,
    title: entity.title.translations,
    supplierName: entity.supplier.name,
    scopeEngineId: entity.supplier.bookingEngine.id,
    bookingEngineName: entity.bookingEngine.name,
    bookingEngineKind: entity.bookingEngine.kind,
    availabilityPeriods: entity.availabilityPeriods,
    deprecated: entity.deprecated,
    duration: entity.duration,
    estCommFrpricePerc: entity.estCommFrpricePerc,
    estCommNet: entity.estCommNet,
    minPrice: entity.minPrice,
  };
}
