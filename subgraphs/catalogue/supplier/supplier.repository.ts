import { and, asc, count, desc, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import { anyOf, compiledSelect } from "../../../drizzle/compiled-select.js";
import type { Executor } from "../../../drizzle/database.js";
import { products, suppliers } from "../../../drizzle/schema.js";

export type SupplierRow = typeof suppliers.$inferSelect;
export type SupplierValues = Omit<typeof suppliers.$inferInsert, "id" | "creationDate" | "updateDate" | "deletedAt">;

const live = isNull(suppliers.deletedAt);

// Every page of records and every booking step names its products' suppliers: built once (compiled-select.ts).
const liveSuppliersByIds = compiledSelect<{ ids: number[] }, SupplierRow>((db) => db.select().from(suppliers).where(and(anyOf(suppliers.id, "ids"), live)));
const suppliersByIds = compiledSelect<{ ids: number[] }, SupplierRow>((db) => db.select().from(suppliers).where(anyOf(suppliers.id, "ids")));

export const supplierRepository = {
  async liveByIds(db: Executor, ids: readonly number[]): Promise<SupplierRow[]> {
    return ids.length ? liveSuppliersByIds(db, { ids: [...ids] }) : [];
  },

  /** Deleted ones included: a deleted product in change detection still names its supplier. */
  async byIds(db: Executor, ids: readonly number[]): Promise<SupplierRow[]> {
    return ids.length ? suppliersByIds(db, { ids: [...ids] }) : [];
  },

  /** Locks the supplier row, so that concurrent writes to one supplier apply one after another. */
  async liveForUpdate(db: Executor, id: number): Promise<SupplierRow | undefined> {
    const [row] = await db.select().from(suppliers).where(and(eq(suppliers.id, id), live)).for("update");
    return row;
  },

  async liveByExternalId(db: Executor, engineId: number, externalId: string): Promise<SupplierRow | undefined> {
    const [row] = await db
      .select()
      .from(suppliers)
      .where(and(eq(suppliers.bookingEngineId, engineId), eq(suppliers.externalId, externalId), live));
    return row;
  },

  async liveByExternalIds(db: Executor, engineId: number, externalIds: readonly string[]): Promise<SupplierRow[]> {
    if (!externalIds.length) return [];
    return db
      .select()
      .from(suppliers)
      .where(and(eq(suppliers.bookingEngineId, engineId), inArray(suppliers.externalId, [...externalIds]), live));
  },

  /**
   * Up to `limit` live suppliers of an engine by number, ascending or descending, from a position:
   * beyond a supplier's number, or past the first `offset` of the order (REST's numbered pages).
   */
  async pageOfEngine(db: Executor, engineId: number, limit: number, descending: boolean, from: { id: number } | { offset: number } | null): Promise<SupplierRow[]> {
    const beyond = from && "id" in from ? (descending ? lt(suppliers.id, from.id) : gt(suppliers.id, from.id)) : undefined;
    const query = db
      .select()
      .from(suppliers)
      .where(and(eq(suppliers.bookingEngineId, engineId), live, beyond))
      .orderBy(descending ? desc(suppliers.id) : asc(suppliers.id))
      .limit(limit);
    return from && "offset" in from ? query.offset(from.offset) : query;
  },

  async countOfEngine(db: Executor, engineId: number): Promise<number> {
    const [{ total }] = await db.select({ total: count() }).from(suppliers).where(and(eq(suppliers.bookingEngineId, engineId), live));
    return Number(total);
  },

  async insert(db: Executor, values: SupplierValues, now: Date): Promise<SupplierRow> {
    const [row] = await db.insert(suppliers).values({ ...values, creationDate: now, updateDate: now }).returning();
    return row;
  },

  async update(db: Executor, id: number, values: SupplierValues, now: Date): Promise<SupplierRow> {
    const [row] = await db.update(suppliers).set({ ...values, updateDate: now }).where(eq(suppliers.id, id)).returning();
    return row;
  },

  async markDeleted(db: Executor, id: number, now: Date): Promise<void> {
    await db.update(suppliers).set({ deletedAt: now, updateDate: now }).where(eq(suppliers.id, id));
  },

  /**
   * Suppliers (of those given) with at least one live, non-deprecated product that can be booked
   * online: through the booking flow (as booking has told), or at a booking URL.
   */
  async withBookableProducts(db: Executor, ids: readonly number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await db
      .selectDistinct({ supplierId: products.supplierId })
      .from(products)
      .where(
        and(
          inArray(products.supplierId, [...ids]),
          isNull(products.deletedAt),
          eq(products.deprecated, false),
          sql`(${products.bookingFlow} or coalesce(${products.bookingUrl}, '{}'::jsonb) <> '{}'::jsonb)`,
        ),
      );
    return new Set(rows.map((r) => r.supplierId));
  },
};
