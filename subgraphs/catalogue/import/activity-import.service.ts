import type { SQL } from "drizzle-orm";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, Field, FieldResolver, Info, InputType, ObjectType, Query, Resolver, Root } from "type-graphql";
import { ConnectionOf, CountPrecision, pageRequest, whenAsked, type PageInfo, type PagingArguments, type TotalCount, PagingArgsOf } from "../../common/relay/relay.connection.js";
import { rejected, type RefusalCode } from "../../../core/refusals.js";
import { consumerAccess } from "../consumer.access.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { JSONObjectScalar } from "../../common/json.scalars.js";
import { CountryCodeScalar, LanguageCodeScalar } from "../../common/common.scalars.js";
import { asksFor } from "../../common/operation.selection.js";
import { productColumns, productColumnsWithTaxonomy } from "../product/product.repository.js";
import { toProduct } from "../product/product.view.js";
import { Product, ProductEdge } from "../product/product.type.js";
import { isCountryCode, isLanguageCode } from "../../../core/iso-codes.js";
import { CursorError, decodeCursor, encodeCursor, filtersDigest } from "./activity-import.cursor.js";
import { importRecordColumns, importRecords, type ImportRecord, type ImportRow } from "./activity-import.records.js";
import { activityImportRepository } from "./activity-import.repository.js";
import { searchTotalRepository } from "../search/search-total.repository.js";

export const MAX_IMPORT_PAGE = 1000;
/** How far back the inactive import looks (spec 3 leaves the number of days open). */
export const INACTIVE_MAX_AGE_DAYS = 30;
/** Up to this many matches the count is exact; above it, the planner's estimate. */
const EXACT_COUNT_LIMIT = 10_000;

@InputType({ description: "Which activities a run of the active import copies; every page of a run must send the same, but for modifiedSince" })
export class ActiveActivityFilter {
  @Field(() => [CountryCodeScalar], { nullable: true, description: "Only activities in these countries" }) countryCodes?: string[] | null;
  @Field(() => [String], { nullable: true, description: "Only activities booked through these booking engines, by name" }) bookingEngineNames?: string[] | null;
  @Field(() => [LanguageCodeScalar], { nullable: true, description: "Only activities with a title in one of these languages; `records` keep texts in them only" })
  languages?: string[] | null;
  @Field(() => Date, { nullable: true, description: "Only activities changed at or after this instant: the `asOf` of the previous run" }) modifiedSince?: Date | null;
}

@InputType({ description: "Which activities a run of the inactive import lists; every page of a run must send the same, but for modifiedSince" })
export class InactiveActivityFilter {
  @Field(() => [CountryCodeScalar], { nullable: true, description: "Only activities in these countries" }) countryCodes?: string[] | null;
  @Field(() => [String], { nullable: true, description: "Only activities booked through these booking engines, by name" }) bookingEngineNames?: string[] | null;
  @Field(() => Date, { nullable: true, description: `Only activities deleted or deprecated at or after this instant, at most ${INACTIVE_MAX_AGE_DAYS} days back; required on a run's first page` })
  modifiedSince?: Date | null;
}

/** A page of an import run: the rows read, and what the connection answers of them. */
interface ImportPage {
  /** The page's rows: `records` are built from them only when asked for. */
  rows: ImportRow[];
  /** The filter's languages: records keep texts in these languages only. */
  languages: string[] | null;
}

@ObjectType({ description: "Spec 3's bulk import of active activities, a page at a time: by number, with signed cursors that a run neither skips nor repeats an activity with while the catalogue changes" })
export class ActiveActivityConnection extends ConnectionOf(Product, ProductEdge) {
  page!: ImportPage;
  @Field(() => Date, { description: "When this run began: the modifiedSince of the next run" }) asOf!: Date;
}

@ObjectType({ description: "Activities deleted or deprecated, a page at a time: by number, with signed cursors" })
export class InactiveActivityConnection extends ConnectionOf(Product, ProductEdge) {
  @Field(() => Date, { description: "When this run began: the modifiedSince of the next run" }) asOf!: Date;
}

interface ImportRequest extends PagingArguments {
  countryCodes: string[] | null;
  bookingEngines: string[] | null;
  languages: string[] | null;
  modifiedSince: Date | null;
  /** Whether the operation asks for totalCount (a later page of a run has it from its cursor). */
  withTotal: boolean;
}

/** A filter left out, or a list of it, arrives as undefined: it means the same as null. */
const importRequest = (filter: Partial<ActiveActivityFilter> | null | undefined, paging: PagingArguments, withTotal: boolean): ImportRequest => ({
  countryCodes: filter?.countryCodes ?? null,
  bookingEngines: filter?.bookingEngineNames ?? null,
  languages: filter?.languages ?? null,
  modifiedSince: filter?.modifiedSince ?? null,
  ...paging,
  withTotal,
});

const problem = (reason: RefusalCode, field: string, message: string) => rejected(reason, message, [{ field, rule: reason.toLowerCase(), message }]);

/** Why an import's country or language codes are none (null: they are), as spec 3 names each. */
export function importCodesRefusal(filter: { countryCodes?: string[] | null; languages?: string[] | null }) {
  for (const code of filter.countryCodes ?? []) if (!isCountryCode(code)) return problem("INVALID_COUNTRY", "filter.countryCodes", `${code} is not an ISO 3166-1 alpha-2 code`);
  for (const code of filter.languages ?? []) if (!isLanguageCode(code)) return problem("INVALID_LANGUAGE", "filter.languages", `${code} is not an ISO 639-1 code`);
  return null;
}

/** The checks both imports share, in the order of spec 3's error table. */
async function prepare(ctx: CatalogueContext, kind: "active" | "inactive", request: ImportRequest) {
  await consumerAccess(ctx);
  if (ctx.caller.organisationId === null) throw problem("ORGANISATION_REQUIRED", "organisation", "The import needs an account of an organisation (its commercial model shapes the prices)");
  // A cursor is checked once it is read below: its signature needs the service's secret.
  const page = pageRequest(request, MAX_IMPORT_PAGE, (cursor) => ({ cursor }), DEFAULT_IMPORT_PAGE);
  const codes = importCodesRefusal(request);
  if (codes) throw codes;
  if (kind === "inactive" && request.modifiedSince === null && page.position === null) {
    throw problem("MODIFIED_SINCE_OR_CURSOR_REQUIRED", "filter.modifiedSince", "Give modifiedSince or a cursor (or both)");
  }
  const now = ctx.clock.now();
  const { modifiedSince } = request;
  if (kind === "inactive" && modifiedSince && now.getTime() - modifiedSince.getTime() > INACTIVE_MAX_AGE_DAYS * 86_400_000) {
    throw problem("MODIFIED_SINCE_TOO_OLD", "filter.modifiedSince", `modifiedSince may be at most ${INACTIVE_MAX_AGE_DAYS} days back`);
  }
  // modifiedSince and the page size may change between pages; the other filters may not.
  const filters = filtersDigest({ c: request.countryCodes, b: request.bookingEngines, l: request.languages });
  let position: number | null = null;
  let asOf = now.toISOString();
  let carriedCount: number | null = null;
  if (page.position !== null) {
    const cursorName = page.direction === "forward" ? "after" : "before";
    try {
      const state = await decodeCursor(ctx.database.db, page.position.cursor, { kind, filters, now });
      position = state.lastId;
      asOf = state.asOf;
      const since = modifiedSince?.toISOString() ?? null;
      if (state.count && state.count.modifiedSince === since) carriedCount = state.count.value;
    } catch (error) {
      if (error instanceof CursorError) throw problem("INVALID_CURSOR", cursorName, error.message);
      throw error;
    }
    if (modifiedSince && modifiedSince.toISOString() > asOf) throw problem("MODIFIED_SINCE_AFTER_CURSOR", "filter.modifiedSince", "modifiedSince is newer than the cursor's run");
  }
  const where = activityImportRepository.matching(ctx.database.db, { kind, ...request });
  return { where, page, position, asOf, filters, carriedCount };
}

/** The page a run's request answers when it names no size (spec 3's default). */
const DEFAULT_IMPORT_PAGE = 100;

async function countMatches(ctx: CatalogueContext, where: SQL): Promise<number> {
  const counted = await activityImportRepository.countUpTo(ctx.database.db, where, EXACT_COUNT_LIMIT + 1);
  if (counted <= EXACT_COUNT_LIMIT) return counted;
  return Math.max(EXACT_COUNT_LIMIT + 1, await searchTotalRepository.plannedMatches(ctx.database.db, where));
}

/** A count above the exact limit is the planner's estimate. */
const totalCountOf = (value: number): TotalCount => ({ count: value, precision: value > EXACT_COUNT_LIMIT ? CountPrecision.ESTIMATED : CountPrecision.EXACT });

/**
 * One keyset page by id: later changes never make a record repeat or another one be skipped.
 * `columns` are what the page's answer reads: a page of import records reads a third of a
 * product's columns (not its other texts, periods, itinerary, metadata).
 */
async function keysetPage<C extends Partial<typeof productColumns>>(ctx: CatalogueContext, kind: "active" | "inactive", request: ImportRequest, columns: C, withEdges: boolean) {
  const { where, page, position, asOf, filters, carriedCount } = await prepare(ctx, kind, request);
  const forward = page.direction === "forward";
  // The count does not depend on the page: the first page counts (on PostgreSQL on another
  // connection, meanwhile) and its cursors carry the count to the run's later pages. Counting
  // 10,001 matches a page was 16 ms of the database's time at 100,000 products, for a number that
  // is approximate anyway and that a run is better off seeing stay put.
  const counting = carriedCount !== null ? carriedCount : request.withTotal ? countMatches(ctx, where) : null;
  const [rows, total] = await Promise.all([
    activityImportRepository.page(ctx.database.db, columns, where, position, forward, page.size + 1),
    counting,
  ]);
  const state = { kind, asOf, filters, ...(total === null ? {} : { count: { value: total, modifiedSince: request.modifiedSince?.toISOString() ?? null } }) };
  const cursorOf = (row: { id: number }) => encodeCursor(ctx.database.db, { ...state, lastId: row.id });
  const more = rows.length > page.size;
  const inOrder = rows.slice(0, page.size);
  if (!forward) inOrder.reverse();
  // A signed cursor costs a MAC: every edge's only when edges are asked for, else pageInfo's two.
  const cursors = withEdges ? await Promise.all(inOrder.map(cursorOf)) : null;
  const [startCursor, endCursor] = cursors ? [cursors[0], cursors.at(-1)] : await Promise.all([inOrder[0] && cursorOf(inOrder[0]), inOrder.at(-1) && cursorOf(inOrder.at(-1)!)]);
  return {
    rows: inOrder,
    cursors,
    asOf: new Date(asOf),
    pageInfo: {
      hasNextPage: forward ? more : position !== null,
      hasPreviousPage: forward ? position !== null : more,
      startCursor: startCursor ?? null,
      endCursor: endCursor ?? null,
    },
    totalCount: whenAsked(async () => totalCountOf(total ?? (await countMatches(ctx, where)))),
  };
}

/** A page of an import run as a connection of products, each made by `toNode` from its row. */
function importConnection<R>(result: { rows: R[]; cursors: string[] | null; asOf: Date; pageInfo: PageInfo; totalCount: PromiseLike<TotalCount> }, toNode: (row: R) => Product) {
  const nodes = result.rows.map(toNode);
  const edges = result.cursors ? nodes.map((node, index) => ({ cursor: result.cursors![index], node })) : [];
  return { edges, nodes, pageInfo: result.pageInfo, totalCount: result.totalCount, asOf: result.asOf };
}

const filterDescription = "Which activities: every one the caller may import unless given";

/** The paging arguments of a list of activities. */
const ActivitiesPaging = PagingArgsOf("activities");

@Resolver()
export class ActivityImportResolver {
  @Query(() => ActiveActivityConnection, {
    description: `Spec 3's bulk import of active activities, by number, in pages of at most ${MAX_IMPORT_PAGE} (${DEFAULT_IMPORT_PAGE} unless asked): \`records\` are spec 3's import records, \`nodes\` the same activities as typed products`,
  })
  async activeActivities(
    @Ctx() ctx: CatalogueContext,
    @Info() info: GraphQLResolveInfo,
    @Args(() => ActivitiesPaging) paging: PagingArguments,
    @Arg("filter", () => ActiveActivityFilter, { nullable: true, description: filterDescription }) filter?: ActiveActivityFilter | null,
  ): Promise<Omit<ActiveActivityConnection, "totalCount"> & { totalCount: PromiseLike<TotalCount> }> {
    const request = importRequest(filter, paging, asksFor(info, "totalCount"));
    const languages = request.languages?.length ? request.languages : null;
    const withEdges = asksFor(info, "edges");
    if (!asksFor(info, "node") && !asksFor(info, "nodes")) {
      const result = await keysetPage(ctx, "active", request, importRecordColumns, withEdges);
      // No product is asked for (records, cursors or counts only): none is made of the narrow rows.
      const cursorsOnly = { ...result, rows: [] };
      return { ...importConnection(cursorsOnly, toProduct), edges: (result.cursors ?? []).map((cursor) => ({ cursor }) as { cursor: string; node: Product }), page: { rows: result.rows, languages } };
    }
    const result = await keysetPage(ctx, "active", request, productColumnsWithTaxonomy, withEdges);
    // Whole rows only: a loader primed with part of a row would answer other fields wrong.
    for (const row of result.rows) ctx.loaders.product.prime(row.id, row);
    return { ...importConnection(result, toProduct), page: { rows: result.rows, languages } };
  }

  @Query(() => InactiveActivityConnection, {
    description: `The activities deleted or deprecated since modifiedSince (spec 3), by number, in pages of at most ${MAX_IMPORT_PAGE} (${DEFAULT_IMPORT_PAGE} unless asked); each node is the product as it was left`,
  })
  async inactiveActivities(
    @Ctx() ctx: CatalogueContext,
    @Info() info: GraphQLResolveInfo,
    @Args(() => ActivitiesPaging) paging: PagingArguments,
    @Arg("filter", () => InactiveActivityFilter, { nullable: true, description: "Which activities: modifiedSince is required on a run's first page" }) filter?: InactiveActivityFilter | null,
  ): Promise<Omit<InactiveActivityConnection, "totalCount"> & { totalCount: PromiseLike<TotalCount> }> {
    const request = importRequest({ ...filter, languages: null }, paging, asksFor(info, "totalCount"));
    return importConnection(await keysetPage(ctx, "inactive", request, productColumns, asksFor(info, "edges")), toProduct);
  }
}

@Resolver(() => ActiveActivityConnection)
export class ActiveActivityConnectionResolver {
  @FieldResolver(() => [JSONObjectScalar], {
    description:
      "The page's activities as spec 3's import records, one JSON object each, texts limited to the filter's languages: the fast way to copy the catalogue (a page costs its rows, not a resolver per field). Untyped by design: `nodes` and `edges` hold the same, typed",
  })
  records(@Root() connection: ActiveActivityConnection, @Ctx() ctx: CatalogueContext): Promise<ImportRecord[]> {
    return importRecords(ctx, connection.page.rows, connection.page.languages);
  }
}
