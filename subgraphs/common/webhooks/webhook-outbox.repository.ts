import { randomUUID } from "node:crypto";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { anyOf, compiledSelect } from "../../../drizzle/compiled-select.js";
import type { Executor } from "../../../drizzle/database.js";
import { webhookEndpoints, webhookMessages } from "../../../drizzle/schema.js";
import type { WebhookEventType } from "./webhook.events.js";

// Every booking status change asks which endpoints want it: built once (compiled-select.ts).
const enabledEndpoints = compiledSelect<{ organisations: number[]; type: WebhookEventType }, { id: (typeof webhookEndpoints.$inferSelect)["id"]; organisationId: number }>((db) =>
  db
    .select({ id: webhookEndpoints.id, organisationId: webhookEndpoints.organisationId })
    .from(webhookEndpoints)
    .where(and(anyOf(webhookEndpoints.organisationId, "organisations"), eq(webhookEndpoints.enabled, true), sql`${sql.placeholder("type")} = any(${webhookEndpoints.eventTypes})`)),
);

export interface WebhookEvent {
  organisationId: number;
  type: WebhookEventType;
  /** Events of one key (a booking's id) reach each endpoint in the order they were written. */
  orderingKey: string;
  data: Record<string, unknown>;
  at: Date;
}

/**
 * Whether an enabled endpoint of the organisation asked for the type, as an SQL expression: the
 * caller asks it within a statement it sends anyway (its notification), and builds the event for
 * `enqueueWebhookEvent` only when it is true.
 */
export function webhookWanted(organisationId: number, type: WebhookEventType): SQL {
  return sql`exists (select 1 from ${webhookEndpoints} e where ${wants(organisationId, type)})`;
}

/** The endpoints `e` of the organisation, enabled, that asked for the type. */
const wants = (organisationId: number, type: WebhookEventType): SQL => sql`e.organisation_id = ${organisationId} and e.enabled and ${type} = any(e.event_types)`;

/**
 * Writes the event for every enabled endpoint of the organisation that asked for its type (the
 * caller found `webhookWanted` true), in the caller's transaction: the change and the promise to
 * announce it commit together, so a crash loses neither. One statement, however many endpoints.
 */
export async function enqueueWebhookEvent(tx: Executor, event: WebhookEvent): Promise<void> {
  const payload = { type: event.type, timestamp: event.at.toISOString(), data: event.data };
  await tx.execute(sql`
    insert into ${webhookMessages} (id, endpoint_id, event_type, ordering_key, payload, created_at, next_attempt_at)
    select gen_random_uuid(), e.id, ${event.type}, ${event.orderingKey}, ${JSON.stringify(payload)}::jsonb, ${event.at.toISOString()}::timestamptz, ${event.at.toISOString()}::timestamptz
      from ${webhookEndpoints} e
     where ${wants(event.organisationId, event.type)}`);
}

/** Events of one type for many organisations at once (a bulk change of products): two statements, whatever their number. */
export async function enqueueWebhookEvents(
  tx: Executor,
  type: WebhookEventType,
  events: { organisationId: number; orderingKey: string; data: Record<string, unknown> }[],
  at: Date,
): Promise<void> {
  if (!events.length) return;
  const organisations = [...new Set(events.map((e) => e.organisationId))];
  const endpoints = await enabledEndpoints(tx, { organisations, type });
  if (!endpoints.length) return;
  const timestamp = at.toISOString();
  const messages = events.flatMap((event) =>
    endpoints
      .filter((endpoint) => endpoint.organisationId === event.organisationId)
      .map((endpoint) => ({ id: randomUUID(), endpointId: endpoint.id, eventType: type, orderingKey: event.orderingKey, payload: { type, timestamp, data: event.data }, createdAt: at, nextAttemptAt: at })),
  );
  // In slices, so that a very large change stays within a statement's parameters.
  for (let i = 0; i < messages.length; i += 1000) await tx.insert(webhookMessages).values(messages.slice(i, i + 1000));
}

/** Whether any enabled endpoint asks for the type: callers skip building events nobody wants. */
export async function webhookTypeWanted(tx: Executor, type: WebhookEventType): Promise<boolean> {
  const [any] = await tx.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(and(eq(webhookEndpoints.enabled, true), sql`${type} = any(${webhookEndpoints.eventTypes})`)).limit(1);
  return any !== undefined;
}
