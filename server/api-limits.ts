import type { FastifyReply } from "fastify";
import type { Caller } from "../core/caller.js";
import { edgeRefusalBody } from "../core/edge-refusals.js";
import { requestRateMessage, type AccountLimits } from "../identity/account-limits.js";
import type { Admission } from "./api-access.js";

/**
 * The HTTP gate of an account's API limits (identity/account-limits.ts), before any operation
 * runs: a place among its operations in flight (given back when the answer is sent or the client
 * leaves), then its request rate, with the `RateLimit-*` headers (IETF draft) on every answer. A
 * refusal is 429 TOO_MANY_REQUESTS with `Retry-After` and a `reason`: IN_FLIGHT or REQUEST_RATE.
 * The cost budget is charged later, per operation, once its estimate is known (gateway/cost-budget.ts).
 */
export function apiLimitsAdmission(limits: AccountLimits): Admission | undefined {
  const { requests, windowSeconds, costCapacity, maxInFlight } = limits.settings;
  if (requests === 0 && costCapacity === 0 && maxInFlight === 0) return undefined;
  return async (caller: Caller, reply: FastifyReply) => {
    const place = limits.enter(caller.accountId);
    if (typeof place !== "function") {
      reply.header("retry-after", String(place.retryAfterSeconds));
      return edgeRefusalBody(place.reason, place.message);
    }
    reply.raw.once("close", place);
    if (requests === 0) return undefined;
    const decision = await limits.takeRequest(caller.accountId);
    reply
      .header("ratelimit-limit", String(decision.limit))
      .header("ratelimit-remaining", String(decision.remaining))
      .header("ratelimit-reset", String(decision.resetSeconds))
      .header("ratelimit-policy", `${decision.limit};w=${windowSeconds}`);
    if (decision.allowed) return undefined;
    reply.header("retry-after", String(decision.resetSeconds));
    return edgeRefusalBody("REQUEST_RATE", requestRateMessage(decision));
  };
}
