import { randomUUID } from "node:crypto";
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import type { Logger } from "../../../core/logger.js";
import { rows, type Database, type Executor } from "../../../drizzle/database.js";
import { bookingJobs, bookings } from "../../../drizzle/schema.js";
import { announceStatus } from "../booking/booking-view.js";
import { bookingRepository, type BookingRow } from "../booking/booking.repository.js";
import { engineBooking, expireHold } from "../booking/booking.service.js";
import { TransientEngineError, type ConfirmationOutcome } from "../engines/booking-engine.js";
import { engineRegistry } from "../engines/engine-registry.js";

/** A worker owns a job this long; one that dies lets it lapse and another worker takes over. */
export const JOB_LEASE_MS = 60_000;
/** After this many failed attempts the supplier is taken to have refused (payment to refund). */
export const MAX_CONFIRM_ATTEMPTS = 8;
/** Answers of a booking not yet confirmed are kept this long after they were last given. */
export const UNCONFIRMED_ANSWER_RETENTION_MS = 30 * 60 * 1000;
/** Answers of other bookings are kept until this long after the activity's start. */
export const ANSWER_RETENTION_AFTER_START_MS = 30 * 24 * 3600 * 1000;

export const backoffMs = (attempt: number): number => Math.min(2 ** attempt * 1000, 5 * 60_000);

type JobRow = typeof bookingJobs.$inferSelect;

export interface JobDeps {
  database: Database;
  logger: Logger;
  now: () => Date;
  /** Aborted when the worker stops: no further job is taken, and one claimed but not begun is handed back. */
  stopping?: AbortSignal;
}

/** Takes the next due job that no live worker holds, with a fresh lease. */
async function claim(db: Executor, now: Date): Promise<JobRow | undefined> {
  const leaseId = randomUUID();
  const claimed = await rows<{ id: number | string }>(db, sql`
    update ${bookingJobs}
       set lease_id = ${leaseId}, locked_until = ${new Date(now.getTime() + JOB_LEASE_MS).toISOString()}::timestamptz, attempts = attempts + 1
     where id = (
       select id from ${bookingJobs}
        where done_at is null and run_at <= ${now.toISOString()}::timestamptz
          and (locked_until is null or locked_until < ${now.toISOString()}::timestamptz)
        order by run_at
        limit 1
        for update skip locked)
    returning id`);
  const id = claimed[0]?.id;
  if (id === undefined) return undefined;
  const [job] = await db.select().from(bookingJobs).where(eq(bookingJobs.id, Number(id)));
  return job;
}

/** Marks the job done if this worker still holds its lease; false when another worker took it over. */
async function finish(tx: Executor, job: JobRow, now: Date): Promise<boolean> {
  const done = await tx
    .update(bookingJobs)
    .set({ doneAt: now, lockedUntil: null })
    .where(and(eq(bookingJobs.id, job.id), eq(bookingJobs.leaseId, job.leaseId!), isNull(bookingJobs.doneAt)))
    .returning({ id: bookingJobs.id });
  return done.length === 1;
}

async function applyOutcome(deps: JobDeps, job: JobRow, booking: BookingRow, outcome: ConfirmationOutcome): Promise<void> {
  const now = deps.now();
  await deps.database.db.transaction(async (tx) => {
    if (!(await finish(tx, job, now))) return;
    if (outcome.outcome === "CONFIRMED") {
      const confirmed = await bookingRepository.transition(tx, booking.id, "PENDING_CONFIRM", {
        status: "CONFIRMED",
        bookingCode: outcome.bookingCode,
        bookingExternalId: outcome.bookingExternalId,
        confirmedAt: now,
        voucherCreatedAt: now,
        updateDate: now,
      });
      if (confirmed) await announceStatus(deps.database, tx, confirmed);
    } else {
      const rejected = await bookingRepository.transition(tx, booking.id, "PENDING_CONFIRM", {
        status: "REJECTED",
        paymentStatus: "REFUND",
        rejectedAt: now,
        rejectionReason: outcome.reason,
        updateDate: now,
      });
      if (rejected) {
        await engineRegistry.for(booking.engineName).release(tx, booking.productId, booking.startsAt, booking.participants);
        await announceStatus(deps.database, tx, rejected);
      }
    }
  });
}

/** Runs one supplier confirmation; a transient failure schedules another attempt with backoff. */
async function runConfirmation(deps: JobDeps, job: JobRow): Promise<void> {
  const [booking] = await bookingRepository.byIds(deps.database.db, [job.bookingId]);
  if (!booking || booking.status !== "PENDING_CONFIRM") {
    await deps.database.db.transaction((tx) => finish(tx, job, deps.now()));
    return;
  }
  let outcome: ConfirmationOutcome;
  try {
    outcome = await engineRegistry.for(booking.engineName).confirm(deps.database.db, engineBooking(booking));
  } catch (error) {
    const transient = error instanceof TransientEngineError;
    if (!transient) deps.logger.error({ err: error, bookingId: booking.id }, "supplier confirmation failed unexpectedly");
    if (job.attempts >= MAX_CONFIRM_ATTEMPTS) {
      outcome = { outcome: "REJECTED", reason: `The supplier could not be reached after ${job.attempts} attempts` };
    } else {
      const retryAt = new Date(deps.now().getTime() + backoffMs(job.attempts));
      await deps.database.db
        .update(bookingJobs)
        .set({ runAt: retryAt, lockedUntil: null, lastError: error instanceof Error ? error.message.slice(0, 500) : String(error) })
        .where(and(eq(bookingJobs.id, job.id), eq(bookingJobs.leaseId, job.leaseId!), isNull(bookingJobs.doneAt)));
      deps.logger.warn({ bookingId: booking.id, attempt: job.attempts, retryAt }, "supplier confirmation will be retried");
      return;
    }
  }
  await applyOutcome(deps, job, booking, outcome);
}

/** Gives a claimed job back at once rather than after its lease runs out; the claim does not count as an attempt. */
async function handBack(db: Executor, job: JobRow): Promise<void> {
  await db
    .update(bookingJobs)
    .set({ lockedUntil: null, leaseId: null, attempts: sql`${bookingJobs.attempts} - 1` })
    .where(and(eq(bookingJobs.id, job.id), eq(bookingJobs.leaseId, job.leaseId!), isNull(bookingJobs.doneAt)));
}

/** Runs every due job once; returns how many it took. */
export async function runDueBookingJobs(deps: JobDeps): Promise<number> {
  let count = 0;
  while (!deps.stopping?.aborted) {
    const job = await claim(deps.database.db, deps.now());
    if (!job) return count;
    if (deps.stopping?.aborted) {
      await handBack(deps.database.db, job);
      return count;
    }
    count++;
    if (job.kind === "confirm") await runConfirmation(deps, job);
    else deps.logger.error({ job }, "unknown booking job kind");
  }
  return count;
}

/** ON_HOLD bookings past their hold become EXPIRED and give their places back. */
export async function expireHolds(deps: JobDeps): Promise<number> {
  const now = deps.now();
  const due = await deps.database.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.status, "ON_HOLD"), lte(bookings.holdExpiresAt, now)))
    .limit(500);
  let expired = 0;
  for (const { id } of due) {
    const done = await deps.database.db.transaction(async (tx) => {
      const row = await bookingRepository.forUpdate(tx, id);
      return row && row.status === "ON_HOLD" && row.holdExpiresAt <= now ? expireHold(deps, tx, row, now) : undefined;
    });
    if (done) expired++;
  }
  return expired;
}

/**
 * Answers are personal data (docs/spec-decisions.md, "Answer retention"): erased 30 minutes after
 * they were last given while the booking is unconfirmed, and 30 days after the activity's start
 * otherwise. A redacted ON_HOLD booking asks for them again before it can be confirmed.
 */
export async function redactAnswers(deps: JobDeps): Promise<number> {
  const now = deps.now();
  const unconfirmedBefore = new Date(now.getTime() - UNCONFIRMED_ANSWER_RETENTION_MS).toISOString();
  const startedBefore = new Date(now.getTime() - ANSWER_RETENTION_AFTER_START_MS).toISOString();
  const redacted = await deps.database.db
    .update(bookings)
    .set({ answers: {}, answersRedactedAt: now })
    .where(
      and(
        isNull(bookings.answersRedactedAt),
        sql`${bookings.answers} <> '{}'::jsonb`,
        sql`((${bookings.status} = 'ON_HOLD' and ${bookings.answersUpdatedAt} <= ${unconfirmedBefore}::timestamptz)
             or ${bookings.startsAt} <= ${startedBefore}::timestamptz)`,
      ),
    )
    .returning({ id: bookings.id });
  return redacted.length;
}
