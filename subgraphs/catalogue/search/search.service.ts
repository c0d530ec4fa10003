import { notFound } from "../../../core/errors.js";
import { rejected } from "../../../core/refusals.js";
import { consumerAccess } from "../consumer-access.js";
import type { CatalogueContext } from "../loaders.js";
import { toProduct } from "../product/product.service.js";
import type { Product } from "../product/product.type.js";
import { parseSearch, SearchSyntaxError } from "./search-expression.js";
import { compileSearch } from "./search-sql.js";
import { productSearchRepository, sortingFields, visibleToConsumers, type SearchRow, type SortingField } from "./product-search.repository.js";
import { and, type SQL } from "drizzle-orm";
import type { ProductRow } from "../product/product.repository.js";
import { startRecordLookups } from "../product/consumer-record.js";

export const MAX_SEARCH_PAGE_SIZE = 1000;

export interface SearchRequest {
  search: string;
  pageNumber: number;
  resultsPerPage: number;
  sortingField: string;
  sortingOrder: string;
}

export interface SearchPage {
  pageNumber: number;
  resultsPerPage: number;
  totalResults: number;
  totalResultsEstimated: boolean;
  items: Product[];
}

export interface SearchRows {
  pageNumber: number;
  resultsPerPage: number;
  totalResults: number;
  totalResultsEstimated: boolean;
  rows: ProductRow[];
}

/**
 * The paging, sorting and expression rules shared by search and change detection, over a base
 * condition (which products are in play). Each documented 400 has its reason.
 */
export async function pageSearch(
  ctx: CatalogueContext,
  request: Omit<SearchRequest, "search"> & { search: string | null },
  base: SQL,
  /** Work on the page's rows that need not wait for its total (the records' lookups). */
  onRows?: (rows: SearchRow[]) => void,
): Promise<SearchRows> {
  const { country } = await consumerAccess(ctx);
  if (!Number.isInteger(request.resultsPerPage) || request.resultsPerPage < 1 || request.resultsPerPage > MAX_SEARCH_PAGE_SIZE) {
    throw rejected("INVALID_PAGE_SIZE", `resultsPerPage must be 1 to ${MAX_SEARCH_PAGE_SIZE}`, [
      { field: "resultsPerPage", rule: "range", message: `resultsPerPage must be 1 to ${MAX_SEARCH_PAGE_SIZE}` },
    ]);
  }
  if (!Number.isInteger(request.pageNumber) || request.pageNumber < 1) {
    throw rejected("INVALID_PAGE_NUMBER", "pageNumber must be 1 or more", [{ field: "pageNumber", rule: "minimum", message: "pageNumber must be 1 or more" }]);
  }
  if (!(sortingFields as readonly string[]).includes(request.sortingField)) {
    throw rejected("INVALID_SORTING_FIELD", `sortingField must be one of ${sortingFields.join(", ")}`, [
      { field: "sortingField", rule: "enum", message: `sortingField must be one of ${sortingFields.join(", ")}` },
    ]);
  }
  const order = request.sortingOrder.toLowerCase();
  if (order !== "asc" && order !== "desc") {
    throw rejected("INVALID_SORTING_ORDER", "sortingOrder must be asc or desc", [{ field: "sortingOrder", rule: "enum", message: "sortingOrder must be asc or desc" }]);
  }
  let where = base;
  const language = ctx.languages[0] ?? "en";
  if (request.search != null) {
    try {
      const tree = parseSearch(request.search);
      where = and(base, compileSearch(tree, { language }))!;
    } catch (error) {
      if (!(error instanceof SearchSyntaxError)) throw error;
      throw rejected("INVALID_SEARCH", `Search: ${error.message}`, [{ field: "Search", rule: "syntax", message: error.message }]);
    }
  }
  const { rows, total, totalEstimated } = await productSearchRepository.page(ctx.database.db, {
    where,
    sortingField: request.sortingField as SortingField,
    descending: order === "desc",
    preferredCountry: country,
    language,
    offset: (request.pageNumber - 1) * request.resultsPerPage,
    limit: request.resultsPerPage,
    onRows: (rows) => {
      for (const row of rows) if (!row.deletedAt) ctx.loaders.product.prime(row.id, row);
      ctx.loaders.knowTaxonomyLinks(rows);
      onRows?.(rows);
    },
  });
  if (rows.length === 0 && total > 0) throw notFound(`Page ${request.pageNumber} is past the last page (${totalEstimated ? "about " : ""}${Math.ceil(total / request.resultsPerPage)})`);
  return {
    pageNumber: request.pageNumber,
    resultsPerPage: request.resultsPerPage,
    totalResults: total,
    totalResultsEstimated: totalEstimated,
    rows,
  };
}

/**
 * Search (spec 3): live, non-deprecated products matching the expression. With `records`, the
 * lookups of the consumer records start as soon as the page's rows are read, beside its total.
 */
export async function searchProducts(ctx: CatalogueContext, request: SearchRequest, records = false): Promise<SearchPage> {
  const page = await pageSearch(ctx, request, visibleToConsumers, records ? (rows) => startRecordLookups(ctx, rows) : undefined);
  return { ...page, items: page.rows.map((row) => toProduct(row)) };
}

/** One product for a consumer: deprecated ones too (flagged by descriptors); deleted ones are 404. */
/** A live product, for any caller who may read the catalogue; null for a key that names none. */
export async function consumerProduct(ctx: CatalogueContext, id: number | null): Promise<Product | null> {
  await consumerAccess(ctx);
  const row = id === null ? undefined : await ctx.loaders.product.load(id);
  return row ? toProduct(row) : null;
}
