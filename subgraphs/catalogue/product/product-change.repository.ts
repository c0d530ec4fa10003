import { and, asc, eq, gte, inArray, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../../drizzle/database.js";
import { organisations, productChanges, products } from "../../../drizzle/schema.js";
import { enqueueWebhookEvents, webhookTypeWanted } from "../../common/webhooks/webhook-outbox.repository.js";

export type ProductChangeType = (typeof productChanges.$inferInsert)["changeType"];

/** The change log is append-only, and always written in the transaction of the change it records. */
export const productChangeRepository = {
  async append(db: Executor, productIds: readonly number[], changeType: ProductChangeType, at: Date): Promise<void> {
    if (!productIds.length) return;
    await db.insert(productChanges).values(productIds.map((productId) => ({ productId, changeType, changedAt: at })));
    await announceProductChanges(db, productIds, changeType, at);
  },

  /** The products' changes at or after `since` (all of them without), oldest first. */
  async ofProducts(db: Executor, productIds: readonly number[], since: Date | null) {
    if (!productIds.length) return [];
    return db
      .select()
      .from(productChanges)
      .where(and(inArray(productChanges.productId, [...productIds]), since ? gte(productChanges.changedAt, since) : undefined))
      .orderBy(asc(productChanges.changedAt), asc(productChanges.id));
  },

  /** A search filter: the product changed at or after `since` (of `changeType` only, when given). */
  changedSince(since: Date, changeType: ProductChangeType | null): SQL {
    const ofType = changeType === null ? sql`true` : sql`${productChanges.changeType} = ${changeType}`;
    return sql`exists (select 1 from ${productChanges} where ${productChanges.productId} = ${products.id} and ${productChanges.changedAt} >= ${since.toISOString()}::timestamptz and ${ofType})`;
  },
};

/**
 * Content partners whose endpoints ask for product.changed hear of every change logged here, in
 * the same transaction: the organisations of the product's engine (those that manage it).
 */
async function announceProductChanges(db: Executor, productIds: readonly number[], changeType: ProductChangeType, at: Date): Promise<void> {
  if (!(await webhookTypeWanted(db, "product.changed"))) return;
  const recipients = await db
    .select({ productId: products.id, externalId: products.externalId, supplierId: products.supplierId, organisationId: organisations.id })
    .from(products)
    .innerJoin(organisations, eq(organisations.bookingEngineId, products.scopeEngineId))
    .where(inArray(products.id, [...productIds]));
  await enqueueWebhookEvents(
    db,
    "product.changed",
    recipients.map((r) => ({
      organisationId: r.organisationId,
      orderingKey: `product:${r.productId}`,
      data: { productId: r.productId, externalId: r.externalId, supplierId: r.supplierId, changeType, changedAt: at.toISOString() },
    })),
    at,
  );
}
