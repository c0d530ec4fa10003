import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../../drizzle/database.js";
import { bookingEngines, products } from "../../../drizzle/schema.js";
import type { productColumns } from "../product/product.repository.js";

/** What a run of an import asks for; `active`: live products, else those deleted or deprecated. */
export interface ImportMatch {
  kind: "active" | "inactive";
  modifiedSince: Date | null;
  countryCodes: string[] | null;
  bookingEngines: string[] | null;
  languages: string[] | null;
}

/** The statements of spec 3's imports: a run's filter, its keyset pages by id, and its count. */
export const activityImportRepository = {
  /** The products a run copies (active) or lists (inactive). */
  matching(db: Executor, match: ImportMatch): SQL {
    const conditions: (SQL | undefined)[] = [
      match.kind === "active" ? and(isNull(products.deletedAt), eq(products.deprecated, false)) : or(isNotNull(products.deletedAt), eq(products.deprecated, true)),
      match.modifiedSince ? gte(products.updateDate, match.modifiedSince) : undefined,
      match.countryCodes?.length ? inArray(products.countryCode, match.countryCodes) : undefined,
      match.bookingEngines?.length
        ? inArray(products.bookingEngineId, db.select({ id: bookingEngines.id }).from(bookingEngines).where(inArray(bookingEngines.name, match.bookingEngines)))
        : undefined,
      // The codes were checked as ISO 639-1 (two letters) before they reach here.
      match.languages?.length ? sql`${products.title} ?| ${sql.raw(`array[${match.languages.map((l) => `'${l}'`).join(",")}]`)}` : undefined,
    ];
    return and(...conditions)!;
  },

  /**
   * Up to `limit` matches after (`forward`) or before the id `position` (from the start when
   * null), by id. `columns`: what the page's answer reads, and no more.
   */
  page<C extends Partial<typeof productColumns>>(db: Executor, columns: C, where: SQL, position: number | null, forward: boolean, limit: number) {
    return db
      .select(columns as C & { id: typeof products.id })
      .from(products)
      .where(and(where, position === null ? undefined : forward ? gt(products.id, position) : lt(products.id, position)))
      .orderBy(forward ? asc(products.id) : desc(products.id))
      .limit(limit);
  },

  /** Matches counted up to `cap`: the count stops reading once it is past it. */
  async countUpTo(db: Executor, where: SQL, cap: number): Promise<number> {
    const [{ total }] = await db.select({ total: count() }).from(sql`(select 1 from ${products} where ${where} limit ${cap}) as capped`);
    return Number(total);
  },
};
