import { sql } from "drizzle-orm";
import { badInput, forbidden, notFound, type FieldProblem } from "../../../core/errors.js";
import { rejected } from "../../../core/refusals.js";
import { MANAGE_SCOPE } from "../../../core/roles.js";
import { isUuid } from "../../../core/uuid.js";
import { keyOfGlobalId, toGlobalId } from "../../../core/global-id.js";
import { cappedCount, connectionFrom, pageRequest, type Connection, type PagingArguments } from "../../common/relay/relay.connection.js";
import { endpointProblems, MAX_ENDPOINTS } from "../../common/webhooks/webhook-endpoint.rules.js";
import { webhookEndpointRepository, type WebhookAttemptRow, type WebhookEndpointRow, type WebhookMessageRow } from "../../common/webhooks/webhook-endpoint.repository.js";
import { hasScope, type Caller } from "../../../core/caller.js";
import { EngineSecretsUnavailable } from "../../common/sealed.secrets.js";
import { BOOKING_SCOPE } from "../booking.access.js";
import type { BookingContext } from "../booking.loaders.js";
import type { CreateWebhookEndpointInput, UpdateWebhookEndpointInput, WebhookAttemptOutcome, WebhookEndpoint, WebhookEventType, WebhookMessage, WebhookMessageStatus } from "./webhook.type.js";

/** How many messages one page of an endpoint's log holds at most. */
export const MAX_WEBHOOK_MESSAGE_PAGE = 100;

/** The scope an account needs to hear of each event type: bookings for consumers, products for content partners. */
const SCOPE_OF: Record<string, string> = { "booking.status_changed": BOOKING_SCOPE, "product.changed": MANAGE_SCOPE };

/** The organisation whose endpoints the caller manages: consumer and content partner accounts, their own; null for anyone else. */
export function webhookOrganisationOf(caller: Caller): number | null {
  const scoped = Object.values(SCOPE_OF).some((scope) => hasScope(caller, scope));
  return scoped ? caller.organisationId : null;
}

function organisationOf(ctx: BookingContext): number {
  const organisationId = webhookOrganisationOf(ctx.caller);
  if (organisationId === null) throw forbidden("Webhook endpoints belong to an organisation: its consumer and content partner accounts manage them");
  return organisationId;
}

/** Event types the caller's account may not ask for, each naming its index. */
function typesNotAllowed(ctx: BookingContext, eventTypes: readonly string[]): FieldProblem[] {
  return eventTypes.flatMap((type, index) =>
    SCOPE_OF[type] && !hasScope(ctx.caller, SCOPE_OF[type])
      ? [{ field: `eventTypes[${index}]`, rule: "scope", message: `${type} needs the ${SCOPE_OF[type]} scope (${type === "product.changed" ? "content partner" : "consumer"} accounts)` }]
      : [],
  );
}

/** The caller's endpoint; another organisation's is as unknown as a missing one, and so is a key that is not a UUID. */
async function ownEndpoint(ctx: BookingContext, key: string): Promise<WebhookEndpointRow> {
  const organisationId = organisationOf(ctx);
  const row = isUuid(key) ? await webhookEndpointRepository.byId(ctx.database.db, key) : undefined;
  if (!row || row.organisationId !== organisationId) throw notFound("No webhook endpoint of the caller's organisation has this id");
  return row;
}

/** The caller's message, by the same rule as its endpoint. */
async function ownMessage(ctx: BookingContext, key: string): Promise<WebhookMessageRow> {
  organisationOf(ctx);
  const message = isUuid(key) ? await webhookEndpointRepository.message(ctx.database.db, key) : undefined;
  const owned = message && (await ownEndpoint(ctx, message.endpointId).then(() => true, () => false));
  if (!message || !owned) throw notFound("No webhook message of the caller's organisation has this id");
  return message;
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
      throw rejected("ENGINE_SECRETS_KEY_MISSING", `The endpoint's signing secret cannot be kept: ${error.message}`);
    }
    throw error;
  }
}

function problemsRefused(problems: FieldProblem[]): void {
  if (problems.length) throw badInput(problems.map((p) => `${p.field}: ${p.message}`).join("; "), problems);
}

const toEndpoint = (row: WebhookEndpointRow): WebhookEndpoint => ({
  id: toGlobalId("WebhookEndpoint", row.id),
  legacyResourceId: row.id,
  url: row.url,
  description: row.description,
  eventTypes: row.eventTypes as WebhookEventType[],
  isEnabled: row.enabled,
  disabledReason: row.disabledReason,
  failingSince: row.failingSince,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** Messages with their tries, read in one statement for all of them. */
async function toMessages(ctx: BookingContext, rows: WebhookMessageRow[]): Promise<WebhookMessage[]> {
  const attempts = await webhookEndpointRepository.attemptsOf(ctx.database.db, rows.map((row) => row.id));
  return rows.map((row) => toMessage(row, attempts.get(row.id) ?? []));
}

const oneMessage = async (ctx: BookingContext, row: WebhookMessageRow): Promise<WebhookMessage> => (await toMessages(ctx, [row]))[0];

function toMessage(row: WebhookMessageRow, attempts: WebhookAttemptRow[]): WebhookMessage {
  return {
    id: toGlobalId("WebhookMessage", row.id),
    legacyResourceId: row.id,
    eventType: row.eventType as WebhookEventType,
    orderingKey: row.orderingKey,
    status: row.status as WebhookMessageStatus,
    attemptCount: row.attempts,
    createdAt: row.createdAt,
    nextAttemptAt: row.status === "PENDING" ? row.nextAttemptAt : null,
    deliveredAt: row.deliveredAt,
    lastResponseStatus: row.lastResponseStatus,
    lastLatencyMs: row.lastLatencyMs,
    lastError: row.lastError,
    payload: JSON.stringify(row.payload),
    attemptLog: attempts.map((a) => ({ number: a.attempt, at: a.at, outcome: a.outcome as WebhookAttemptOutcome, responseStatus: a.responseStatus, latencyMs: a.latencyMs, error: a.error })),
  };
}

/** Counting an endpoint's log stops here: a larger log answers AT_LEAST. */
export const WEBHOOK_MESSAGE_COUNT_CAP = 10_000;

/**
 * Webhook endpoints and their delivery logs, for the caller's organisation. Endpoints and
 * messages are addressed by their keys (UUIDs; the resolvers take them out of global ids).
 */
export const webhookService = {
  async endpoints(ctx: BookingContext): Promise<WebhookEndpoint[]> {
    return (await webhookEndpointRepository.ofOrganisation(ctx.database.db, organisationOf(ctx))).map(toEndpoint);
  },

  /** The endpoint when the caller may see it, else null (federation references and `node`). */
  async visibleEndpoint(ctx: BookingContext, key: string): Promise<WebhookEndpoint | null> {
    const organisationId = webhookOrganisationOf(ctx.caller);
    const row = organisationId !== null && isUuid(key) ? await webhookEndpointRepository.byId(ctx.database.db, key) : undefined;
    return row && row.organisationId === organisationId ? toEndpoint(row) : null;
  },

  async visibleMessage(ctx: BookingContext, key: string): Promise<WebhookMessage | null> {
    if (webhookOrganisationOf(ctx.caller) === null) return null;
    return ownMessage(ctx, key).then((row) => oneMessage(ctx, row), () => null);
  },

  async create(ctx: BookingContext, input: CreateWebhookEndpointInput): Promise<{ webhookEndpoint: WebhookEndpoint; secret: string }> {
    const organisationId = organisationOf(ctx);
    problemsRefused([...endpointProblems({ url: input.url, eventTypes: input.eventTypes, description: input.description }, targets(ctx)), ...typesNotAllowed(ctx, input.eventTypes ?? [])]);
    const now = ctx.clock.now();
    const secret = await newSecret(ctx);
    const endpoint = await ctx.database.db.transaction(async (tx) => {
      // Counted under a lock of the organisation's endpoints, so racing requests cannot pass the cap together.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('webhook_endpoints'), ${organisationId})`);
      const existing = await webhookEndpointRepository.ofOrganisation(tx, organisationId);
      if (existing.length >= MAX_ENDPOINTS) throw badInput(`An organisation has at most ${MAX_ENDPOINTS} webhook endpoints`, [{ field: "url", rule: "maxEndpoints", message: `at most ${MAX_ENDPOINTS} endpoints` }]);
      return webhookEndpointRepository.create(tx, secret, organisationId, input, now);
    });
    return { webhookEndpoint: toEndpoint(endpoint), secret: secret.secret };
  },

  async update(ctx: BookingContext, key: string, changes: Omit<UpdateWebhookEndpointInput, "webhookEndpointId">): Promise<{ webhookEndpoint: WebhookEndpoint }> {
    const current = await ownEndpoint(ctx, key);
    const next = {
      url: changes.url ?? current.url,
      eventTypes: changes.eventTypes ?? (current.eventTypes as WebhookEventType[]),
      description: changes.description === undefined ? current.description : changes.description,
    };
    problemsRefused([...endpointProblems(next, targets(ctx)), ...(changes.eventTypes ? typesNotAllowed(ctx, changes.eventTypes) : [])]);
    const enabling = changes.isEnabled === true && !current.enabled;
    const row = await webhookEndpointRepository.update(
      ctx.database.db,
      current.id,
      {
        url: next.url,
        eventTypes: [...new Set(next.eventTypes)],
        description: next.description,
        ...(changes.isEnabled === false ? { enabled: false, disabledReason: "Disabled by the organisation" } : {}),
        // Enabled again: a fresh start, so one more failure does not disable it at once.
        ...(enabling ? { enabled: true, disabledReason: null, failingSince: null } : {}),
      },
      ctx.clock.now(),
    );
    return { webhookEndpoint: toEndpoint(row) };
  },

  async rotate(ctx: BookingContext, key: string): Promise<{ webhookEndpoint: WebhookEndpoint; secret: string }> {
    const current = await ownEndpoint(ctx, key);
    const secret = await newSecret(ctx);
    await webhookEndpointRepository.replaceSecret(ctx.database.db, current.id, secret, ctx.clock.now());
    return { webhookEndpoint: toEndpoint((await webhookEndpointRepository.byId(ctx.database.db, current.id)) ?? current), secret: secret.secret };
  },

  async delete(ctx: BookingContext, key: string): Promise<{ deletedWebhookEndpointId: string }> {
    const current = await ownEndpoint(ctx, key);
    await webhookEndpointRepository.delete(ctx.database.db, current.id);
    return { deletedWebhookEndpointId: toGlobalId("WebhookEndpoint", current.id) };
  },

  /** The endpoint's delivery log as a connection, newest first; its cursors are the messages' global ids. */
  async messages(ctx: BookingContext, endpointKey: string, args: PagingArguments): Promise<Connection<WebhookMessage>> {
    const request = pageRequest(args, MAX_WEBHOOK_MESSAGE_PAGE, (cursor) => keyOfGlobalId(cursor, "WebhookMessage"));
    let from: { createdAt: Date; id: string; toward: "older" | "newer" } | undefined;
    if (request.position !== null) {
      const cursorName = request.direction === "forward" ? "after" : "before";
      const message = isUuid(request.position) ? await webhookEndpointRepository.message(ctx.database.db, request.position) : undefined;
      if (!message || message.endpointId !== endpointKey) throw badInput(`${cursorName} is not a cursor of this list`, [{ field: cursorName, rule: "cursor", message: "a cursor this list gave" }]);
      from = { createdAt: message.createdAt, id: message.id, toward: request.direction === "forward" ? "older" : "newer" };
    }
    const rows = request.size === 0 ? [] : await webhookEndpointRepository.messagePage(ctx.database.db, endpointKey, request.size + 1, from);
    const page = rows.slice(0, request.size);
    const nodes = new Map((await toMessages(ctx, page)).map((message, index) => [page[index].id, message]));
    return connectionFrom(
      request,
      rows,
      (row) => nodes.get(row.id) as WebhookMessage,
      (row) => toGlobalId("WebhookMessage", row.id),
      () => cappedCount(WEBHOOK_MESSAGE_COUNT_CAP, (limit) => webhookEndpointRepository.countMessages(ctx.database.db, endpointKey, limit)),
    );
  },

  async redeliver(ctx: BookingContext, key: string): Promise<{ webhookMessage: WebhookMessage }> {
    const message = await ownMessage(ctx, key);
    return { webhookMessage: await oneMessage(ctx, await webhookEndpointRepository.redeliver(ctx.database.db, message.id, ctx.clock.now())) };
  },
};
