import { and, asc, desc, eq, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { rows as rawRows, type Executor } from "../../../drizzle/database.js";
import { products } from "../../../drizzle/schema.js";
import { productsWithTaxonomyByIds, type ProductRow } from "../product/product.repository.js";
import { countedTotal, estimatedTotal, type CountedTotal } from "./search.totals.js";

export const sortingFields = ["title", "rating", "numberOfRatings", "minPrice", "maxPrice", "cityName", "creationDate", "updateDate", "id"] as const;
export type SortingField = (typeof sortingFields)[number];

/**
 * Up to this many matches the total is counted; above it, it is the planner's estimate
 * (docs/spec-decisions.md, "Search totals"). Counting reads a heap row per match (a text or
 * taxonomy criterion cannot be answered from an index alone), so the limit bounds a page's
 * cost: 1,000 rows is ten pages of 100, where 10,000 would cost a million-product search
 * ten thousand row reads before its first answer.
 */
export const EXACT_TOTAL_LIMIT = 1_000;


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
  /** Counting stops here (EXACT_TOTAL_LIMIT unless a caller, such as a test, needs a small one). */
  exactTotalLimit?: number;
  /** False when nobody asked for the total: it is then neither counted nor estimated. */
  withTotal?: boolean;
  /** Called with the page's rows as soon as they are read, while the total may still be counted or estimated. */
  onRows?: (rows: SearchRow[]) => void;
}

/** A page's product with its taxonomy nodes' uuids, so that its links need no query of their own. */
export type SearchRow = ProductRow & { taxonomyUuids: string[] };

export interface SearchPageResult {
  rows: SearchRow[];
  /** Null when the query did not ask for it. */
  total: { count: number; /** An estimate: more than the exact-total limit matched. */ estimated: boolean } | null;
}


/** Products a consumer may find: live, not deprecated. */
export const visibleToConsumers = and(isNull(products.deletedAt), eq(products.deprecated, false))!;

function sortExpression(field: SortingField, language: string): SQL {
  switch (field) {
    case "title":
      // The same key, stored for English so that products_search_walk_en can hold it.
      if (language === "en") return sql`${products.titleSortEn}`;
      return sql`lower(coalesce(${products.title}->>${language}, ${products.title}->>'en', ${products.titleText}))`;
    case "cityName":
      return sql`lower(${products.cityName})`;
    default:
      return sql`${products[field]}`;
  }
}

/** Ids of one slice of the matches in the page order: only the sort keys are read, never the wide rows. */
async function orderedIds(db: Executor, where: SQL, order: SQL[], offset: number, limit: number): Promise<number[]> {
  if (limit <= 0) return [];
  const found = await db.select({ id: products.id }).from(products).where(where).orderBy(...order).limit(limit).offset(offset);
  return found.map((row) => row.id);
}

/** Matches counted up to `cap`: the count stops reading once it is past it. */
async function cappedCount(db: Executor, where: SQL, cap: number): Promise<number> {
  const [{ total }] = await rawRows<{ total: number }>(db, sql`select count(*)::int as total from (select 1 from ${products} where ${where} limit ${cap}) as capped`);
  return Number(total);
}

export const productSearchRepository = {
  /**
   * One page of matches and their total. The page is ordered on narrow rows (ids and sort keys)
   * and only its own rows are read whole; the preferred country's matches and the others are two
   * queries, the second run only when the page reaches past the first, so each can read an index
   * or sort a small set instead of ranking every match by a computed "is it the country" key.
   */
  async page(db: Executor, query: SearchPageQuery): Promise<SearchPageResult> {
    const cap = query.exactTotalLimit ?? EXACT_TOTAL_LIMIT;
    const direction = query.descending ? desc : asc;
    const order: SQL[] = [sql`${direction(sortExpression(query.sortingField, query.language))} nulls last`, asc(products.id)];
    const pageRows = async (executor: Executor): Promise<{ ids: number[]; rows: SearchRow[] }> => {
      let ids: number[];
      if (query.preferredCountry) {
        const home = and(query.where, eq(products.countryCode, query.preferredCountry))!;
        const abroad = and(query.where, or(ne(products.countryCode, query.preferredCountry), isNull(products.countryCode)))!;
        ids = await orderedIds(executor, home, order, query.offset, query.limit);
        if (ids.length < query.limit) {
          // The page runs past the country's matches: how many there are says where the others start.
          const homeCount = ids.length > 0 || query.offset === 0 ? query.offset + ids.length : await cappedCount(executor, home, query.offset);
          ids = ids.concat(await orderedIds(executor, abroad, order, Math.max(0, query.offset - homeCount), query.limit - ids.length));
        }
      } else {
        ids = await orderedIds(executor, query.where, order, query.offset, query.limit);
      }
      const wide = ids.length ? await productsWithTaxonomyByIds(executor, { ids }) : [];
      const byId = new Map(wide.map((row) => [row.id, row]));
      // A row deleted between the two reads is left out rather than answered half-known.
      const rows = ids.flatMap((id) => byId.get(id) ?? []);
      query.onRows?.(rows);
      return { ids, rows };
    };
    // The matches are counted (up to the cap) beside the page, on another connection of the pool:
    // the count takes as long as the page at a million products, and a page that turns out not to
    // be full (its total then known without it) had few matches, so counting them cost little.
    // A page reaching past the cap is either not full (its total known) or answered an estimate.
    // Work memory and the `<%` operator's threshold are the connections' own (SESSION_SETTINGS).
    // The count is kept by the process while the catalogue is unchanged (search.totals.ts).
    if (query.withTotal === false) return { rows: (await pageRows(db)).rows, total: null };
    const counting = query.offset + query.limit > cap ? Promise.resolve(undefined) : countedTotal(db, query.where, cap + 1);
    const [page, counted] = await Promise.all([pageRows(db), counting]);
    return { rows: page.rows, total: await totalOf(db, query, page.ids.length, cap, counted) };
  },
};

/**
 * The total of a page of `found` rows at the query's offset. A page that is not full ends the
 * matches, so its total is known; otherwise it is the matches `counted` up to the limit, and above
 * it the planner's estimate (never below what the page itself proves).
 */
async function totalOf(db: Executor, query: SearchPageQuery, found: number, cap: number, counted: CountedTotal | undefined): Promise<{ count: number; estimated: boolean }> {
  if (found > 0 && found < query.limit) return { count: query.offset + found, estimated: false };
  if (found === 0 && query.offset === 0) return { count: 0, estimated: false };
  const atLeast = query.offset + found;
  // Counted in another statement, so a match made in between may show in one and not the other:
  // a full page still proves its own rows.
  if (counted && atLeast <= cap && counted.counted <= cap) return { count: found > 0 ? Math.max(counted.counted, atLeast) : counted.counted, estimated: false };
  const estimate = await estimatedTotal(db, query.where, counted);
  return { count: Math.max(estimate, cap + 1, atLeast), estimated: true };
}
