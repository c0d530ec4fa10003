import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, gt, inArray, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../../../drizzle/executor.js";
import { webhookAttempts, webhookEndpoints, webhookMessages } from "../../../drizzle/schema.js";
import type { SealedSecrets } from "../sealed.secrets.js";
import type { WebhookEventType } from "./webhook.events.js";
import type { WebhookEndpointInput } from "./webhook-endpoint.rules.js";
import { newWebhookSecret } from "./webhook.signature.js";

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookMessageRow = typeof webhookMessages.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

export const webhookEndpointRepository = {
  async ofOrganisation(db: Executor, organisationId: number): Promise<WebhookEndpointRow[]> {
    return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.organisationId, organisationId)).orderBy(webhookEndpoints.createdAt);
  },

  async byId(db: Executor, id: string): Promise<WebhookEndpointRow | undefined> {
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    return row;
  },

  /** A new signing secret, and its sealed form to store; sealed before any transaction (opening the key may read the database). */
  async newSecret(secrets: SealedSecrets): Promise<{ secret: string; sealed: string }> {
    const secret = newWebhookSecret();
    return { secret, sealed: await secrets.seal(secret) };
  },

  async create(db: Executor, secret: { sealed: string }, organisationId: number, input: WebhookEndpointInput, now: Date): Promise<WebhookEndpointRow> {
    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({
        id: randomUUID(),
        organisationId,
        url: input.url,
        description: input.description ?? null,
        eventTypes: [...new Set(input.eventTypes)] as WebhookEventType[],
        sealedSecret: secret.sealed,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return endpoint;
  },

  async update(db: Executor, id: string, changes: Partial<Pick<WebhookEndpointRow, "url" | "description" | "eventTypes" | "enabled" | "disabledReason" | "failingSince">>, now: Date): Promise<WebhookEndpointRow> {
    const [row] = await db.update(webhookEndpoints).set({ ...changes, updatedAt: now }).where(eq(webhookEndpoints.id, id)).returning();
    return row;
  },

  /** A new secret (from newSecret); deliveries from now on are signed with it. */
  async replaceSecret(db: Executor, id: string, secret: { sealed: string }, now: Date): Promise<void> {
    await db.update(webhookEndpoints).set({ sealedSecret: secret.sealed, updatedAt: now }).where(eq(webhookEndpoints.id, id));
  },

  async delete(db: Executor, id: string): Promise<void> {
    await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  },

  /**
   * A page of the endpoint's messages, which are listed newest first: `older` reads on from a
   * message towards older ones, newest first; `newer` reads back towards newer ones, nearest first.
   */
  async messagePage(db: Executor, endpointId: string, limit: number, from?: { createdAt: Date; id: string; toward: "older" | "newer" }): Promise<WebhookMessageRow[]> {
    const m = webhookMessages;
    const older = from?.toward !== "newer";
    const past = !from
      ? undefined
      : older
        ? or(lt(m.createdAt, from.createdAt), and(eq(m.createdAt, from.createdAt), lt(m.id, from.id)))
        : or(gt(m.createdAt, from.createdAt), and(eq(m.createdAt, from.createdAt), gt(m.id, from.id)));
    return db
      .select()
      .from(m)
      .where(and(eq(m.endpointId, endpointId), past))
      .orderBy(...(older ? [desc(m.createdAt), desc(m.id)] : [asc(m.createdAt), asc(m.id)]))
      .limit(limit);
  },

  /** How many messages the endpoint has, counting at most `limit`. */
  async countMessages(db: Executor, endpointId: string, limit: number): Promise<number> {
    const counted = db.select({ one: sql`1` }).from(webhookMessages).where(eq(webhookMessages.endpointId, endpointId)).limit(limit).as("counted");
    const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(counted);
    return row.count;
  },

  /** Of the ids, the organisation's endpoints. */
  async endpointIdsOf(db: Executor, organisationId: number, ids: readonly string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(and(eq(webhookEndpoints.organisationId, organisationId), inArray(webhookEndpoints.id, [...ids])));
    return rows.map((row) => row.id);
  },

  /** Of the ids, the messages of the organisation's endpoints. */
  async messageIdsOf(db: Executor, organisationId: number, ids: readonly string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await db
      .select({ id: webhookMessages.id })
      .from(webhookMessages)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookMessages.endpointId))
      .where(and(eq(webhookEndpoints.organisationId, organisationId), inArray(webhookMessages.id, [...ids])));
    return rows.map((row) => row.id);
  },

  async message(db: Executor, id: string): Promise<WebhookMessageRow | undefined> {
    const [row] = await db.select().from(webhookMessages).where(eq(webhookMessages.id, id));
    return row;
  },

  /** The tries of each message, oldest first, in one statement for a whole page. */
  async attemptsOf(db: Executor, messageIds: readonly string[]): Promise<Map<string, WebhookAttemptRow[]>> {
    const byMessage = new Map<string, WebhookAttemptRow[]>(messageIds.map((id) => [id, []]));
    if (!messageIds.length) return byMessage;
    const rows = await db.select().from(webhookAttempts).where(inArray(webhookAttempts.messageId, [...messageIds])).orderBy(webhookAttempts.messageId, webhookAttempts.attempt);
    for (const row of rows) byMessage.get(row.messageId)?.push(row);
    return byMessage;
  },

  /** Sends a message again from now: a failed one, or a delivered one the receiver lost. */
  async redeliver(db: Executor, id: string, now: Date): Promise<WebhookMessageRow> {
    const [row] = await db.update(webhookMessages).set({ status: "PENDING", nextAttemptAt: now, leaseId: null, lockedUntil: null }).where(eq(webhookMessages.id, id)).returning();
    return row;
  },
};
