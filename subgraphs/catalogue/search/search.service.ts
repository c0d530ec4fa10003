import { CountPrecision, OrderDirection, positionConnection, positionSlice, type Connection, type PagingArguments, type PositionPage } from "../../common/relay/relay.connection.js";
import { rejected } from "../../../core/refusals.js";
import { consumerAccess } from "../consumer.access.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { toProduct } from "../product/product.view.js";
import { ProductSortField, type Product, type ProductOrder } from "../product/product.type.js";
import { parseSearch, SearchSyntaxError } from "./search.expression.js";
import { compileSearch } from "./search.sql.js";
import { visibleToConsumers, type SearchRow, type SortingField } from "./product-search.repository.js";
import { and, type SQL } from "drizzle-orm";
import { startRecordLookups } from "../product/product.consumer-record.js";

export const MAX_SEARCH_PAGE_SIZE = 1000;

/** A search-ordered list's request: the expression (none: every product in play), its order and the paging arguments. */
export interface SearchRequest extends PagingArguments {
  query: string | null;
  orderBy: ProductOrder;
  /** Whether the operation asks for totalCount: otherwise it is neither counted nor estimated. */
  withTotal: boolean;
}

/** The repository's name of each order. */
const SORTED_BY: Record<ProductSortField, SortingField> = {
  TITLE: "title",
  RATING: "rating",
  NUMBER_OF_RATINGS: "numberOfRatings",
  MIN_PRICE: "minPrice",
  MAX_PRICE: "maxPrice",
  CITY_NAME: "cityName",
  CREATED_AT: "creationDate",
  UPDATED_AT: "updateDate",
  ID: "id",
};

export const DEFAULT_PRODUCT_ORDER: ProductOrder = { field: ProductSortField.TITLE, direction: OrderDirection.ASC };

/**
 * A page of a search-ordered list. The order is a ranking worked out per caller (its country's
 * products first, titles in its language), so a cursor is a position in it (positionSlice).
 */
export type SearchRows = PositionPage<SearchRow>;

/**
 * The paging, ordering and expression rules shared by search and change detection, over a base
 * condition (which products are in play). Each refusal names its argument.
 */
export async function pageSearch(
  ctx: CatalogueContext,
  request: SearchRequest,
  base: SQL,
  /** Work on the page's rows that need not wait for its total (the records' lookups). */
  onRows?: (rows: SearchRow[]) => void,
): Promise<SearchRows> {
  const { country } = await consumerAccess(ctx);
  // The ranking's end is not known without counting every match: it pages back from a cursor only.
  const { start, size, forward } = positionSlice(request, MAX_SEARCH_PAGE_SIZE, null);
  let where = base;
  const language = ctx.languages[0] ?? "en";
  if (request.query != null) {
    try {
      const tree = parseSearch(request.query);
      where = and(base, compileSearch(tree, { language }))!;
    } catch (error) {
      if (!(error instanceof SearchSyntaxError)) throw error;
      throw rejected("INVALID_SEARCH", `Search: ${error.message}`, [{ field: "query", rule: "syntax", message: error.message }]);
    }
  }
  // A page forward reads one row more than it answers: that row only says that more follow.
  const { rows, total } = await ctx.loaders.search.page(ctx.database.db, {
    where,
    sortingField: SORTED_BY[request.orderBy.field],
    descending: request.orderBy.direction === OrderDirection.DESC,
    preferredCountry: country,
    language,
    offset: start,
    limit: forward ? size + 1 : size,
    withTotal: request.withTotal,
    onRows: (read) => {
      const rows = read.slice(0, size);
      for (const row of rows) if (!row.deletedAt) ctx.loaders.product.prime(row.id, row);
      ctx.loaders.knowTaxonomyLinks(rows);
      onRows?.(rows);
    },
  });
  return {
    rows: rows.slice(0, size),
    start,
    hasNextPage: forward ? rows.length > size : true,
    hasPreviousPage: start > 0,
    total: total && { count: total.count, precision: total.estimated ? CountPrecision.ESTIMATED : CountPrecision.EXACT },
  };
}

/**
 * Search (spec 3): live, non-deprecated products matching the expression. With `records`, the
 * lookups of the consumer records start as soon as the page's rows are read, beside its total.
 */
export async function searchProducts(ctx: CatalogueContext, request: SearchRequest, records = false): Promise<Connection<Product>> {
  const page = await pageSearch(ctx, request, visibleToConsumers, records ? (rows) => startRecordLookups(ctx, rows) : undefined);
  return positionConnection(page, (row, cursor) => ({ cursor, node: toProduct(row) }));
}

/** A live product, for any caller who may read the catalogue; null for a key that names none. */
export async function consumerProduct(ctx: CatalogueContext, id: number | null): Promise<Product | null> {
  await consumerAccess(ctx);
  const row = id === null ? undefined : await ctx.loaders.product.load(id);
  return row ? toProduct(row) : null;
}
