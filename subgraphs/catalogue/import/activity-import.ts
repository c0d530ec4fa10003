import { and, asc, count, eq, gt, gte, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Field, FieldResolver, Float, Info, Int, ObjectType, Query, Resolver, Root } from "type-graphql";
import { rejected, type RefusalCode } from "../../../core/refusals.js";
import { rows as rawRows } from "../../../drizzle/database.js";
import { bookingEngines, products } from "../../../drizzle/schema.js";
import { consumerAccess } from "../consumer-access.js";
import type { CatalogueContext } from "../loaders.js";
import { JSONObjectScalar } from "../../common/json-scalars.js";
import { asksFor } from "../../common/selection.js";
import { productColumns, productColumnsWithTaxonomy, type ProductRow } from "../product/product.repository.js";
import { toProduct } from "../product/product.service.js";
import { Product } from "../product/product.type.js";
import { isCountryCode, isLanguageCode } from "../../../core/iso-codes.js";
import { CursorError, decodeCursor, encodeCursor, filtersDigest } from "./import-cursor.js";
import { importRecordColumns, importRecords, type ImportRecord, type ImportRow } from "./import-record.js";

export const MAX_IMPORT_PAGE = 1000;
/** How far back the inactive import looks (spec 3 leaves the number of days open). */
export const INACTIVE_MAX_AGE_DAYS = 30;
/** Below this many matches the count is exact; above it, the planner's estimate. */
const EXACT_COUNT_LIMIT = 10_000;
const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

@ObjectType()
export class InactiveActivity {
  @Field(() => Int) id!: number;
}

@ObjectType()
export class ActiveActivityPage {
  /** The page's rows: `records` are built from them only when asked for. */
  rows!: ImportRow[];
  /** The same rows whole, read only when `data` is asked for. */
  products!: ProductRow[] | null;
  /** languageList of the request: records keep texts in these languages only. */
  languages!: string[] | null;
  @Field(() => Float, { description: "Approximate number of matching activities" }) estimatedCount!: number;
  @Field(() => String, { nullable: true, description: "Null on the last page" }) nextCursor!: string | null;
  @Field(() => String, { description: "When this run began: use it as modifiedSince for the next run" }) asOf!: string;
}

@ObjectType()
export class InactiveActivityPage {
  @Field(() => [InactiveActivity]) data!: InactiveActivity[];
  @Field(() => Float) estimatedCount!: number;
  @Field(() => String, { nullable: true }) nextCursor!: string | null;
  @Field(() => String) asOf!: string;
}

interface ImportRequest {
  countryCodes: string[] | null;
  bookingEngines: string[] | null;
  languages: string[] | null;
  modifiedSince: string | null;
  cursor: string | null;
  limit: number;
}

/** An argument left out of the operation arrives as undefined: it means the same as null. */
const importRequest = (args: { [K in keyof ImportRequest]: ImportRequest[K] | undefined }): ImportRequest => ({
  countryCodes: args.countryCodes ?? null,
  bookingEngines: args.bookingEngines ?? null,
  languages: args.languages ?? null,
  modifiedSince: args.modifiedSince ?? null,
  cursor: args.cursor ?? null,
  limit: args.limit ?? 100,
});

const problem = (reason: RefusalCode, field: string, message: string) => rejected(reason, message, [{ field, rule: reason.toLowerCase(), message }]);

/** The checks both imports share, in the order of spec 3's error table. */
async function prepare(ctx: CatalogueContext, kind: "active" | "inactive", request: ImportRequest) {
  await consumerAccess(ctx);
  if (ctx.caller.organisationId === null) throw problem("ORGANISATION_REQUIRED", "organisation", "The import needs an account of an organisation (its commercial model shapes the prices)");
  if (!Number.isInteger(request.limit) || request.limit < 1) throw problem("PAGE_SIZE_TOO_SMALL", "page[limit]", "page[limit] must be 1 or more");
  if (request.limit > MAX_IMPORT_PAGE) throw problem("PAGE_SIZE_TOO_LARGE", "page[limit]", `page[limit] must be at most ${MAX_IMPORT_PAGE}`);
  for (const code of request.countryCodes ?? []) if (!isCountryCode(code)) throw problem("INVALID_COUNTRY", "countryCodeList", `${code} is not an ISO 3166-1 alpha-2 code`);
  for (const code of request.languages ?? []) if (!isLanguageCode(code)) throw problem("INVALID_LANGUAGE", "languageList", `${code} is not an ISO 639-1 code`);
  if (kind === "inactive" && request.modifiedSince === null && request.cursor === null) {
    throw problem("MODIFIED_SINCE_OR_CURSOR_REQUIRED", "modifiedSince", "Give modifiedSince or cursor (or both)");
  }
  const now = ctx.clock.now();
  let modifiedSince: Date | null = null;
  if (request.modifiedSince !== null) {
    modifiedSince = new Date(request.modifiedSince);
    if (!UTC_DATE_TIME.test(request.modifiedSince) || Number.isNaN(modifiedSince.getTime()) || modifiedSince.toISOString() !== request.modifiedSince) {
      throw problem("INVALID_MODIFIED_SINCE", "modifiedSince", "modifiedSince must be a UTC date-time yyyy-MM-ddTHH:mm:ss.SSSZ");
    }
    if (kind === "inactive" && now.getTime() - modifiedSince.getTime() > INACTIVE_MAX_AGE_DAYS * 86_400_000) {
      throw problem("MODIFIED_SINCE_TOO_OLD", "modifiedSince", `modifiedSince may be at most ${INACTIVE_MAX_AGE_DAYS} days back`);
    }
  }
  // modifiedSince and the page size may change between pages; the other filters may not.
  const filters = filtersDigest({ c: request.countryCodes, b: request.bookingEngines, l: request.languages });
  let lastId = 0;
  let asOf = now.toISOString();
  let carriedCount: number | null = null;
  if (request.cursor !== null) {
    try {
      const state = await decodeCursor(ctx.database.db, request.cursor, { kind, filters, now });
      lastId = state.lastId;
      asOf = state.asOf;
      if (state.count && state.count.modifiedSince === request.modifiedSince) carriedCount = state.count.value;
    } catch (error) {
      if (error instanceof CursorError) throw problem("INVALID_CURSOR", "cursor", error.message);
      throw error;
    }
    if (modifiedSince && modifiedSince.toISOString() > asOf) throw problem("MODIFIED_SINCE_AFTER_CURSOR", "modifiedSince", "modifiedSince is newer than the cursor's run");
  }
  const conditions: (SQL | undefined)[] = [
    kind === "active" ? and(isNull(products.deletedAt), eq(products.deprecated, false)) : or(isNotNull(products.deletedAt), eq(products.deprecated, true)),
    modifiedSince ? gte(products.updateDate, modifiedSince) : undefined,
    request.countryCodes?.length ? inArray(products.countryCode, request.countryCodes) : undefined,
    request.bookingEngines?.length
      ? inArray(products.bookingEngineId, ctx.database.db.select({ id: bookingEngines.id }).from(bookingEngines).where(inArray(bookingEngines.name, request.bookingEngines)))
      : undefined,
    request.languages?.length ? sql`${products.title} ?| ${sql.raw(`array[${request.languages.map((l) => `'${l}'`).join(",")}]`)}` : undefined,
  ];
  const where = and(...conditions)!;
  return { where, lastId, asOf, filters, carriedCount };
}

async function estimatedCount(ctx: CatalogueContext, where: SQL): Promise<number> {
  const [{ total }] = await ctx.database.db.select({ total: count() }).from(sql`(select 1 from ${products} where ${where} limit ${EXACT_COUNT_LIMIT + 1}) as capped`);
  if (Number(total) <= EXACT_COUNT_LIMIT) return Number(total);
  const [plan] = await rawRows<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(ctx.database.db, sql`explain (format json) select 1 from ${products} where ${where}`);
  return Math.max(EXACT_COUNT_LIMIT, Math.round(plan["QUERY PLAN"][0].Plan["Plan Rows"]));
}

/**
 * One keyset page by id: later changes never make a record repeat or another one be skipped.
 * `columns` are what the page's answer reads: a page of import records reads a third of a
 * product's columns (not its other texts, periods, itinerary, metadata).
 */
async function keysetPage<C extends Partial<typeof productColumns>>(ctx: CatalogueContext, kind: "active" | "inactive", request: ImportRequest, columns: C) {
  const { where, lastId, asOf, filters, carriedCount } = await prepare(ctx, kind, request);
  // The count does not depend on the page: the first page counts (on PostgreSQL on another
  // connection, meanwhile) and its cursor carries the count to the run's later pages. Counting
  // 10,001 matches a page was 16 ms of the database's time at 100,000 products, for a number that
  // is approximate anyway and that a run is better off seeing stay put.
  const [rows, total] = await Promise.all([
    ctx.database.db
      .select(columns as C & { id: typeof products.id })
      .from(products)
      .where(and(where, gt(products.id, lastId)))
      .orderBy(asc(products.id))
      .limit(request.limit + 1),
    carriedCount ?? estimatedCount(ctx, where),
  ]);
  const page = rows.slice(0, request.limit);
  const more = rows.length > request.limit;
  const nextCursor = more ? await encodeCursor(ctx.database.db, { kind, lastId: page.at(-1)!.id, asOf, filters, count: { value: total, modifiedSince: request.modifiedSince } }) : null;
  return { page, nextCursor, asOf, estimatedCount: total };
}

@Resolver()
export class ActivityImportResolver {
  @Query(() => ActiveActivityPage, { description: "Bulk import of active activities (spec 3), keyset-paged by an opaque cursor" })
  async activeActivities(
    @Arg("countryCodes", () => [String], { nullable: true }) countryCodes: string[] | null,
    @Arg("bookingEngines", () => [String], { nullable: true }) bookingEngineNames: string[] | null,
    @Arg("languages", () => [String], { nullable: true }) languages: string[] | null,
    @Arg("modifiedSince", () => String, { nullable: true }) modifiedSince: string | null,
    @Arg("cursor", () => String, { nullable: true }) cursor: string | null,
    @Arg("limit", () => Int, { defaultValue: 100 }) limit: number,
    @Ctx() ctx: CatalogueContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ActiveActivityPage> {
    const request = importRequest({ countryCodes, bookingEngines: bookingEngineNames, languages, modifiedSince, cursor, limit });
    const page = { languages: languages?.length ? languages : null };
    if (!asksFor(info, "data")) {
      const result = await keysetPage(ctx, "active", request, importRecordColumns);
      return { ...page, rows: result.page, products: null, estimatedCount: result.estimatedCount, nextCursor: result.nextCursor, asOf: result.asOf };
    }
    const result = await keysetPage(ctx, "active", request, productColumnsWithTaxonomy);
    // Whole rows only: a loader primed with part of a row would answer other fields wrong.
    for (const row of result.page) ctx.loaders.product.prime(row.id, row);
    return { ...page, rows: result.page, products: result.page, estimatedCount: result.estimatedCount, nextCursor: result.nextCursor, asOf: result.asOf };
  }

  @Query(() => InactiveActivityPage, { description: "Ids of activities deleted or deprecated since modifiedSince (spec 3)" })
  async inactiveActivities(
    @Arg("countryCodes", () => [String], { nullable: true }) countryCodes: string[] | null,
    @Arg("bookingEngines", () => [String], { nullable: true }) bookingEngineNames: string[] | null,
    @Arg("modifiedSince", () => String, { nullable: true }) modifiedSince: string | null,
    @Arg("cursor", () => String, { nullable: true }) cursor: string | null,
    @Arg("limit", () => Int, { defaultValue: 100 }) limit: number,
    @Ctx() ctx: CatalogueContext,
  ): Promise<InactiveActivityPage> {
    const result = await keysetPage(ctx, "inactive", importRequest({ countryCodes, bookingEngines: bookingEngineNames, languages: null, modifiedSince, cursor, limit }), { id: products.id });
    return { data: result.page.map((row) => ({ id: row.id })), estimatedCount: result.estimatedCount, nextCursor: result.nextCursor, asOf: result.asOf };
  }
}

@Resolver(() => ActiveActivityPage)
export class ActiveActivityPageResolver {
  @FieldResolver(() => [Product], { description: "The activities as typed products: choose the fields you need" })
  data(@Root() page: ActiveActivityPage): Product[] {
    // activeActivities reads whole rows whenever the operation names `data`.
    if (!page.products) throw new Error("activeActivities read the page without the columns of data");
    return page.products.map((row) => toProduct(row));
  }

  @FieldResolver(() => [JSONObjectScalar], {
    description:
      "The same activities as spec 3's import records, one JSON object each, texts limited to the languages asked for: the fast way to copy the catalogue (a page costs its rows, not a resolver per field)",
  })
  records(@Root() page: ActiveActivityPage, @Ctx() ctx: CatalogueContext): Promise<ImportRecord[]> {
    return importRecords(ctx, page.rows, page.languages);
  }
}
