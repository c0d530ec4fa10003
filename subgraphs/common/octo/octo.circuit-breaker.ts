import type { Clock } from "../../../core/clock.js";

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses calls before it lets one trial call through. */
  coolDownMs: number;
}

export type CircuitState = "closed" | "open" | "half-open";

/**
 * One per upstream engine: after `failureThreshold` failures in a row the engine is left alone for
 * `coolDownMs`, so a supplier that is down costs its callers nothing but a fast refusal and is not
 * hammered by every job and request; then one call tries it again.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  private trialRunning = false;

  constructor(
    private readonly options: CircuitBreakerOptions,
    private readonly clock: Clock,
  ) {}

  get state(): CircuitState {
    if (this.openedAt === null) return "closed";
    return this.clock.now().getTime() - this.openedAt >= this.options.coolDownMs ? "half-open" : "open";
  }

  /** Whether a call may go out now; in half-open, only one at a time (the trial). */
  admit(): boolean {
    const state = this.state;
    if (state === "closed") return true;
    if (state === "open" || this.trialRunning) return false;
    this.trialRunning = true;
    return true;
  }

  /** Milliseconds until the circuit lets a trial call through (0 when it would now). */
  retryAfterMs(): number {
    if (this.openedAt === null) return 0;
    return Math.max(0, this.openedAt + this.options.coolDownMs - this.clock.now().getTime());
  }

  succeeded(): void {
    this.failures = 0;
    this.openedAt = null;
    this.trialRunning = false;
  }

  failed(): void {
    this.trialRunning = false;
    this.failures += 1;
    if (this.openedAt !== null || this.failures >= this.options.failureThreshold) this.openedAt = this.clock.now().getTime();
  }
}
