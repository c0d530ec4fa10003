import { randomInt } from "node:crypto";
import type { Executor } from "../../../drizzle/database.js";
import { productTrackingIds } from "../../../drizzle/schema.js";

/** Tracking ids are random 48-bit integers: exact in JSON numbers, and not guessable from one another. */
const MAX_TRACKING_ID = 2 ** 48;

export const trackingIdRepository = {
  /** One new id per product (in order), recorded so that a later booking can be attributed to the call. */
  async issue(db: Executor, productIds: readonly number[], organisationId: number): Promise<number[]> {
    const rows = productIds.map((productId) => ({ trackingId: randomInt(1, MAX_TRACKING_ID), productId, organisationId }));
    await db.insert(productTrackingIds).values(rows);
    return rows.map((row) => row.trackingId);
  },
};
