import http from "node:http";
import https from "node:https";
import { SpanKind, trace } from "@opentelemetry/api";
import { ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE } from "@opentelemetry/semantic-conventions";
import { and, eq, isNull, sql } from "drizzle-orm";
import { activeTracer, inSpan } from "../../../core/tracing.js";
import { httpClientAttributes } from "../../../core/http-span-attributes.js";
import { guardedLookup, OutboundAddressRefused, refusedOutboundHost, type OutboundPolicy } from "../../../core/outbound-address.js";
import type { Logger } from "../../../core/logger.js";
import { rows, type Database } from "../../../drizzle/database.js";
import { webhookAttempts, webhookEndpoints, webhookMessages } from "../../../drizzle/schema.js";
import type { SealedSecrets } from "../sealed-secrets.js";
import type { WebhookMessageRow } from "./webhook-endpoints.js";
import { webhookSignature } from "./webhook-signature.js";

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
async function claim(deps: WebhookDeliveryDeps, now: Date): Promise<WebhookMessageRow[]> {
  const at = now.toISOString();
  const claimed = await rows<{ id: string }>(deps.database.db, sql`
    update ${webhookMessages} set lease_id = gen_random_uuid(), locked_until = ${new Date(now.getTime() + LEASE_MS).toISOString()}::timestamptz
     where id in (
       select m.id from ${webhookMessages} m join ${webhookEndpoints} e on e.id = m.endpoint_id
        where m.status = 'PENDING' and m.next_attempt_at <= ${at}::timestamptz
          and (m.locked_until is null or m.locked_until < ${at}::timestamptz) and e.enabled
          and not exists (select 1 from ${webhookMessages} p
                           where p.endpoint_id = m.endpoint_id and p.ordering_key = m.ordering_key and p.status = 'PENDING' and p.sequence < m.sequence)
        order by m.next_attempt_at
        limit ${MAX_CLAIM}
        for update of m skip locked)
     returning id`);
  if (!claimed.length) return [];
  return deps.database.db.select().from(webhookMessages).where(sql`${webhookMessages.id} in (${sql.join(claimed.map((c) => sql`${c.id}::uuid`), sql`, `)})`);
}

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
  const [endpoint] = await deps.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, message.endpointId));
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
    const updated = await tx
      .update(webhookMessages)
      .set({
        status: next,
        attempts: attempt,
        leaseId: null,
        lockedUntil: null,
        deliveredAt: delivered ? now : null,
        nextAttemptAt: next === "PENDING" ? new Date(now.getTime() + Math.round(retryIn! * jitter)) : now,
        lastResponseStatus: status ?? null,
        lastLatencyMs: latencyMs,
        lastError: delivered ? null : (error ?? `answered ${status}`),
      })
      .where(and(eq(webhookMessages.id, message.id), eq(webhookMessages.leaseId, message.leaseId!)))
      .returning({ id: webhookMessages.id });
    // Another worker took the message over after this one's lease lapsed: its outcome counts.
    if (!updated.length) return;
    await tx.insert(webhookAttempts).values({ messageId: message.id, attempt, at: sentAt, outcome: delivered ? "DELIVERED" : "FAILED", responseStatus: status ?? null, latencyMs, error: delivered ? null : (error ?? `answered ${status}`) });
    if (delivered) {
      if (endpoint.failingSince) await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id));
      return;
    }
    await tx.update(webhookEndpoints).set({ failingSince: now }).where(and(eq(webhookEndpoints.id, endpoint.id), isNull(webhookEndpoints.failingSince)));
    const failingSince = endpoint.failingSince ?? now;
    if (now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) {
      await tx
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: `No delivery succeeded since ${failingSince.toISOString()}: enable the endpoint again once it answers`, updatedAt: now })
        .where(eq(webhookEndpoints.id, endpoint.id));
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
