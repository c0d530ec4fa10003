import { SpanKind } from "@opentelemetry/api";
import { inSpan } from "../../../core/tracing.js";
import { ServiceGraphError, type ServiceGraphs } from "../../common/service.graph.js";
import { catalogueFacts } from "../catalogue.facts.js";
import type { Logger } from "../../../core/logger.js";
import type { Database, Executor } from "../../../drizzle/database.js";
import { bookingJobRepository, type BookingJobRow } from "./booking-job.repository.js";
import { announceStatus } from "../booking/booking.view.js";
import { announceBookingJob } from "./booking-job.notice.js";
import { bookingRepository, type BookingRow } from "../booking/booking.repository.js";
import { engineBooking, engineOfBooking, expireHold } from "../booking/booking.steps.js";
import { databaseStores } from "../booking.stores.js";
import { TransientEngineError, type ConfirmationOutcome } from "../engines/booking.engine.js";
import type { OctoEngines } from "../../common/octo/octo.engines.js";

/** A worker owns a job this long; one that dies lets it lapse and another worker takes over. */
export const JOB_LEASE_MS = 60_000;
/** After this many failed attempts the supplier is taken to have refused (payment to refund). */
export const MAX_CONFIRM_ATTEMPTS = 8;
/** Answers of a booking not yet confirmed are kept this long after they were last given. */
export const UNCONFIRMED_ANSWER_RETENTION_MS = 30 * 60 * 1000;
/** Answers of other bookings are kept until this long after the activity's start. */
export const ANSWER_RETENTION_AFTER_START_MS = 30 * 24 * 3600 * 1000;

export const backoffMs = (attempt: number): number => Math.min(2 ** attempt * 1000, 5 * 60_000);

type JobRow = BookingJobRow;

export interface JobDeps {
  database: Database;
  logger: Logger;
  now: () => Date;
  /** Aborted when the worker stops: no further job is taken, and one claimed but not begun is handed back. */
  stopping?: AbortSignal;
  /** The catalogue's facts of the product come through the graph, as in the booking flow. */
  graphs: ServiceGraphs;
  /** OCTO engines' bookings are confirmed in the supplier's system through these connections. */
  octo?: OctoEngines;
}

/** At most this many jobs are claimed by one statement, however many slots are free. */
export const MAX_CLAIM_BATCH = 16;

/** Due jobs no live worker holds, under one fresh lease (workers claiming at once take different jobs). */
const claim = (db: Executor, now: Date, limit: number): Promise<JobRow[]> => bookingJobRepository.claimDue(db, now, new Date(now.getTime() + JOB_LEASE_MS), limit);

/** Jobs due now and not done (held under a lease or waiting), and how long the oldest has been due. */
export async function bookingJobQueue(db: Executor, now: Date): Promise<{ due: number; oldestDueSeconds: number }> {
  const { due, oldest } = await bookingJobRepository.dueCount(db, now);
  return { due, oldestDueSeconds: Math.max(0, (now.getTime() - (oldest ?? now).getTime()) / 1000) };
}

/**
 * When the next job not yet due (a delayed confirmation, a retry with backoff) or held under a
 * lease that may lapse (its worker died) can be taken; undefined when there is none.
 */
export function nextBookingJobDue(db: Executor, now: Date): Promise<Date | undefined> {
  return bookingJobRepository.nextTakeable(db, now);
}

/** Marks the job done if this worker still holds its lease; false when another worker took it over. */
const finish = (tx: Executor, job: JobRow, now: Date): Promise<boolean> => bookingJobRepository.finish(tx, job, now);

async function applyOutcome(deps: JobDeps, job: JobRow, booking: BookingRow, outcome: ConfirmationOutcome): Promise<void> {
  const now = deps.now();
  await deps.database.db.transaction(async (tx) => {
    if (!(await finish(tx, job, now))) return;
    if (outcome.outcome === "CONFIRMED") {
      const confirmed = await bookingRepository.transition(tx, booking.id, "PENDING_CONFIRM", {
        status: "CONFIRMED",
        bookingCode: outcome.bookingCode,
        bookingExternalId: outcome.bookingExternalId,
        supplierVoucherUrl: outcome.voucher?.url ?? null,
        supplierVoucherCode: outcome.voucher?.code ?? null,
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
        await engineOfBooking(booking, databaseStores(deps.database, deps.octo)).release(tx, booking.productId, booking.startsAt, booking.participants);
        await announceStatus(deps.database, tx, rejected);
      }
    }
  });
}

/** Runs one supplier confirmation; a transient failure schedules another attempt with backoff, and returns its time. */
async function runConfirmation(deps: JobDeps, job: JobRow): Promise<Date | undefined> {
  const [booking] = await bookingRepository.byIds(deps.database.db, [job.bookingId]);
  if (!booking || booking.status !== "PENDING_CONFIRM") {
    await deps.database.db.transaction((tx) => finish(tx, job, deps.now()));
    return;
  }
  let outcome: ConfirmationOutcome | undefined;
  const engine = engineOfBooking(booking, databaseStores(deps.database, deps.octo));
  try {
    const product = await catalogueFacts(deps.graphs("booking")).product.load(booking.productId);
    outcome = await engine.confirm(deps.database.db, engineBooking(booking), product);
  } catch (error) {
    // The catalogue not answering is as passing as a supplier timing out: the job runs again.
    const transient = error instanceof TransientEngineError || error instanceof ServiceGraphError;
    if (!transient) deps.logger.error({ err: error, bookingId: booking.id }, "supplier confirmation failed unexpectedly");
    if (job.attempts >= MAX_CONFIRM_ATTEMPTS) {
      // A supplier system may have confirmed without our hearing it: the payment is refunded only
      // once it certainly has not (settle asks it, and lets a hold still open go first).
      outcome = engine.upstream
        ? await engine.upstream.settle(engineBooking(booking)).catch(() => undefined)
        : { outcome: "REJECTED", reason: `The supplier could not be reached after ${job.attempts} attempts` };
    }
    if (!outcome) {
      const retryAt = new Date(deps.now().getTime() + backoffMs(job.attempts));
      await bookingJobRepository.retryAt(deps.database.db, job, retryAt, error instanceof Error ? error.message.slice(0, 500) : String(error));
      deps.logger.warn({ bookingId: booking.id, attempt: job.attempts, retryAt }, "supplier confirmation will be retried");
      return retryAt;
    }
  }
  await applyOutcome(deps, job, booking, outcome);
}

/** Gives a claimed job back at once rather than after its lease runs out; the claim does not count as an attempt. */
async function handBack(deps: JobDeps, job: JobRow): Promise<void> {
  await deps.database.db.transaction(async (tx) => {
    // Another worker still running takes it now.
    if (await bookingJobRepository.handBack(tx, job)) await announceBookingJob(deps.database, tx, job);
  });
}

/**
 * Runs a claimed job; returns when it is to run again, if it was put off. With tracing on, each
 * run is a trace of its own (whatever woke the worker), its supplier calls and statements in it.
 */
async function runJob(deps: JobDeps, job: JobRow): Promise<Date | undefined> {
  return inSpan(`booking job ${job.kind}`, { root: true, kind: SpanKind.INTERNAL, attributes: { "activities.booking_id": job.bookingId, "activities.job.attempt": job.attempts } }, async (span) => {
    if (job.kind !== "confirm") {
      deps.logger.error({ job }, "unknown booking job kind");
      return undefined;
    }
    const retryAt = await runConfirmation(deps, job);
    if (retryAt) span?.setAttribute("activities.job.retry_at", retryAt.toISOString());
    return retryAt;
  });
}

export interface JobPoolOptions {
  /** How many jobs run at once (supplier calls in flight); claims never take more than the free slots. */
  concurrency: number;
  /**
   * Asks to be woken at this time: the next job not yet due once a claim found nothing more, or
   * a retry a job has just scheduled. Without it (explicit runs) nothing is looked up.
   */
  wakeAt?: (at: Date) => void;
}

/**
 * Runs due booking jobs, up to `concurrency` at once. `wake` claims as many due jobs as there
 * are free slots in one statement and starts them; while slots are full, a job ending claims
 * the next. Jobs are started as soon as they are claimed, so the only claimed-but-not-begun ones
 * a stop can meet are those of the claim it lands in: they are handed back at once.
 */
export class BookingJobPool {
  private readonly running = new Set<Promise<void>>();
  private filling: Promise<void> | undefined;
  /** A wake came, or the last claim filled every slot: more may be due. */
  private wanted = false;
  private failure: unknown;
  /** Jobs started since the pool was made. */
  started = 0;

  constructor(
    private readonly deps: JobDeps,
    private readonly options: JobPoolOptions,
  ) {}

  /** Looks for due jobs now (a notification, a poll, a timer). Never two claims at once. */
  wake(): void {
    this.wanted = true;
    if (!this.filling) {
      this.filling = this.fill()
        .catch((error: unknown) => this.fail(error))
        .finally(() => {
          this.filling = undefined;
        });
    }
  }

  /** Runs every due job, and those that become due meanwhile, then waits for them; rethrows the first failure. */
  async drain(): Promise<number> {
    const before = this.started;
    this.failure = undefined;
    this.wake();
    await this.settled();
    const failure = this.failure;
    this.failure = undefined;
    if (failure) throw failure;
    return this.started - before;
  }

  /** Resolves when no claim is being made and no job runs (after a stop: the ones begun have finished). */
  async settled(): Promise<void> {
    for (;;) {
      const busy = this.filling ? [this.filling, ...this.running] : [...this.running];
      if (!busy.length) return;
      await Promise.race(busy);
    }
  }

  private fail(error: unknown): void {
    this.failure ??= error;
    this.deps.logger.error({ err: error }, "booking job pass failed");
  }

  private async fill(): Promise<void> {
    const stopping = this.deps.stopping;
    while (this.wanted && !stopping?.aborted) {
      this.wanted = false;
      const free = this.options.concurrency - this.running.size;
      if (free <= 0) {
        // A slot ending wakes the pool again.
        this.wanted = true;
        return;
      }
      const asked = Math.min(MAX_CLAIM_BATCH, free);
      // One time for the claim and the look-up after it: a job falling due between two readings
      // of the clock would be neither claimed nor "not yet due", and would wait for the poll.
      const now = this.deps.now();
      const jobs = await claim(this.deps.database.db, now, asked);
      for (const job of jobs) {
        if (stopping?.aborted) await handBack(this.deps, job);
        else this.start(job);
      }
      if (jobs.length === asked) this.wanted = true;
      else if (!this.wanted && this.options.wakeAt) {
        const next = await nextBookingJobDue(this.deps.database.db, now);
        if (next) this.options.wakeAt(next);
      }
    }
  }

  private start(job: JobRow): void {
    this.started++;
    const run: Promise<void> = runJob(this.deps, job)
      .then((retryAt) => {
        if (retryAt) this.options.wakeAt?.(retryAt);
      })
      .catch((error: unknown) => this.fail(error))
      .finally(() => {
        this.running.delete(run);
        if (this.wanted) this.wake();
      });
    this.running.add(run);
  }
}

/** Runs every due job once, one at a time unless `concurrency` says otherwise; returns how many it took. */
export async function runDueBookingJobs(deps: JobDeps, concurrency = 1): Promise<number> {
  return new BookingJobPool(deps, { concurrency }).drain();
}

/** ON_HOLD bookings past their hold become EXPIRED and give their places back. */
export async function expireHolds(deps: JobDeps): Promise<number> {
  const now = deps.now();
  let expired = 0;
  for (const id of await bookingRepository.lapsedHoldIds(deps.database.db, now, 500)) {
    const done = await deps.database.db.transaction(async (tx) => {
      const row = await bookingRepository.forUpdate(tx, id);
      return row && row.status === "ON_HOLD" && row.holdExpiresAt <= now ? expireHold(databaseStores(deps.database, deps.octo), tx, row, now) : undefined;
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
  return bookingRepository.redactAnswers(deps.database.db, now, new Date(now.getTime() - UNCONFIRMED_ANSWER_RETENTION_MS), new Date(now.getTime() - ANSWER_RETENTION_AFTER_START_MS));
}
