import type { Database, Executor } from "../../../drizzle/database.js";
import { channels } from "../../../drizzle/events.js";

/**
 * Tells listening workers, when the caller's transaction commits, that a job was written or given
 * back, so that they look for due work at once instead of at their next poll.
 */
export async function announceBookingJob(database: Database, tx: Executor, job: { bookingId: string; runAt: Date }): Promise<void> {
  await database.events.publish(tx, channels.bookingJobs, { bookingId: job.bookingId, runAt: job.runAt.toISOString() });
}
