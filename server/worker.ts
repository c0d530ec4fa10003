import { deliverDueWebhooks } from "../subgraphs/common/webhooks/webhook-delivery.service.js";
import type { OctoEngines } from "../subgraphs/common/octo/octo.engines.js";
import type { ServiceMetrics } from "../core/metrics.js";
import type { Resolver } from "../core/outbound-address.js";
import { AsyncResource } from "node:async_hooks";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../drizzle/database.js";
import { channels } from "../drizzle/events.js";
import { accountRepository } from "../identity/account.repository.js";
import { refreshTokenRepository } from "../identity/refresh-token.repository.js";
import { removeExpiredSignInFailures, type SignInThrottleSettings } from "../identity/sign-in-throttle.js";
import type { ServiceGraphs } from "../subgraphs/common/service.graph.js";
import { announceBookingFlows, nextBookingFlowAnnouncementDue } from "../subgraphs/booking/booking-flow/booking-flow.announcements.js";
import { BookingJobPool, bookingJobQueue, expireHolds, redactAnswers, type JobDeps } from "../subgraphs/booking/jobs/booking-job.runner.js";

export interface Worker {
  /**
   * Runs the booking work once now (housekeeping, due booking jobs to the end, announcements); the
   * loops call these on their own. Tests that move their clock call it.
   */
  runOnce(): Promise<void>;
  /**
   * Removes expired refresh tokens, spent setup links and old sign-in failures once now (the loop
   * runs it every ten minutes). Apart from runOnce: a clock moved years ahead for a booking would
   * otherwise take every session of the database with it.
   */
  removeExpiredCredentials(): Promise<void>;
  /** Delivers every webhook message due now (the loop does it every second); returns the attempts made. */
  deliverWebhooks(): Promise<number>;
  /** Imports every OCTO engine's content once now (the loop does it every OCTO_IMPORT_INTERVAL_MINUTES). */
  importOctoEngines(): Promise<OctoImportSummary[]>;
  stop(): Promise<void>;
}

/** One engine's scheduled import: its report's counts, or why it failed. */
export interface OctoImportSummary {
  engine: string;
  report?: {
    createdProductCount: number;
    updatedProductCount: number;
    unchangedProductCount: number;
    deprecatedProductCount: number;
    undeprecatedProductCount: number;
    refusedProducts: { externalId: string; message: string }[];
  };
  error?: string;
}

const OCTO_ENGINES = `query WorkerOctoEngines { bookingEngines(kind: OCTO) { id name } }`;
const IMPORT_OCTO_ENGINE = `mutation WorkerImportOctoEngine($input: ImportOctoEngineInput!) {
  importOctoEngine(input: $input) {
    octoImport { createdProductCount updatedProductCount unchangedProductCount deprecatedProductCount undeprecatedProductCount refusedProducts { externalId message } }
    userErrors { code message }
  }
}`;

interface ImportAnswer {
  importOctoEngine: { octoImport: OctoImportSummary["report"] | null; userErrors: { code: string; message: string }[] };
}

/** Keeps a spent link a week, so the page can still say "already used" rather than "unknown". */
const SPENT_LINK_RETENTION_MS = 7 * 24 * 3600 * 1000;

export interface WorkerOptions {
  database: Database;
  logger: Logger;
  clock: Clock;
  /**
   * How often due booking jobs and booking flow announcements are looked for without being told.
   * A committed job wakes the worker at once, and a job or announcement not yet due sets a timer,
   * so this only catches what no notification reached (the worker was down, LISTEN dropped).
   */
  pollIntervalMs?: number;
  /** Booking jobs (supplier calls) run at once. */
  jobConcurrency?: number;
  /** How often holds expire and answers are redacted. */
  bookingHousekeepingIntervalMs?: number;
  /** How often expired credentials are removed. */
  credentialIntervalMs?: number;
  /** False: no timers and no listening; tasks run only through runOnce (tests that move the clock). */
  loops?: boolean;
  /** Failed sign-ins older than this window no longer count and are removed. */
  signIn: SignInThrottleSettings;
  /** Supplier confirmations read the catalogue's facts of a product through the graph. */
  graphs: ServiceGraphs;
  /** Confirmations of OCTO engines' bookings go to the supplier's system through these connections; webhook secrets are opened with its sealed secrets. */
  octo?: OctoEngines;
  /** Webhook deliveries: where they may go (private targets for tests only; a test's resolver) and each delivery's timeout. */
  webhooks?: { allowPrivate: boolean; timeoutMs: number; resolve?: Resolver };
  /** How often every OCTO engine's content is imported; 0: never on a schedule. */
  octoImportIntervalMs?: number;
  /** The job queue's depth and age are read from the database when scraped. */
  metrics?: ServiceMetrics;
}

export const DEFAULT_WORKER_POLL_MS = 5000;
export const DEFAULT_JOB_CONCURRENCY = 8;

/**
 * Background work: supplier confirmations, hold expiry and answer redaction, and credential
 * clean-up. Jobs are leased with SKIP LOCKED and every task is idempotent, so any number of
 * workers may run at once.
 */
export function startWorker(options: WorkerOptions): Worker {
  const logger = options.logger.child({ role: "worker" });
  const stopping = new AbortController();
  // Booking jobs, hold expiry and redaction find their rows by key, as the booking subgraph's statements do.
  const deps: JobDeps = { database: options.database.forKeyLookups, logger, now: () => options.clock.now(), stopping: stopping.signal, graphs: options.graphs, octo: options.octo };
  const loopsOn = options.loops !== false;
  const pollMs = options.pollIntervalMs ?? DEFAULT_WORKER_POLL_MS;
  const tasks = workerTasks(options, deps, logger, stopping.signal);
  if (options.metrics) measureJobQueue(options.metrics, options);

  const jobAlarm = alarm(() => jobs.wake(), pollMs, options.clock);
  const jobs = new BookingJobPool(deps, {
    concurrency: options.jobConcurrency ?? DEFAULT_JOB_CONCURRENCY,
    wakeAt: loopsOn ? (at) => jobAlarm.at(at) : undefined,
  });
  const announcementAlarm = alarm(() => bookingFlows.tick(), pollMs, options.clock);
  const announce = async () => {
    await announceBookingFlows(deps);
    if (loopsOn) {
      const next = await nextBookingFlowAnnouncementDue(options.database.db);
      if (next) announcementAlarm.at(next);
    }
  };
  const bookingFlows = loop("booking flow announcements", announce, pollMs, logger, loopsOn);
  const running = loopsOn ? startLoops(options, logger, pollMs, jobs, bookingFlows, tasks) : { timers: [] };
  return {
    async runOnce() {
      await tasks.bookingHousekeeping();
      await jobs.drain();
      await announce();
      await tasks.deliverWebhooks();
    },
    deliverWebhooks: tasks.deliverWebhooks,
    removeExpiredCredentials: tasks.removeCredentials,
    importOctoEngines: tasks.importOctoEngines,
    /**
     * Takes no new job; waits for the ones begun (a supplier call, then its transaction) and
     * hands back any claimed but not begun.
     */
    stop: async () => {
      stopping.abort();
      const unlisten = await running.stopListening?.catch(() => undefined);
      await unlisten?.();
      await Promise.all([jobs.settled(), ...running.timers.map((t) => t.stop())]);
      // After the last job and pass: either may have asked for a later wake-up.
      jobAlarm.clear();
      announcementAlarm.clear();
    },
  };
}

/** The worker's tasks that run on their own loops as well as when asked. */
interface WorkerTasks {
  removeCredentials(): Promise<void>;
  bookingHousekeeping(): Promise<void>;
  importOctoEngines(): Promise<OctoImportSummary[]>;
  deliverWebhooks(): Promise<number>;
}

function workerTasks(options: WorkerOptions, deps: JobDeps, logger: Logger, stopping: AbortSignal): WorkerTasks {
  return {
    removeCredentials: () => removeExpiredCredentials(options, logger),
    bookingHousekeeping: async () => {
      const expired = await expireHolds(deps);
      const redacted = await redactAnswers(deps);
      if (expired || redacted) logger.info({ expired, redacted }, "booking housekeeping");
    },
    importOctoEngines: () => importOctoEngines(options.graphs, logger, stopping),
    deliverWebhooks: async () => {
      if (!options.octo) return 0;
      return deliverDueWebhooks({
        database: options.database,
        secrets: options.octo.secrets,
        logger,
        now: () => options.clock.now(),
        outbound: { allowPrivate: options.webhooks?.allowPrivate ?? false, resolve: options.webhooks?.resolve },
        timeoutMs: options.webhooks?.timeoutMs ?? 10_000,
        countDelivery: options.metrics ? (outcome) => options.metrics!.webhookDeliveries.inc({ outcome }) : undefined,
      });
    },
  };
}

async function removeExpiredCredentials({ database, clock, signIn }: WorkerOptions, logger: Logger): Promise<void> {
  const now = clock.now();
  const refreshRemoved = await refreshTokenRepository.deleteExpired(database.db, now);
  await removeExpiredSignInFailures(database.db, signIn, now);
  const linksRemoved = await accountRepository.deleteExpiredPasswordSetupTokens(database.db, new Date(now.getTime() - SPENT_LINK_RETENTION_MS));
  if (refreshRemoved || linksRemoved) logger.info({ refreshRemoved, linksRemoved }, "removed expired credentials");
}

function measureJobQueue(metrics: ServiceMetrics, { database, clock }: WorkerOptions): void {
  const queue = () => bookingJobQueue(database.db, clock.now());
  metrics.gauge("activities_booking_jobs_due", "Booking jobs (supplier confirmations, cancellations) due and not done", async (set) => set((await queue()).due));
  metrics.gauge("activities_booking_jobs_oldest_due_seconds", "How long the oldest due booking job has waited", async (set) => set((await queue()).oldestDueSeconds));
}

/** The catalogue owns the import; the worker only starts it, in its own name, one engine at a time. */
async function importOctoEngines(graphs: ServiceGraphs, logger: Logger, stopping: AbortSignal): Promise<OctoImportSummary[]> {
  const graph = graphs("worker");
  const { bookingEngines } = await graph.request<{ bookingEngines: { id: string; name: string }[] }>("catalogue", OCTO_ENGINES);
  const summaries: OctoImportSummary[] = [];
  for (const { id, name } of bookingEngines) {
    if (stopping.aborted) break;
    try {
      const { importOctoEngine } = await graph.request<ImportAnswer>("catalogue", IMPORT_OCTO_ENGINE, { input: { bookingEngineId: id } }, { timeoutMs: 15 * 60_000 });
      const report = importOctoEngine.octoImport;
      if (!report) throw new Error(importOctoEngine.userErrors.map((error) => `${error.code}: ${error.message}`).join("; "));
      logger.info({ engine: name, ...report, refusedProducts: report.refusedProducts.length }, "imported OCTO engine content");
      summaries.push({ engine: name, report });
    } catch (error) {
      logger.warn({ engine: name, err: error }, "OCTO engine content import failed; the next run tries again");
      summaries.push({ engine: name, error: (error as Error).message });
    }
  }
  return summaries;
}

type Stoppable = { stop(): Promise<void> };

/** Listens for committed booking jobs and starts every task's loop. */
function startLoops(options: WorkerOptions, logger: Logger, pollMs: number, jobs: BookingJobPool, bookingFlows: Stoppable, tasks: WorkerTasks): { stopListening?: Promise<() => Promise<void>>; timers: Stoppable[] } {
  // Listening first, then the first pass: a job committed in between is seen by one or the other.
  // Bound to the worker's own async context: the jobs a notification starts are the worker's
  // work, not that of whatever connection delivered it (logs and the bench attribute by it).
  const stopListening = options.database.events.subscribe(channels.bookingJobs, AsyncResource.bind(() => jobs.wake()));
  stopListening
    .catch((error: unknown) => logger.error({ err: error }, "listening for booking jobs failed; they run on the poll"))
    .finally(() => jobs.wake());
  const poll = setInterval(() => jobs.wake(), pollMs);
  poll.unref();
  const timers: Stoppable[] = [
    { stop: async () => clearInterval(poll) },
    bookingFlows,
    loop("webhook deliveries", async () => void (await tasks.deliverWebhooks()), Math.min(pollMs, 1_000), logger),
    loop("booking housekeeping", tasks.bookingHousekeeping, options.bookingHousekeepingIntervalMs ?? 30_000, logger),
    // Not at start: expired credentials are refused anyway, so nothing is urgent, and tests that
    // share one database start workers with clocks set years ahead, which would end every session.
    loop("credentials", tasks.removeCredentials, options.credentialIntervalMs ?? 10 * 60 * 1000, logger, true, false),
    // Not at start either: engines are imported when registered, and a restart storm must not
    // become a storm of full imports against every supplier.
    loop("OCTO imports", async () => void (await tasks.importOctoEngines()), options.octoImportIntervalMs || 60 * 60_000, logger, (options.octoImportIntervalMs ?? 1) > 0, false),
  ];
  return { stopListening, timers };
}

/**
 * One timer set to the earliest time asked for. Times beyond the poll interval are left to the
 * poll, which comes first; the callback looks again and asks for the next time itself.
 */
function alarm(fire: () => void, pollMs: number, clock: Clock) {
  let timer: NodeJS.Timeout | undefined;
  let due = Infinity;
  const clear = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    due = Infinity;
  };
  return {
    at(when: Date) {
      const at = when.getTime();
      const delay = at - clock.now().getTime();
      if (delay > pollMs || at >= due) return;
      clear();
      due = at;
      timer = setTimeout(() => {
        timer = undefined;
        due = Infinity;
        fire();
      }, Math.max(0, delay));
      timer.unref();
    },
    clear,
  };
}

/** Runs a task on an interval (and when ticked), never two runs of it at once. */
function loop(name: string, task: () => Promise<void>, intervalMs: number, logger: Logger, enabled = true, atStart = true) {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped || !enabled) return;
    running = task()
      .catch((error) => logger.error({ err: error, task: name }, "worker task failed"))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = enabled ? setInterval(tick, intervalMs) : undefined;
  timer?.unref();
  if (atStart) tick();
  return {
    tick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
