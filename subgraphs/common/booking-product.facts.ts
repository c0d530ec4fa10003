/**
 * What the booking flow needs to know of a catalogue product to sell it: the answer of the
 * catalogue's `bookingProductFacts` (subgraphs/catalogue/product/product.booking-facts.ts), asked through
 * the graph (booking never reads catalogue tables). Never fields that the catalogue resolves for
 * clients, which reach booking clients through the federated Product.
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

/** The most products `bookingProductFacts` answers in one call (the booking service batches by it). */
export const MAX_BOOKING_FACT_IDS = 100;
