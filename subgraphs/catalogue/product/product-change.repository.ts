import type { Executor } from "../../../drizzle/database.js";
import { productChanges } from "../../../drizzle/schema.js";

export type ProductChangeType = (typeof productChanges.$inferInsert)["changeType"];

/** The change log is append-only, and always written in the transaction of the change it records. */
export const productChangeRepository = {
  async append(db: Executor, productIds: readonly number[], changeType: ProductChangeType, at: Date): Promise<void> {
    if (!productIds.length) return;
    await db.insert(productChanges).values(productIds.map((productId) => ({ productId, changeType, changedAt: at })));
  },
};
