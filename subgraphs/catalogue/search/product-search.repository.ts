import { and, asc, count, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../../drizzle/database.js";
import { products } from "../../../drizzle/schema.js";
import { productColumns, type ProductRow } from "../product/product.repository.js";

export const sortingFields = ["title", "rating", "numberOfRatings", "minPrice", "maxPrice", "cityName", "creationDate", "updateDate", "id"] as const;
export type SortingField = (typeof sortingFields)[number];

export interface SearchPageQuery {
  /** The whole filter, visibility included. */
  where: SQL;
  sortingField: SortingField;
  descending: boolean;
  /** The caller's organisation's country: its products come first. */
  preferredCountry: string | null;
  /** Titles sort in this language. */
  language: string;
  offset: number;
  limit: number;
  /** The expression has typo-tolerant criteria: they need the similarity threshold set. */
  fuzzy: boolean;
}

/** Word similarity from which a typo-tolerant title match counts ("musuem" finds "museum" at 0.43). */
export const WORD_SIMILARITY_THRESHOLD = 0.35;

/** Products a consumer may find: live, not deprecated. */
export const visibleToConsumers = and(isNull(products.deletedAt), eq(products.deprecated, false))!;

function sortExpression(field: SortingField, language: string): SQL {
  switch (field) {
    case "title":
      return sql`lower(coalesce(${products.title}->>${language}, ${products.title}->>'en', ${products.titleText}))`;
    case "cityName":
      return sql`lower(${products.cityName})`;
    default:
      return sql`${products[field]}`;
  }
}

export const productSearchRepository = {
  async page(db: Executor, query: SearchPageQuery): Promise<{ rows: ProductRow[]; total: number }> {
    const where = query.where;
    const direction = query.descending ? desc : asc;
    const order: SQL[] = [];
    if (query.preferredCountry) order.push(sql`(${products.countryCode} = ${query.preferredCountry}) desc`);
    order.push(sql`${direction(sortExpression(query.sortingField, query.language))} nulls last`, asc(products.id));
    const run = async (executor: Executor) => {
      // One pass gives the page and the total: the sort reads every match anyway.
      const found = await executor
        .select({ row: productColumns, total: sql<number>`count(*) over ()` })
        .from(products)
        .where(where)
        .orderBy(...order)
        .limit(query.limit)
        .offset(query.offset);
      if (found.length) return { rows: found.map((f) => f.row), total: Number(found[0].total) };
      // Past the last page the window has no row to report on.
      const [{ total }] = await executor.select({ total: count() }).from(products).where(where);
      return { rows: [], total: Number(total) };
    };
    if (!query.fuzzy) return run(db);
    // The `<%` operator reads its threshold from the session; SET LOCAL keeps it to this transaction.
    return db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(WORD_SIMILARITY_THRESHOLD)}, true)`);
      return run(tx);
    });
  },
};
