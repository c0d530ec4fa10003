import http from "node:http";
import https from "node:https";
import { SpanKind, trace } from "@opentelemetry/api";
import { ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE } from "@opentelemetry/semantic-conventions";
import { activeTracer, inSpan } from "../../../core/tracing.js";
import { httpClientAttributes } from "../../../core/http-span-attributes.js";
import { guardedLookup, OutboundAddressRefused, refusedOutboundHost, type OutboundPolicy } from "../../../core/outbound-address.js";
import type { Logger } from "../../../core/logger.js";
import type { Database } from "../../../drizzle/database.js";
import { webhookDeliveryRepository } from "./webhook-delivery.repository.js";
import type { SealedSecrets } from "../sealed.secrets.js";
import type { WebhookMessageRow } from "./webhook-endpoint.repository.js";
import { webhookSignature } from "./webhook.signature.js";

/**
 * When a failed delivery is tried again, after attempts 1, 2, …: the Standard Webhooks schedule,
 * 5 seconds to 10 hours, so a message is tried for about 27 hours before it is given up (FAILED).
 */
export const RETRY_SCHEDULE_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
/** An endpoint that has not taken a delivery for this long is disabled, with the reason shown. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;
/** A worker owns a claimed message this long; one that dies lets it lapse. */
const LEASE_MS = 60_000;
const MAX_CLAIM = 16;

export interface WebhookDeliveryDeps {
  database: Database;
  secrets: SealedSecrets;
  logger: Logger;
  now: () => Date;
  /** Public addresses only, unless WEBHOOK_ALLOW_PRIVATE_TARGETS (tests and local receivers); names judged by what they resolve to. */
  outbound: OutboundPolicy;
  timeoutMs: number;
  random?: () => number;
  /** Each delivery's outcome, as activities_webhook_deliveries_total. */
  countDelivery?: (outcome: DeliveryOutcome) => void;
}

/** Due messages no live worker holds, each the earliest undelivered of its endpoint and key (in order per booking). */
const claim = (deps: WebhookDeliveryDeps, now: Date): Promise<WebhookMessageRow[]> =>
  webhookDeliveryRepository.claimDue(deps.database.db, now, new Date(now.getTime() + LEASE_MS), MAX_CLAIM);

/** One POST; resolves with the response status (redirects are not followed: a 3xx is a failure). */
function post(url: string, body: string, headers: Record<string, string>, deps: WebhookDeliveryDeps): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    // An address literal is never looked up, so it is judged here; a name, when it is resolved.
    const refused = deps.outbound.allowPrivate ? undefined : refusedOutboundHost(target.hostname);
    if (refused) return reject(new OutboundAddressRefused(refused));
    const span = activeTracer() ? trace.getActiveSpan() : undefined;
    span?.setAttributes(httpClientAttributes("POST", target));
    const request = (target.protocol === "https:" ? https : http).request(
      target,
      { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, lookup: guardedLookup(deps.outbound), timeout: deps.timeoutMs },
      (response) => {
        // The answer's body is not read beyond draining it: only the status counts.
        response.resume();
        span?.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, response.statusCode ?? 0);
        if ((response.statusCode ?? 0) >= 400) span?.setAttribute(ATTR_ERROR_TYPE, String(response.statusCode));
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(Object.assign(new Error(`no answer within ${deps.timeoutMs} ms`), { code: "timeout" })));
    request.on("error", (error: NodeJS.ErrnoException) => {
      span?.setAttribute(ATTR_ERROR_TYPE, error.code ?? error.name);
      reject(error);
    });
    request.end(body);
  });
}

type DeliveryOutcome = "delivered" | "failed" | "retried";

/** One attempt at a message; says how it went, or nothing when its endpoint is gone. */
async function deliver(deps: WebhookDeliveryDeps, message: WebhookMessageRow): Promise<DeliveryOutcome | undefined> {
  const endpoint = await webhookDeliveryRepository.endpoint(deps.database.db, message.endpointId);
  if (!endpoint) return undefined;
  const attempt = message.attempts + 1;
  const sentAt = deps.now();
  const body = JSON.stringify(message.payload);
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  const started = performance.now();
  let status: number | undefined;
  let error: string | undefined;
  try {
    const secret = await deps.secrets.open(endpoint.sealedSecret);
    status = await post(endpoint.url, body, {
      "content-type": "application/json",
      "user-agent": "activities-webhooks/1",
      "webhook-id": message.id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": webhookSignature(secret, message.id, timestamp, body),
    }, deps);
  } catch (caught) {
    error = (caught as Error).message.slice(0, 500);
  }
  const latencyMs = Math.round(performance.now() - started);
  const delivered = status !== undefined && status >= 200 && status < 300;
  const now = deps.now();
  const retryIn = RETRY_SCHEDULE_MS[attempt - 1];
  const jitter = 0.8 + 0.4 * (deps.random ?? Math.random)();
  const next = delivered ? "DELIVERED" : retryIn === undefined ? "FAILED" : "PENDING";
  await deps.database.db.transaction(async (tx) => {
    const recorded = await webhookDeliveryRepository.recordOutcome(tx, message, {
      status: next,
      attempts: attempt,
      deliveredAt: delivered ? now : null,
      nextAttemptAt: next === "PENDING" ? new Date(now.getTime() + Math.round(retryIn! * jitter)) : now,
      lastResponseStatus: status ?? null,
      lastLatencyMs: latencyMs,
      lastError: delivered ? null : (error ?? `answered ${status}`),
    });
    // Another worker took the message over after this one's lease lapsed: its outcome counts.
    if (!recorded) return;
    await webhookDeliveryRepository.insertAttempt(tx, { messageId: message.id, attempt, at: sentAt, outcome: delivered ? "DELIVERED" : "FAILED", responseStatus: status ?? null, latencyMs, error: delivered ? null : (error ?? `answered ${status}`) });
    if (delivered) {
      if (endpoint.failingSince) await webhookDeliveryRepository.clearFailing(tx, endpoint.id);
      return;
    }
    await webhookDeliveryRepository.markFailing(tx, endpoint.id, now);
    const failingSince = endpoint.failingSince ?? now;
    if (now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) {
      await webhookDeliveryRepository.disable(tx, endpoint.id, `No delivery succeeded since ${failingSince.toISOString()}: enable the endpoint again once it answers`, now);
      deps.logger.warn({ endpointId: endpoint.id, failingSince }, "webhook endpoint disabled after failing for days");
    }
  });
  const outcome = delivered ? "delivered" : next === "FAILED" ? "failed" : "retried";
  deps.countDelivery?.(outcome);
  deps.logger[delivered ? "debug" : "info"]({ endpointId: endpoint.id, messageId: message.id, attempt, status, latencyMs, error, next }, "webhook delivery");
  return outcome;
}

/** Each attempt, with tracing on, a trace of its own: no traceparent goes to the endpoint, which is a partner's. */
function tracedDelivery(deps: WebhookDeliveryDeps, message: WebhookMessageRow): Promise<unknown> {
  const attributes = { "activities.webhook.message_id": message.id, "activities.webhook.endpoint_id": message.endpointId, "activities.webhook.attempt": message.attempts + 1 };
  return inSpan("webhook delivery", { root: true, kind: SpanKind.CLIENT, attributes }, async (span) => {
    const outcome = await deliver(deps, message);
    if (outcome) span?.setAttribute("activities.webhook.outcome", outcome);
    return outcome;
  });
}

/** Delivers every message due now, in order per endpoint and key; returns how many attempts were made. */
export async function deliverDueWebhooks(deps: WebhookDeliveryDeps): Promise<number> {
  let made = 0;
  for (;;) {
    const claimed = await claim(deps, deps.now());
    if (!claimed.length) return made;
    await Promise.all(claimed.map((message) => tracedDelivery(deps, message)));
    made += claimed.length;
  }
}
