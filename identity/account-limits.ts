import type { Clock } from "../core/clock.js";
import { EDGE_REFUSALS } from "../core/edge-refusals.js";
import type { AccountLimitSettings } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import type { Executor } from "../drizzle/database.js";
import { accountLimitsRepository, type AccountUsage, type SharedUsage } from "./account-limits.repository.js";

/** Which limit refused: the `reason` of the 429 TOO_MANY_REQUESTS. */
export type LimitReason = keyof Pick<typeof EDGE_REFUSALS, "REQUEST_RATE" | "COST_BUDGET" | "IN_FLIGHT">;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window restarts. */
  resetSeconds: number;
}

/** Shopify's `throttleStatus`: what the bucket holds, what is free now, what comes back each second. */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export type CostDecision = { allowed: true; charged: number; status: ThrottleStatus } | { allowed: false; status: ThrottleStatus; retryAfterSeconds: number; message: string };

export interface LimitRefusal {
  reason: LimitReason;
  message: string;
  retryAfterSeconds: number;
}

export const requestRateMessage = (decision: RateDecision) => `More than ${decision.limit} requests in the window; try again in ${decision.resetSeconds} seconds`;

/** How often a process reports what it admitted and learns what the others did. */
export const SYNC_INTERVAL_MS = 200;
/** A process reports at once when an account's unreported use passes this share of a limit, so N processes overshoot by little. */
const EARLY_REPORT_SHARE = 0.1;
/** How often a process reads the shared use of an account it admitted nothing for lately. */
const READ_INTERVAL_MS = 1000;

interface AccountState {
  /** Shared, as of the last report: the bucket's level at `levelAt` (ms), the requests of `window`. */
  level: number;
  levelAt: number;
  window: number;
  windowRequests: number;
  /** Admitted here since the last report. */
  pendingCost: number;
  pendingRequests: number;
  /** Reported, not yet answered. */
  reportingCost: number;
  reportingRequests: number;
  inFlight: number;
  lastUsed: number;
  lastReported: number;
  /** Until the first report answered: this process has not seen the account's shared use yet. */
  loaded?: Promise<void>;
}

/**
 * An account's API limits, held across every process and replica (docs/spec-decisions.md, "API
 * limits"): a request rate in fixed windows, a bucket of cost points that drains at a steady rate
 * (Shopify's leaky bucket) and a cap of operations in flight, which is this process's own (it
 * protects this process's event loop and connections, not a shared quota).
 *
 * Most decisions are taken here, without a round trip: each account's shared use as of the last
 * report plus what this process admitted since. Every SYNC_INTERVAL_MS, or at once when an
 * account's unreported use passes a tenth of a limit, the process adds its use to the shared rows
 * in one statement and reads back what all processes used. A charge of a tenth of the budget or
 * more is decided by the database itself, in the statement that takes it, so two processes cannot
 * both spend the last room on heavy operations. An account a process has not seen waits for one
 * report before its first decision. So one process admits exactly the limits, and N processes at
 * most a tenth of each limit more per process.
 */
export class AccountLimits {
  private readonly accounts = new Map<string, AccountState>();
  /** The database is asked one thing at a time: a report, or a heavy charge. */
  private chain: Promise<unknown> = Promise.resolve();
  /** A report waiting its turn: later callers share it. */
  private queued: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failureLogged = false;

  constructor(
    readonly settings: AccountLimitSettings,
    private readonly deps: { db: Executor; clock: Clock; logger: Logger },
  ) {
    if (settings.requests > 0 || settings.costCapacity > 0) {
      this.timer = setInterval(() => void this.report(), SYNC_INTERVAL_MS);
      this.timer.unref();
    }
  }

  get costBudgetOn(): boolean {
    return this.settings.costCapacity > 0;
  }

  /** Counts one request in the account's window. */
  async takeRequest(accountId: string): Promise<RateDecision> {
    const { requests: limit, windowSeconds } = this.settings;
    const state = await this.state(accountId);
    const nowMs = this.deps.clock.now().getTime();
    const windowMs = windowSeconds * 1000;
    const window = Math.floor(nowMs / windowMs);
    this.rollWindow(state, window);
    const used = state.windowRequests + state.reportingRequests + state.pendingRequests + 1;
    const allowed = used <= limit;
    if (allowed) {
      state.pendingRequests++;
      if (state.pendingRequests >= Math.max(1, limit * EARLY_REPORT_SHARE)) void this.report();
    }
    return { allowed, limit, remaining: Math.max(0, limit - used), resetSeconds: Math.max(1, Math.ceil(((window + 1) * windowMs - nowMs) / 1000)) };
  }

  /**
   * Charges an operation's estimated cost before it runs, when the bucket has room for all of it
   * (an operation is never let through on credit); `refund` later gives back what it did not use.
   */
  async admitCost(accountId: string, points: number): Promise<CostDecision> {
    const state = await this.state(accountId);
    const { costCapacity } = this.settings;
    // An operation dearer than the whole bucket (a budget set below the operation limit) runs
    // when the bucket is empty, and empties it: never on credit, never impossible.
    const charged = Math.min(points, costCapacity);
    if (charged >= costCapacity * EARLY_REPORT_SHARE) {
      const shared = await this.exclusive(() => this.chargeShared(accountId, state, charged)).catch((error: unknown) => {
        this.reportFailure(error);
        return undefined;
      });
      if (shared === true) return { allowed: true, charged, status: this.status(state) };
      if (shared === false) return this.refusal(state, points, charged);
    }
    if (charged > this.available(state)) return this.refusal(state, points, charged);
    this.add(state, charged);
    return { allowed: true, charged, status: this.status(state) };
  }

  /** Charges what was delivered whatever the bucket holds (a subscription's events): the debt refuses the account's next operations until it drains. */
  charge(accountId: string, points: number): void {
    let state = this.accounts.get(accountId);
    if (!state) this.accounts.set(accountId, (state = this.fresh()));
    if (points > 0) this.add(state, points);
  }

  /** Gives back what an operation did not use of its charge. */
  refund(accountId: string, points: number): ThrottleStatus | undefined {
    const state = this.accounts.get(accountId);
    if (!state) return undefined;
    if (points > 0) state.pendingCost -= points;
    return this.status(state);
  }

  /** The bucket as this process sees it (`extensions.cost` of an answer that charged nothing). */
  throttleStatus(accountId: string): ThrottleStatus | undefined {
    const state = this.accounts.get(accountId);
    return state && this.status(state);
  }

  /** Takes a place among the account's operations in flight, or says why not; the caller releases it once answered. */
  enter(accountId: string): (() => void) | LimitRefusal {
    const cap = this.settings.maxInFlight;
    let state = this.accounts.get(accountId);
    if (!state) this.accounts.set(accountId, (state = this.fresh()));
    if (cap > 0 && state.inFlight >= cap) {
      return { reason: EDGE_REFUSALS.IN_FLIGHT.reason, retryAfterSeconds: 1, message: `The account already has ${cap} operations running; wait for their answers` };
    }
    state.inFlight++;
    state.lastUsed = this.deps.clock.now().getTime();
    let released = false;
    const held = state;
    return () => {
      if (released) return;
      released = true;
      held.inFlight--;
      // Without a rate or a budget no report ever forgets an account: the last answer does.
      if (held.inFlight === 0 && !held.loaded && this.accounts.get(accountId) === held) this.accounts.delete(accountId);
    };
  }

  /** Reports what is unreported (a stop): the other processes must not lose this one's charges. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.report();
  }

  private fresh(): AccountState {
    const now = this.deps.clock.now().getTime();
    return { level: 0, levelAt: now, window: -1, windowRequests: 0, pendingCost: 0, pendingRequests: 0, reportingCost: 0, reportingRequests: 0, inFlight: 0, lastUsed: now, lastReported: 0 };
  }

  private async state(accountId: string): Promise<AccountState> {
    let state = this.accounts.get(accountId);
    if (!state) this.accounts.set(accountId, (state = this.fresh()));
    state.lastUsed = this.deps.clock.now().getTime();
    state.loaded ??= this.report();
    await state.loaded;
    return state;
  }

  private rollWindow(state: AccountState, window: number) {
    if (window <= state.window) return;
    // The requests of a past window no longer count (nor need reporting).
    state.window = window;
    state.windowRequests = 0;
    state.pendingRequests = 0;
  }

  private add(state: AccountState, points: number) {
    state.pendingCost += points;
    if (state.pendingCost >= this.settings.costCapacity * EARLY_REPORT_SHARE) void this.report();
  }

  private level(state: AccountState): number {
    const drained = Math.max(0, state.level - (Math.max(0, this.deps.clock.now().getTime() - state.levelAt) / 1000) * this.settings.costRestorePerSecond);
    return Math.max(0, drained + state.reportingCost + state.pendingCost);
  }

  private available(state: AccountState): number {
    return Math.max(0, this.settings.costCapacity - this.level(state));
  }

  private status(state: AccountState): ThrottleStatus {
    return { maximumAvailable: this.settings.costCapacity, currentlyAvailable: Math.floor(this.available(state)), restoreRate: this.settings.costRestorePerSecond };
  }

  private refusal(state: AccountState, points: number, charged: number): CostDecision {
    const { costCapacity, costRestorePerSecond } = this.settings;
    const available = this.available(state);
    const retryAfterSeconds = Math.max(1, Math.ceil((charged - available) / costRestorePerSecond));
    return {
      allowed: false,
      status: this.status(state),
      retryAfterSeconds,
      message: `The operation's estimated cost is ${points}; ${Math.floor(available)} of the account's ${costCapacity} points are free (${costRestorePerSecond} come back each second). Try again in ${retryAfterSeconds} seconds.`,
    };
  }

  /** A heavy charge, with this process's unreported cost, taken by the database only if it fits. */
  private async chargeShared(accountId: string, state: AccountState, charged: number): Promise<boolean> {
    const now = this.deps.clock.now();
    const pending = state.pendingCost;
    const window = Math.floor(now.getTime() / (this.settings.windowSeconds * 1000));
    const answer = await accountLimitsRepository.chargeIfRoom(
      this.deps.db,
      { accountId, cost: pending + charged, windowIndex: window },
      now,
      { capacity: this.settings.costCapacity, restorePerSecond: this.settings.costRestorePerSecond },
    );
    state.level = answer.costLevel;
    state.levelAt = answer.costUpdatedAt.getTime();
    if (answer.admitted) state.pendingCost -= pending;
    return answer.admitted;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** One report at a time; callers while one waits its turn share it. */
  private report(): Promise<void> {
    if (this.queued) return this.queued;
    const run = this.exclusive(async () => {
      this.queued = undefined;
      await this.reportOnce();
    });
    this.queued = run;
    return run;
  }

  private reportFailure(error: unknown) {
    if (!this.failureLogged) this.deps.logger.warn({ err: error }, "account limits: the database did not answer; deciding on this process's own counts until it does");
    this.failureLogged = true;
  }

  private async reportOnce(): Promise<void> {
    const now = this.deps.clock.now();
    const nowMs = now.getTime();
    const window = Math.floor(nowMs / (this.settings.windowSeconds * 1000));
    const idleAfterMs = Math.max(this.settings.windowSeconds * 1000, this.settings.costCapacity > 0 ? (this.settings.costCapacity / this.settings.costRestorePerSecond) * 1000 : 0);
    const usage: AccountUsage[] = [];
    const states = new Map<string, AccountState>();
    for (const [accountId, state] of this.accounts) {
      const idle = nowMs - state.lastUsed > idleAfterMs;
      const nothingToAdd = state.pendingCost === 0 && state.pendingRequests === 0;
      if (idle && nothingToAdd && state.inFlight === 0) {
        this.accounts.delete(accountId);
        continue;
      }
      // Accounts used lately are read too, once a second: what the other processes admitted counts here.
      if (nothingToAdd && state.loaded && (idle || nowMs - state.lastReported < READ_INTERVAL_MS)) continue;
      state.lastReported = nowMs;
      this.rollWindow(state, window);
      state.reportingCost = state.pendingCost;
      state.reportingRequests = state.pendingRequests;
      state.pendingCost = 0;
      state.pendingRequests = 0;
      usage.push({ accountId, cost: state.reportingCost, windowIndex: window, requests: state.reportingRequests });
      states.set(accountId, state);
    }
    let shared: SharedUsage[];
    try {
      shared = await accountLimitsRepository.report(this.deps.db, usage, now, this.settings.costRestorePerSecond);
      this.failureLogged = false;
    } catch (error) {
      // Kept for the next report; meanwhile this process decides on what it knows.
      for (const state of states.values()) {
        state.pendingCost += state.reportingCost;
        state.pendingRequests += state.reportingRequests;
        state.reportingCost = 0;
        state.reportingRequests = 0;
      }
      this.reportFailure(error);
      return;
    }
    for (const row of shared) {
      const state = states.get(row.accountId);
      if (!state) continue;
      state.level = row.costLevel;
      state.levelAt = row.costUpdatedAt.getTime();
      if (row.windowIndex >= state.window) {
        if (row.windowIndex > state.window) state.pendingRequests = 0;
        state.window = row.windowIndex;
        state.windowRequests = row.windowRequests;
      }
      state.reportingCost = 0;
      state.reportingRequests = 0;
    }
  }
}
