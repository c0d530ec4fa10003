import { lt } from "drizzle-orm";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../drizzle/database.js";
import { passwordSetupTokens } from "../drizzle/schema.js";
import { refreshTokenRepository } from "../identity/refresh-token.repository.js";
import { SignInThrottle, type SignInThrottleSettings } from "../identity/sign-in-throttle.js";
import { expireHolds, redactAnswers, runDueBookingJobs } from "../subgraphs/booking/jobs/booking-jobs.js";

export interface Worker {
  /** Runs every task once now; the loops call these on their intervals. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/** Keeps a spent link a week, so the page can still say "already used" rather than "unknown". */
const SPENT_LINK_RETENTION_MS = 7 * 24 * 3600 * 1000;

export interface WorkerOptions {
  database: Database;
  logger: Logger;
  clock: Clock;
  /** How often due booking jobs (supplier confirmations) are looked for. */
  jobIntervalMs?: number;
  /** How often holds expire and answers are redacted. */
  bookingHousekeepingIntervalMs?: number;
  /** How often expired credentials are removed. */
  credentialIntervalMs?: number;
  /** False: no timers; tasks run only through runOnce (tests that move the clock). */
  loops?: boolean;
  /** Failed sign-ins older than this window no longer count and are removed. */
  signIn: SignInThrottleSettings;
}

/**
 * Background work: supplier confirmations, hold expiry and answer redaction, and credential
 * clean-up. Jobs are leased with SKIP LOCKED and every task is idempotent, so any number of
 * workers may run at once.
 */
export function startWorker(options: WorkerOptions): Worker {
  const logger = options.logger.child({ role: "worker" });
  const stopping = new AbortController();
  const deps = { database: options.database, logger, now: () => options.clock.now(), stopping: stopping.signal };

  const removeCredentials = async () => {
    const now = options.clock.now();
    const refreshRemoved = await refreshTokenRepository.deleteExpired(options.database.db, now);
    await new SignInThrottle(options.database.db, options.signIn).removeExpired(now);
    const linksRemoved = await options.database.db
      .delete(passwordSetupTokens)
      .where(lt(passwordSetupTokens.expiresAt, new Date(now.getTime() - SPENT_LINK_RETENTION_MS)))
      .returning({ hash: passwordSetupTokens.tokenHash });
    if (refreshRemoved || linksRemoved.length) logger.info({ refreshRemoved, linksRemoved: linksRemoved.length }, "removed expired credentials");
  };
  const bookingHousekeeping = async () => {
    const expired = await expireHolds(deps);
    const redacted = await redactAnswers(deps);
    if (expired || redacted) logger.info({ expired, redacted }, "booking housekeeping");
  };
  const jobs = async () => {
    await runDueBookingJobs(deps);
  };

  const loops = options.loops === false ? [] : [
    loop("booking jobs", jobs, options.jobIntervalMs ?? 500, logger),
    loop("booking housekeeping", bookingHousekeeping, options.bookingHousekeepingIntervalMs ?? 30_000, logger),
    loop("credentials", removeCredentials, options.credentialIntervalMs ?? 10 * 60 * 1000, logger),
  ];
  return {
    async runOnce() {
      await removeCredentials();
      await bookingHousekeeping();
      await jobs();
    },
    /** Takes no new job and waits for the one running (a supplier call, then its transaction). */
    stop: async () => {
      stopping.abort();
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}

/** Runs a task on an interval, never two runs of it at once. */
function loop(name: string, task: () => Promise<void>, intervalMs: number, logger: Logger) {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = task()
      .catch((error) => logger.error({ err: error, task: name }, "worker task failed"))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
