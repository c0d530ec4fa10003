import { and, asc, gte, inArray, sql, type SQL } from "drizzle-orm";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Field, Info, Int, ObjectType, Query, Resolver, registerEnumType } from "type-graphql";
import { asksFor } from "../../common/selection.js";
import { rejected } from "../../../core/refusals.js";
import type { Executor } from "../../../drizzle/database.js";
import { productChanges, products } from "../../../drizzle/schema.js";
import { consumerAccess } from "../consumer-access.js";
import type { CatalogueContext } from "../loaders.js";
import { startRecordLookups } from "../product/consumer-record.js";
import { toProduct } from "../product/product.service.js";
import { Product } from "../product/product.type.js";
import { isDate } from "../validation/checks.js";
import { visibleToConsumers } from "./product-search.repository.js";
import { pageSearch, type SearchRequest } from "./search.service.js";

export enum ChangeTypeFilter {
  NEW = "NEW",
  UPDATED = "UPDATED",
  DELETED = "DELETED",
  DEPRECATED = "DEPRECATED",
  UNDEPRECATED = "UNDEPRECATED",
  ALL = "ALL",
}
registerEnumType(ChangeTypeFilter, { name: "ChangeTypeFilter" });

/** Change detection looks back at most this many days (spec 3, Limits). */
export const MAX_LOOK_BACK_DAYS = 8;

@ObjectType()
export class ProductChangeEntry {
  @Field(() => String, { description: "NEW, UPDATED, DELETED, DEPRECATED or UNDEPRECATED" }) status!: string;
  @Field(() => Date) date!: Date;
}

@ObjectType()
export class ProductChangeItem {
  @Field(() => Product) product!: Product;
  @Field(() => [ProductChangeEntry], { description: "Operations since the date (all of them without a date), oldest first" }) changeLog!: ProductChangeEntry[];
}

@ObjectType()
export class ProductChangePage {
  @Field(() => Int) pageNumber!: number;
  @Field(() => Int) resultsPerPage!: number;
  @Field(() => Int) totalResults!: number;
  @Field(() => Boolean, { description: "totalResults is the planner's estimate: more than 1,000 products matched, the most that are counted exactly" }) totalResultsEstimated!: boolean;
  @Field(() => [ProductChangeItem]) items!: ProductChangeItem[];
}

/** Products changed since `since` (of one type, or any), deleted ones included; without it, the live catalogue. */
function changedSince(since: Date | null, changeType: ChangeTypeFilter): SQL {
  if (!since) return visibleToConsumers;
  const ofType = changeType === ChangeTypeFilter.ALL ? sql`true` : sql`${productChanges.changeType} = ${changeType}`;
  return sql`exists (select 1 from ${productChanges} where ${productChanges.productId} = ${products.id} and ${productChanges.changedAt} >= ${since.toISOString()}::timestamptz and ${ofType})`;
}

async function changeLogs(db: Executor, productIds: number[], since: Date | null) {
  if (!productIds.length) return new Map<number, ProductChangeEntry[]>();
  const rows = await db
    .select()
    .from(productChanges)
    .where(and(inArray(productChanges.productId, productIds), since ? gte(productChanges.changedAt, since) : undefined))
    .orderBy(asc(productChanges.changedAt), asc(productChanges.id));
  const logs = new Map<number, ProductChangeEntry[]>();
  for (const row of rows) {
    const log = logs.get(row.productId) ?? [];
    log.push({ status: row.changeType, date: row.changedAt });
    logs.set(row.productId, log);
  }
  return logs;
}

export async function productChangesSince(
  ctx: CatalogueContext,
  request: Omit<SearchRequest, "search"> & { search: string | null; date: string | null; changeType: ChangeTypeFilter },
  records = false,
): Promise<ProductChangePage> {
  await consumerAccess(ctx);
  let since: Date | null = null;
  if (request.date != null) {
    if (!isDate(request.date)) throw rejected("INVALID_DATE", "date must be an ISO 8601 date YYYY-MM-DD", [{ field: "date", rule: "date", message: "date must be YYYY-MM-DD" }]);
    since = new Date(`${request.date}T00:00:00Z`);
    const now = ctx.clock.now();
    const oldest = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - MAX_LOOK_BACK_DAYS));
    if (since < oldest) {
      throw rejected("DATE_TOO_OLD", `date may be at most ${MAX_LOOK_BACK_DAYS} days back (${oldest.toISOString().slice(0, 10)} or later)`, [
        { field: "date", rule: "maxLookBack", message: `date must be ${oldest.toISOString().slice(0, 10)} or later` },
      ]);
    }
    if (since > now) throw rejected("DATE_IN_FUTURE", "date must not be in the future", [{ field: "date", rule: "notFuture", message: "date must not be in the future" }]);
  }
  // The change logs, and with `records` the records' lookups, start once the page's rows are read, beside its total.
  let changes: Promise<Map<number, ProductChangeEntry[]>> | undefined;
  const page = await pageSearch(ctx, request, changedSince(since, request.changeType), (rows) => {
    changes = changeLogs(ctx.database.db, rows.map((row) => row.id), since);
    changes.catch(() => {});
    if (records) startRecordLookups(ctx, rows);
  });
  const logs = await (changes ?? changeLogs(ctx.database.db, page.rows.map((row) => row.id), since));
  return {
    pageNumber: page.pageNumber,
    resultsPerPage: page.resultsPerPage,
    totalResults: page.totalResults,
    totalResultsEstimated: page.totalResultsEstimated,
    items: page.rows.map((row) => ({ product: toProduct(row), changeLog: logs.get(row.id) ?? [] })),
  };
}

@Resolver()
export class ProductChangesResolver {
  @Query(() => ProductChangePage, { description: "Change detection (spec 3): products changed since a date, or the whole catalogue without one" })
  productChanges(
    @Arg("date", () => String, { nullable: true, description: "YYYY-MM-DD (UTC), at most 8 days back" }) date: string | null,
    @Arg("changeType", () => ChangeTypeFilter, { defaultValue: ChangeTypeFilter.ALL }) changeType: ChangeTypeFilter,
    @Arg("search", () => String, { nullable: true }) search: string | null,
    @Arg("pageNumber", () => Int, { defaultValue: 1 }) pageNumber: number,
    @Arg("resultsPerPage", () => Int, { defaultValue: 100 }) resultsPerPage: number,
    @Arg("sortingField", () => String, { defaultValue: "title" }) sortingField: string,
    @Arg("sortingOrder", () => String, { defaultValue: "asc" }) sortingOrder: string,
    @Ctx() ctx: CatalogueContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ProductChangePage> {
    return productChangesSince(ctx, { date, changeType, search, pageNumber, resultsPerPage, sortingField, sortingOrder }, asksFor(info, "consumerRecord"));
  }
}

