import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "../../drizzle/database.js";
import { bookingEngines, products, suppliers, type LanguageText } from "../../drizzle/schema.js";

/**
 * What the booking flow needs to know of a catalogue product to sell it: never fields that the
 * catalogue resolves for clients (those reach booking clients through the federated Product).
 */
export interface ProductFacts {
  id: number;
  supplierId: number;
  externalId: string;
  title: LanguageText;
  supplierName: string | null;
  /** The supplier's engine: the content partner that manages the product. */
  scopeEngineId: number;
  bookingEngineName: string;
  availabilityPeriods: Record<string, unknown> | null;
  deprecated: boolean;
  /** ISO 8601; the booked activity ends this long after its start. */
  duration: string | null;
  estCommFrpricePerc: number | null;
  estCommNet: number | null;
  minPrice: number | null;
}

export const productFactsRepository = {
  async live(db: Executor, productId: number): Promise<ProductFacts | undefined> {
    const [row] = await db
      .select({
        id: products.id,
        supplierId: products.supplierId,
        externalId: products.externalId,
        title: products.title,
        supplierName: suppliers.name,
        scopeEngineId: products.scopeEngineId,
        bookingEngineName: bookingEngines.name,
        availabilityPeriods: products.availabilityPeriods,
        deprecated: products.deprecated,
        duration: products.duration,
        estCommFrpricePerc: products.estCommFrpricePerc,
        estCommNet: products.estCommNet,
        minPrice: products.minPrice,
      })
      .from(products)
      .innerJoin(suppliers, eq(suppliers.id, products.supplierId))
      .innerJoin(bookingEngines, eq(bookingEngines.id, products.bookingEngineId))
      .where(and(eq(products.id, productId), isNull(products.deletedAt)));
    return row;
  },
};
