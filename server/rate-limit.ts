import type { FastifyReply } from "fastify";
import type { Caller } from "../core/caller.js";
import type { Clock } from "../core/clock.js";
import type { Admission } from "./api-access.js";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window restarts. */
  resetSeconds: number;
}

/**
 * Requests per account in fixed windows, counted in this process: an edge replica protects
 * itself, and N replicas behind a balancer allow up to N times the limit (documented). Windows
 * are aligned to the clock, so memory is one counter per active account, dropped at each new window.
 */
export class AccountRateLimiter {
  private window = -1;
  private counts = new Map<string, number>();

  constructor(
    private readonly settings: { requests: number; windowSeconds: number },
    private readonly clock: Clock,
  ) {}

  take(accountId: string): RateDecision {
    const nowMs = this.clock.now().getTime();
    const windowMs = this.settings.windowSeconds * 1000;
    const window = Math.floor(nowMs / windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    const used = (this.counts.get(accountId) ?? 0) + 1;
    this.counts.set(accountId, used);
    const limit = this.settings.requests;
    return {
      allowed: used <= limit,
      limit,
      remaining: Math.max(0, limit - used),
      resetSeconds: Math.max(1, Math.ceil(((window + 1) * windowMs - nowMs) / 1000)),
    };
  }

  /** The HTTP gate: RateLimit-* headers on every answer (IETF draft), 429 with Retry-After past the limit. */
  admission(): Admission | undefined {
    if (this.settings.requests === 0) return undefined;
    return (caller: Caller, reply: FastifyReply) => {
      const decision = this.take(caller.accountId);
      reply
        .header("ratelimit-limit", String(decision.limit))
        .header("ratelimit-remaining", String(decision.remaining))
        .header("ratelimit-reset", String(decision.resetSeconds))
        .header("ratelimit-policy", `${decision.limit};w=${this.settings.windowSeconds}`);
      if (decision.allowed) return undefined;
      reply.header("retry-after", String(decision.resetSeconds));
      return rateLimited(decision);
    };
  }
}

export const rateLimited = (decision: RateDecision) => ({
  status: 429,
  code: "TOO_MANY_REQUESTS",
  message: `More than ${decision.limit} requests in the window; try again in ${decision.resetSeconds} seconds`,
});
