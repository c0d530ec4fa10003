import type { Logger } from "../../../core/logger.js";
import type { Database, Executor } from "../../../drizzle/database.js";
import { bookingFlowAnnouncementRepository } from "./booking-flow-announcement.repository.js";
import type { ServiceGraphs } from "../../common/service.graph.js";

/**
 * The catalogue shows whether the booking flow can sell a product (onlineBookable); booking is the
 * one that knows. A change is written here in the transaction that makes it, then told to the
 * catalogue through the graph: at once after commit, and by the worker for anything that failed
 * or was cut off by a crash. Two tellers of one product can overlap (a request and a worker pass,
 * or two workers), so each change carries its version and the catalogue applies only a newer one.
 */
const RECORD_BOOKING_FLOW = `mutation RecordBookingFlow($productId: Int!, $bookable: Boolean!, $version: Int!) {
  recordBookingFlow(productId: $productId, bookable: $bookable, version: $version)
}`;

/** Tries again after 1 s, 2 s, 4 s… up to 5 minutes: the catalogue is down or restarting. */
const retryDelayMs = (attempts: number) => Math.min(1000 * 2 ** attempts, 300_000);

/** How many announcements one worker pass tells at most. */
const BATCH = 50;

export interface AnnouncementDeps {
  database: Database;
  graphs: ServiceGraphs;
  logger: Logger;
  now: () => Date;
}

/** Records, in the caller's transaction, that the product can (or can no longer) be sold by the flow. */
export async function noteBookingFlow(tx: Executor, productId: number, bookable: boolean, now: Date): Promise<void> {
  await bookingFlowAnnouncementRepository.upsert(tx, productId, bookable, now);
}

/** When the earliest pending announcement is to be told (again); undefined when none waits. */
export function nextBookingFlowAnnouncementDue(db: Executor): Promise<Date | undefined> {
  return bookingFlowAnnouncementRepository.earliestRetryAt(db);
}

/** A claimed announcement is left to others again after this, should its teller die. */
const CLAIM_MS = 30_000;

/**
 * Tells the catalogue the pending announcements due now (those of `productIds` only, when given).
 * Each is claimed first (SKIP LOCKED, in a short transaction of its own: the catalogue writes while
 * it is told, and the embedded database runs one transaction at a time), and removed only if no
 * newer change arrived while it was being told; a newer one has its own teller, and the catalogue
 * ignores this one if it arrives after it.
 */
export async function announceBookingFlows(deps: AnnouncementDeps, productIds?: number[]): Promise<number> {
  const now = deps.now();
  const db = deps.database.db;
  const claimed = await bookingFlowAnnouncementRepository.claimDue(db, now, new Date(now.getTime() + CLAIM_MS), BATCH, productIds);
  let told = 0;
  for (const row of claimed) {
    try {
      await deps.graphs("booking").request("catalogue", RECORD_BOOKING_FLOW, { productId: row.productId, bookable: row.bookable, version: row.version });
      await bookingFlowAnnouncementRepository.deleteTold(db, row);
      told++;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.logger.warn({ productId: row.productId, attempts: row.attempts, err: message }, "telling the catalogue about a booking flow change failed; will retry");
      await bookingFlowAnnouncementRepository.postpone(db, row, new Date(now.getTime() + retryDelayMs(row.attempts - 1)), message.slice(0, 500));
    }
  }
  return told;
}
