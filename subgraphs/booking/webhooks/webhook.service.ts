import { sql } from "drizzle-orm";
import { badInput, forbidden, notFound, serviceError, type FieldProblem } from "../../../core/errors.js";
import { MANAGE_SCOPE } from "../../../core/roles.js";
import { checkUuid } from "../../../core/uuid.js";
import { endpointProblems, MAX_ENDPOINTS, webhookEndpointRepository, type WebhookEndpointRow, type WebhookMessageRow } from "../../common/webhooks/webhook-endpoints.js";
import { hasScope } from "../../../core/caller.js";
import { EngineSecretsUnavailable } from "../../common/sealed-secrets.js";
import { BOOKING_SCOPE } from "../booking-access.js";
import type { BookingContext } from "../loaders.js";
import type { CreatedWebhookEndpoint, WebhookEndpoint, WebhookEndpointChanges, WebhookEndpointInput, WebhookEventType, WebhookMessage, WebhookMessageStatus } from "./webhook.type.js";

/** How many messages one page of an endpoint's log holds at most. */
export const MAX_WEBHOOK_MESSAGE_PAGE = 100;

/** The scope an account needs to hear of each event type: bookings for consumers, products for content partners. */
const SCOPE_OF: Record<string, string> = { "booking.status_changed": BOOKING_SCOPE, "product.changed": MANAGE_SCOPE };

/** Consumer and content partner accounts manage their own organisation's endpoints. */
function organisationOf(ctx: BookingContext): number {
  const scoped = Object.values(SCOPE_OF).some((scope) => hasScope(ctx.caller, scope));
  if (!scoped || ctx.caller.organisationId === null) {
    throw forbidden("Webhook endpoints belong to an organisation: its consumer and content partner accounts manage them");
  }
  return ctx.caller.organisationId;
}

/** Event types the caller's account may not ask for, each naming its index. */
function typesNotAllowed(ctx: BookingContext, eventTypes: readonly string[]): FieldProblem[] {
  return eventTypes.flatMap((type, index) =>
    SCOPE_OF[type] && !hasScope(ctx.caller, SCOPE_OF[type])
      ? [{ field: `eventTypes[${index}]`, rule: "scope", message: `${type} needs the ${SCOPE_OF[type]} scope (${type === "product.changed" ? "content partner" : "consumer"} accounts)` }]
      : [],
  );
}

/** The caller's endpoint; another organisation's is as unknown as a missing one. */
async function ownEndpoint(ctx: BookingContext, id: string): Promise<WebhookEndpointRow> {
  const organisationId = organisationOf(ctx);
  checkUuid(id, "id");
  const row = await webhookEndpointRepository.byId(ctx.database.db, id);
  if (!row || row.organisationId !== organisationId) throw notFound(`Webhook endpoint ${id} not found`);
  return row;
}

const targets = (ctx: BookingContext) => ctx.loaders.webhookTargets;

/**
 * A new signing secret, sealed before anything is saved. A service that cannot keep secrets
 * (production without ENGINE_SECRETS_KEY) refuses as OCTO registration does: 409, the variable named.
 */
async function newSecret(ctx: BookingContext): Promise<{ secret: string; sealed: string }> {
  try {
    return await webhookEndpointRepository.newSecret(ctx.loaders.octo.secrets);
  } catch (error) {
    if (error instanceof EngineSecretsUnavailable) {
      throw serviceError("CONFLICT", `The endpoint's signing secret cannot be kept: ${error.message}`, { reason: "ENGINE_SECRETS_KEY_MISSING" });
    }
    throw error;
  }
}

const toEndpoint = (row: WebhookEndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description ?? undefined,
  eventTypes: row.eventTypes as WebhookEventType[],
  enabled: row.enabled,
  disabledReason: row.disabledReason ?? undefined,
  failingSince: row.failingSince ?? undefined,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

async function toMessage(ctx: BookingContext, row: WebhookMessageRow): Promise<WebhookMessage> {
  const attempts = await webhookEndpointRepository.attempts(ctx.database.db, row.id);
  return {
    id: row.id,
    eventType: row.eventType as WebhookEventType,
    orderingKey: row.orderingKey,
    status: row.status as WebhookMessageStatus,
    attempts: row.attempts,
    createdAt: row.createdAt,
    nextAttemptAt: row.status === "PENDING" ? row.nextAttemptAt : undefined,
    deliveredAt: row.deliveredAt ?? undefined,
    lastResponseStatus: row.lastResponseStatus ?? undefined,
    lastLatencyMs: row.lastLatencyMs ?? undefined,
    lastError: row.lastError ?? undefined,
    payload: JSON.stringify(row.payload),
    attemptLog: attempts.map((a) => ({ attempt: a.attempt, at: a.at, outcome: a.outcome as WebhookMessageStatus, responseStatus: a.responseStatus ?? undefined, latencyMs: a.latencyMs, error: a.error ?? undefined })),
  };
}

export const webhookService = {
  async endpoints(ctx: BookingContext): Promise<WebhookEndpoint[]> {
    return (await webhookEndpointRepository.ofOrganisation(ctx.database.db, organisationOf(ctx))).map(toEndpoint);
  },

  async create(ctx: BookingContext, input: WebhookEndpointInput): Promise<CreatedWebhookEndpoint> {
    const organisationId = organisationOf(ctx);
    const problems = [...endpointProblems({ url: input.url, eventTypes: input.eventTypes, description: input.description }, targets(ctx)), ...typesNotAllowed(ctx, input.eventTypes ?? [])];
    if (problems.length) throw badInput(problems.map((p) => `${p.field}: ${p.message}`).join("; "), problems);
    const now = ctx.clock.now();
    const secret = await newSecret(ctx);
    const endpoint = await ctx.database.db.transaction(async (tx) => {
      // Counted under a lock of the organisation's endpoints, so racing requests cannot pass the cap together.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('webhook_endpoints'), ${organisationId})`);
      const existing = await webhookEndpointRepository.ofOrganisation(tx, organisationId);
      if (existing.length >= MAX_ENDPOINTS) throw badInput(`An organisation has at most ${MAX_ENDPOINTS} webhook endpoints`, [{ field: "url", rule: "maxEndpoints", message: `at most ${MAX_ENDPOINTS} endpoints` }]);
      return webhookEndpointRepository.create(tx, secret, organisationId, input, now);
    });
    return { endpoint: toEndpoint(endpoint), secret: secret.secret };
  },

  async update(ctx: BookingContext, id: string, changes: WebhookEndpointChanges): Promise<WebhookEndpoint> {
    const current = await ownEndpoint(ctx, id);
    const next = {
      url: changes.url ?? current.url,
      eventTypes: changes.eventTypes ?? (current.eventTypes as WebhookEventType[]),
      description: changes.description === undefined ? current.description : changes.description,
    };
    const problems = [...endpointProblems(next, targets(ctx)), ...(changes.eventTypes ? typesNotAllowed(ctx, changes.eventTypes) : [])];
    if (problems.length) throw badInput(problems.map((p) => `${p.field}: ${p.message}`).join("; "), problems);
    const enabling = changes.enabled === true && !current.enabled;
    const row = await webhookEndpointRepository.update(
      ctx.database.db,
      id,
      {
        url: next.url,
        eventTypes: [...new Set(next.eventTypes)],
        description: next.description,
        ...(changes.enabled === false ? { enabled: false, disabledReason: "Disabled by the organisation" } : {}),
        // Enabled again: a fresh start, so one more failure does not disable it at once.
        ...(enabling ? { enabled: true, disabledReason: null, failingSince: null } : {}),
      },
      ctx.clock.now(),
    );
    return toEndpoint(row);
  },

  async rotate(ctx: BookingContext, id: string): Promise<string> {
    await ownEndpoint(ctx, id);
    const secret = await newSecret(ctx);
    await webhookEndpointRepository.replaceSecret(ctx.database.db, id, secret, ctx.clock.now());
    return secret.secret;
  },

  async delete(ctx: BookingContext, id: string): Promise<boolean> {
    await ownEndpoint(ctx, id);
    await webhookEndpointRepository.delete(ctx.database.db, id);
    return true;
  },

  async messages(ctx: BookingContext, endpointId: string, first: number, before: string | null): Promise<WebhookMessage[]> {
    await ownEndpoint(ctx, endpointId);
    if (!Number.isInteger(first) || first < 1 || first > MAX_WEBHOOK_MESSAGE_PAGE) {
      throw badInput(`first must be 1 to ${MAX_WEBHOOK_MESSAGE_PAGE}`, [{ field: "first", rule: "range", message: `1 to ${MAX_WEBHOOK_MESSAGE_PAGE}` }]);
    }
    let cursor: { createdAt: Date; id: string } | undefined;
    if (before !== null && before !== undefined) {
      checkUuid(before, "before");
      const message = await webhookEndpointRepository.message(ctx.database.db, before);
      if (!message || message.endpointId !== endpointId) throw badInput("before must be a message id of this endpoint", [{ field: "before", rule: "messageOfEndpoint", message: "a message id of this endpoint" }]);
      cursor = { createdAt: message.createdAt, id: message.id };
    }
    const rows = await webhookEndpointRepository.messages(ctx.database.db, endpointId, first, cursor);
    return Promise.all(rows.map((row) => toMessage(ctx, row)));
  },

  async redeliver(ctx: BookingContext, messageId: string): Promise<WebhookMessage> {
    organisationOf(ctx);
    checkUuid(messageId, "id");
    const message = await webhookEndpointRepository.message(ctx.database.db, messageId);
    if (!message) throw notFound(`Webhook message ${messageId} not found`);
    await ownEndpoint(ctx, message.endpointId).catch(() => {
      throw notFound(`Webhook message ${messageId} not found`);
    });
    return toMessage(ctx, await webhookEndpointRepository.redeliver(ctx.database.db, messageId, ctx.clock.now()));
  },
};
