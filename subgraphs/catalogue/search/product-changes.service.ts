import type { SQL } from "drizzle-orm";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, Field, Info, ObjectType, Query, registerEnumType, Resolver } from "type-graphql";
import { ConnectionOf, EdgeOf, positionConnection, type Connection, PagingArgsOf, type PagingArguments } from "../../common/relay/relay.connection.js";
import { DateScalar } from "../../common/common.scalars.js";
import { asksFor } from "../../common/operation.selection.js";
import { rejected } from "../../../core/refusals.js";
import type { Executor } from "../../../drizzle/database.js";
import { consumerAccess } from "../consumer.access.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { startRecordLookups } from "../product/product.consumer-record.js";
import { productChangeRepository } from "../product/product-change.repository.js";
import { toProduct } from "../product/product.view.js";
import { Product, ProductOrder } from "../product/product.type.js";
import { visibleToConsumers } from "./product-search.repository.js";
import { DEFAULT_PRODUCT_ORDER, MAX_SEARCH_PAGE_SIZE, pageSearch, type SearchRequest } from "./search.service.js";

export enum ProductChangeType {
  NEW = "NEW",
  UPDATED = "UPDATED",
  DELETED = "DELETED",
  DEPRECATED = "DEPRECATED",
  UNDEPRECATED = "UNDEPRECATED",
}
registerEnumType(ProductChangeType, {
  name: "ProductChangeType",
  description: "What happened to a product",
  valuesConfig: {
    NEW: { description: "It was created" },
    UPDATED: { description: "Its content changed, or whether it can be booked online" },
    DELETED: { description: "It left the catalogue" },
    DEPRECATED: { description: "It was deprecated: listed, EXCLUDED for consumers" },
    UNDEPRECATED: { description: "Its deprecation ended" },
  },
});

/** Change detection looks back at most this many days (spec 3, Limits). */
export const MAX_LOOK_BACK_DAYS = 8;

@ObjectType({ description: "One change of a product" })
export class ProductChange {
  @Field(() => ProductChangeType, { description: "What happened" }) type!: ProductChangeType;
  @Field(() => Date, { description: "When" }) changedAt!: Date;
}

@ObjectType({ description: "A product in change detection, with its changes" })
export class ProductChangeEdge extends EdgeOf(Product) {
  @Field(() => [ProductChange], { description: "Its changes since `since` (all of them without it), oldest first" }) changes!: ProductChange[];
}

@ObjectType({ description: "Products with their changes, a page at a time" })
export class ProductChangeConnection extends ConnectionOf(Product, ProductChangeEdge) {}

/** Products changed since `since` (of one type, or any), deleted ones included; without it, the live catalogue. */
function changedSince(since: Date | null, changeType: ProductChangeType | null): SQL {
  return since ? productChangeRepository.changedSince(since, changeType) : visibleToConsumers;
}

async function changeLogs(db: Executor, productIds: number[], since: Date | null) {
  const logs = new Map<number, ProductChange[]>();
  for (const row of await productChangeRepository.ofProducts(db, productIds, since)) {
    const log = logs.get(row.productId) ?? [];
    log.push({ type: row.changeType as ProductChangeType, changedAt: row.changedAt });
    logs.set(row.productId, log);
  }
  return logs;
}

/** The instant a change-detection day starts, within the days it may look back. */
function sinceOf(ctx: CatalogueContext, since: string | null): Date | null {
  if (since === null) return null;
  const start = new Date(`${since}T00:00:00Z`);
  const now = ctx.clock.now();
  const oldest = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - MAX_LOOK_BACK_DAYS));
  if (start < oldest) {
    throw rejected("DATE_TOO_OLD", `since may be at most ${MAX_LOOK_BACK_DAYS} days back (${oldest.toISOString().slice(0, 10)} or later)`, [
      { field: "since", rule: "maxLookBack", message: `must be ${oldest.toISOString().slice(0, 10)} or later` },
    ]);
  }
  if (start > now) throw rejected("DATE_IN_FUTURE", "since must not be in the future", [{ field: "since", rule: "notFuture", message: "must not be in the future" }]);
  return start;
}

export async function productChangesSince(
  ctx: CatalogueContext,
  request: SearchRequest & { since: string | null; changeType: ProductChangeType | null },
  records = false,
): Promise<Connection<Product>> {
  await consumerAccess(ctx);
  const since = sinceOf(ctx, request.since);
  // The change logs, and with `records` the records' lookups, start once the page's rows are read, beside its total.
  let changes: Promise<Map<number, ProductChange[]>> | undefined;
  const page = await pageSearch(ctx, request, changedSince(since, request.changeType), (rows) => {
    changes = changeLogs(ctx.database.db, rows.map((row) => row.id), since);
    changes.catch(() => {});
    if (records) startRecordLookups(ctx, rows);
  });
  const logs = await (changes ?? changeLogs(ctx.database.db, page.rows.map((row) => row.id), since));
  return positionConnection(page, (row, cursor) => ({ cursor, node: toProduct(row), changes: logs.get(row.id) ?? [] }));
}

/** The paging arguments of a list of products. */
const ProductsPaging = PagingArgsOf("products");

@Resolver()
export class ProductChangesResolver {
  @Query(() => ProductChangeConnection, {
    description: `Change detection (spec 3): the products changed since a day (deleted ones included), each with its changes; without \`since\`, the live catalogue with every change. Ordered as searchProducts; at most ${MAX_SEARCH_PAGE_SIZE} a page (20 unless asked)`,
  })
  productChanges(
    @Ctx() ctx: CatalogueContext,
    @Info() info: GraphQLResolveInfo,
    @Args(() => ProductsPaging) paging: PagingArguments,
    @Arg("since", () => DateScalar, { nullable: true, description: `The first day (UTC) of the changes, at most ${MAX_LOOK_BACK_DAYS} days back; the whole live catalogue when not given` }) since?: string | null,
    @Arg("changeType", () => ProductChangeType, { nullable: true, description: "Only products with a change of this type since `since`; any type when not given" }) changeType?: ProductChangeType | null,
    @Arg("query", () => String, { nullable: true, description: "A Search expression the products must match (docs/search.md)" }) query?: string | null,
    @Arg("orderBy", () => ProductOrder, { nullable: true, description: "The order after the caller's country: by TITLE, ascending, unless given" }) orderBy?: ProductOrder | null,
  ): Promise<Connection<Product>> {
    const request = {
      since: since ?? null,
      changeType: changeType ?? null,
      query: query ?? null,
      orderBy: orderBy ?? DEFAULT_PRODUCT_ORDER,
      ...paging,
      withTotal: asksFor(info, "totalCount"),
    };
    return productChangesSince(ctx, request, asksFor(info, "consumerRecord"));
  }
}
