import { notFound, rejected } from "../../../core/errors.js";
import { consumerAccess } from "../consumer-access.js";
import type { CatalogueContext } from "../loaders.js";
import { toProduct } from "../product/product.service.js";
import type { Product } from "../product/product.type.js";
import { criteriaOf, parseSearch, SearchSyntaxError } from "./search-expression.js";
import { compileSearch } from "./search-sql.js";
import { productSearchRepository, sortingFields, type SortingField } from "./product-search.repository.js";

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
  items: Product[];
}

/**
 * Search (spec 3): a parsed expression over the catalogue, the caller's country first, then the
 * sorting field. Each documented 400 has its reason.
 */
export async function searchProducts(ctx: CatalogueContext, request: SearchRequest): Promise<SearchPage> {
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
  let condition;
  let fuzzy = false;
  const language = ctx.languages[0] ?? "en";
  try {
    const tree = parseSearch(request.search);
    fuzzy = criteriaOf(tree).some((criterion) => criterion.operator === "~");
    condition = compileSearch(tree, { language });
  } catch (error) {
    if (!(error instanceof SearchSyntaxError)) throw error;
    throw rejected("INVALID_SEARCH", `Search: ${error.message}`, [{ field: "Search", rule: "syntax", message: error.message }]);
  }
  const offset = (request.pageNumber - 1) * request.resultsPerPage;
  const { rows, total } = await productSearchRepository.page(ctx.database.db, {
    condition,
    sortingField: request.sortingField as SortingField,
    descending: order === "desc",
    preferredCountry: country,
    language,
    offset,
    limit: request.resultsPerPage,
    fuzzy,
  });
  if (rows.length === 0 && total > 0) throw notFound(`Page ${request.pageNumber} is past the last page (${Math.ceil(total / request.resultsPerPage)})`);
  const engines = await ctx.loaders.bookingEngine.loadMany([...new Set(rows.map((row) => row.bookingEngineId))]);
  const engineById = new Map(engines.flatMap((engine) => (engine && !(engine instanceof Error) ? [[engine.id, engine] as const] : [])));
  for (const row of rows) ctx.loaders.product.prime(row.id, row);
  return { pageNumber: request.pageNumber, resultsPerPage: request.resultsPerPage, totalResults: total, items: rows.map((row) => toProduct(row, engineById.get(row.bookingEngineId))) };
}

/** One product for a consumer: deprecated ones too (flagged by descriptors); deleted ones are 404. */
export async function consumerProduct(ctx: CatalogueContext, id: number): Promise<Product> {
  await consumerAccess(ctx);
  const row = await ctx.loaders.product.load(id);
  if (!row) throw notFound(`Product ${id} not found`);
  return toProduct(row, await ctx.loaders.bookingEngine.load(row.bookingEngineId));
}
