import { and, asc, count, desc, eq, getTableColumns, gt, gte, isNull, lt, sql, type SQL } from "drizzle-orm";
import { anyOf, compiledSelect } from "../../../drizzle/compiled-select.js";
import type { Executor } from "../../../drizzle/database.js";
import { bookingEngines, productChanges, products, productTaxonomies, suppliers } from "../../../drizzle/schema.js";
import type { ProductFacts } from "../../common/booking-product.facts.js";

/** Every column but the search ones, which are large and only ever used inside SQL. */
// Search's own columns (documents, sort keys, the taxonomy nodes the triggers keep) are never read as content.
const { titleDocument: _title, descriptionDocument: _description, titleText: _titleText, titleSortEn: _titleSortEn, taxonomyUuids: _taxonomyUuids, ...productColumns } = getTableColumns(products);
export { productColumns };
/** A product's columns with its taxonomy nodes: a page's taxonomy links then need no query of their own. */
export const productColumnsWithTaxonomy = { ...productColumns, taxonomyUuids: products.taxonomyUuids };

type SearchColumns = "titleDocument" | "descriptionDocument" | "titleText" | "titleSortEn" | "taxonomyUuids";
export type ProductRow = Omit<typeof products.$inferSelect, SearchColumns>;
export type ProductValues = Omit<typeof products.$inferInsert, "id" | "creationDate" | "updateDate" | "deletedAt" | "deprecated" | SearchColumns>;

const live = isNull(products.deletedAt);

// The product reads every consumer page and every booking step makes: built once (compiled-select.ts).
const liveProductsByIds = compiledSelect<{ ids: number[] }, ProductRow>((db) => db.select(productColumns).from(products).where(and(anyOf(products.id, "ids"), live)));
const productsWithOwnersByIds = compiledSelect<{ ids: number[] }, { product: ProductRow; engine: typeof bookingEngines.$inferSelect; supplier: typeof suppliers.$inferSelect }>((db) =>
  db
    .select({ product: productColumns, engine: getTableColumns(bookingEngines), supplier: getTableColumns(suppliers) })
    .from(products)
    .innerJoin(bookingEngines, eq(bookingEngines.id, products.bookingEngineId))
    .innerJoin(suppliers, eq(suppliers.id, products.supplierId))
    .where(anyOf(products.id, "ids")),
);
/** The narrow row a booking step asks of a live product (catalogue/product/product.booking-facts.ts). */
const liveBookingFactsByIds = compiledSelect<{ ids: number[] }, ProductFacts>((db) =>
  db
    .select({
      id: products.id,
      supplierId: products.supplierId,
      externalId: products.externalId,
      title: products.title,
      supplierName: suppliers.name,
      scopeEngineId: suppliers.bookingEngineId,
      bookingEngineName: bookingEngines.name,
      bookingEngineKind: bookingEngines.kind,
      availabilityPeriods: products.availabilityPeriods,
      deprecated: products.deprecated,
      duration: products.duration,
      estCommFrpricePerc: products.estCommFrpricePerc,
      estCommNet: products.estCommNet,
      minPrice: products.minPrice,
    })
    .from(products)
    .innerJoin(bookingEngines, eq(bookingEngines.id, products.bookingEngineId))
    .innerJoin(suppliers, eq(suppliers.id, products.supplierId))
    .where(and(anyOf(products.id, "ids"), live)),
);

/** Products with their taxonomy nodes' uuids, by id: a search page's rows. */
export const productsWithTaxonomyByIds = compiledSelect<{ ids: number[] }, ProductRow & { taxonomyUuids: string[] }>((db) =>
  db.select(productColumnsWithTaxonomy).from(products).where(anyOf(products.id, "ids")),
);

export interface ProductFilter {
  countryCode?: string | null;
  zipCode?: string | null;
  cityName?: string | null;
  /** At least this rating. */
  rating?: number | null;
  /** At least this many ratings. */
  numberOfRatings?: number | null;
}

/** The supplier's live products that match the filter. */
function ofSupplier(supplierId: number, filter: ProductFilter): SQL {
  const conditions = [eq(products.supplierId, supplierId), live];
  if (filter.countryCode) conditions.push(eq(products.countryCode, filter.countryCode));
  if (filter.zipCode) conditions.push(eq(products.zipCode, filter.zipCode));
  if (filter.cityName) conditions.push(sql`lower(${products.cityName}) = lower(${filter.cityName})`);
  if (filter.rating !== null && filter.rating !== undefined) conditions.push(gte(products.rating, filter.rating));
  if (filter.numberOfRatings !== null && filter.numberOfRatings !== undefined) conditions.push(gte(products.numberOfRatings, filter.numberOfRatings));
  return and(...conditions)!;
}

export const productRepository = {
  async liveByIds(db: Executor, ids: readonly number[]): Promise<ProductRow[]> {
    return ids.length ? liveProductsByIds(db, { ids: [...ids] }) : [];
  },

  /**
   * Products with the engine they are booked through and their supplier, in one statement: what
   * reads a product by reference (a booking step's facts, a report's rows) asks of it next.
   * Deleted products too, since bookings and reports keep referring to what was sold.
   */
  async anyByIdsWithOwners(db: Executor, ids: readonly number[]) {
    return ids.length ? productsWithOwnersByIds(db, { ids: [...ids] }) : [];
  },

  async liveBookingFactsByIds(db: Executor, ids: readonly number[]): Promise<ProductFacts[]> {
    return ids.length ? liveBookingFactsByIds(db, { ids: [...ids] }) : [];
  },

  async liveForUpdate(db: Executor, id: number): Promise<ProductRow | undefined> {
    const [row] = await db.select(productColumns).from(products).where(and(eq(products.id, id), live)).for("update");
    return row;
  },

  async liveByExternalIdForUpdate(db: Executor, scopeEngineId: number, externalId: string): Promise<ProductRow | undefined> {
    const [row] = await db
      .select(productColumns)
      .from(products)
      .where(and(eq(products.scopeEngineId, scopeEngineId), eq(products.externalId, externalId), live))
      .for("update");
    return row;
  },

  /**
   * Serialises writers of one externalId within an engine for the rest of the transaction, so
   * two concurrent pushes cannot both create it.
   */
  async lockExternalId(db: Executor, scopeEngineId: number, externalId: string): Promise<void> {
    await db.execute(sql`select pg_advisory_xact_lock(${scopeEngineId}, hashtext(${externalId}))`);
  },

  /** Every live product of the supplier, by number. */
  async ofSupplier(db: Executor, supplierId: number): Promise<ProductRow[]> {
    return db.select(productColumns).from(products).where(ofSupplier(supplierId, {})).orderBy(asc(products.id));
  },

  /** A page of the supplier's live products by number, read the way the page goes, beyond a number or past an offset. */
  async pageOfSupplier(db: Executor, supplierId: number, filter: ProductFilter, limit: number, descending: boolean, from: { id: number } | { offset: number } | null): Promise<ProductRow[]> {
    const beyond = from && "id" in from ? (descending ? lt(products.id, from.id) : gt(products.id, from.id)) : undefined;
    const query = db
      .select(productColumns)
      .from(products)
      .where(and(ofSupplier(supplierId, filter), beyond))
      .orderBy(descending ? desc(products.id) : asc(products.id))
      .limit(limit);
    return from && "offset" in from ? query.offset(from.offset) : query;
  },

  async countOfSupplier(db: Executor, supplierId: number, filter: ProductFilter): Promise<number> {
    const [{ total }] = await db.select({ total: count() }).from(products).where(ofSupplier(supplierId, filter));
    return Number(total);
  },

  async insert(db: Executor, values: ProductValues, now: Date): Promise<ProductRow> {
    const [row] = await db.insert(products).values({ ...values, creationDate: now, updateDate: now }).returning(productColumns);
    return row;
  },

  /** New products in one statement; their ids in the order of `values`. */
  async insertMany(db: Executor, values: readonly ProductValues[], now: Date): Promise<number[]> {
    if (!values.length) return [];
    const rows = await db
      .insert(products)
      .values(values.map((value) => ({ ...value, creationDate: now, updateDate: now })))
      .returning({ id: products.id });
    return rows.map((row) => row.id);
  },

  /**
   * The planner's statistics of the catalogue's tables, after a bulk write: without them it sorts
   * every match of a keyset or search page (180 ms instead of 3 ms at 100k products), until
   * autovacuum gets to them.
   */
  async refreshStatistics(db: Executor): Promise<void> {
    await db.execute(sql`analyze ${products}, ${productTaxonomies}, ${productChanges}, ${suppliers}`);
  },

  async replace(db: Executor, id: number, values: ProductValues, updateDate: Date): Promise<ProductRow> {
    const [row] = await db.update(products).set({ ...values, updateDate }).where(eq(products.id, id)).returning(productColumns);
    return row;
  },

  async setDeprecated(db: Executor, id: number, deprecated: boolean, updateDate: Date): Promise<ProductRow> {
    const [row] = await db.update(products).set({ deprecated, updateDate }).where(eq(products.id, id)).returning(productColumns);
    return row;
  },

  /**
   * Writes what the booking flow can sell. `version`: the booking service's tell, applied only when
   * newer than the last applied (tells can arrive out of order); undefined for the catalogue's own
   * finding (an OCTO import). `changed` is false when the product already showed it, or the tell
   * was stale; `row.bookingFlow` is what the product shows afterwards.
   */
  async setBookingFlow(
    db: Executor,
    id: number,
    bookingFlow: boolean,
    version: number | undefined,
    updateDate: (current: Date) => Date,
  ): Promise<{ row: ProductRow; changed: boolean } | undefined> {
    const [current] = await db.select().from(products).where(eq(products.id, id)).for("update");
    if (!current) return undefined;
    if (version !== undefined && version <= current.bookingFlowVersion) return { row: current, changed: false };
    const changed = current.bookingFlow !== bookingFlow;
    // A newer tell of what the product already shows still moves the version, or an older tell
    // between the two would then be taken as newer.
    if (!changed && version === undefined) return { row: current, changed };
    const [row] = await db
      .update(products)
      .set({ ...(changed ? { bookingFlow, updateDate: updateDate(current.updateDate) } : {}), ...(version === undefined ? {} : { bookingFlowVersion: version }) })
      .where(eq(products.id, id))
      .returning();
    return { row: row!, changed };
  },

  async markDeleted(db: Executor, id: number, at: Date): Promise<void> {
    await db.update(products).set({ deletedAt: at, updateDate: at }).where(eq(products.id, id));
  },

  /** Takes every live product of a supplier out of the catalogue; returns their ids. */
  async markDeletedOfSupplier(db: Executor, supplierId: number, at: Date): Promise<number[]> {
    const rows = await db
      .update(products)
      .set({ deletedAt: at, updateDate: at })
      .where(and(eq(products.supplierId, supplierId), live))
      .returning({ id: products.id });
    return rows.map((r) => r.id);
  },
};
