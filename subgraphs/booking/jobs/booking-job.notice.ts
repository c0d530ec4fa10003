import type { Database, Executor } from "../../../drizzle/database.js";
import { channels, type Notice } from "../../../drizzle/events.js";

/**
 * The notice that tells listening workers, when the transaction that sends it commits, that a job
 * was written or given back, so that they look for due work at once instead of at their next poll.
 */
export function bookingJobNotice(job: { bookingId: string; runAt: Date }): Notice {
  return { channel: channels.bookingJobs, payload: { bookingId: job.bookingId, runAt: job.runAt.toISOString() } };
}

/** Sends `bookingJobNotice` on its own, for a transaction that announces nothing else. */
export async function announceBookingJob(database: Database, tx: Executor, job: { bookingId: string; runAt: Date }): Promise<void> {
  await database.events.publishAll(tx, [bookingJobNotice(job)]);
}
