import { and, eq, isNull, sql } from "drizzle-orm";
import { rows, type Executor } from "../../../drizzle/executor.js";
import { webhookAttempts, webhookEndpoints, webhookMessages } from "../../../drizzle/schema.js";
import type { WebhookEndpointRow, WebhookMessageRow } from "./webhook-endpoint.repository.js";

/** An attempt's outcome as the message keeps it. */
export interface AttemptOutcome {
  status: WebhookMessageRow["status"];
  attempts: number;
  deliveredAt: Date | null;
  nextAttemptAt: Date;
  lastResponseStatus: number | null;
  lastLatencyMs: number;
  lastError: string | null;
}

/** The statements of webhook delivery: claiming due messages, recording attempts, an endpoint's failing state. */
export const webhookDeliveryRepository = {
  /**
   * Up to `limit` due messages no live worker holds, each the earliest undelivered of its endpoint
   * and key (in order per booking), leased until `leasedUntil`.
   */
  async claimDue(db: Executor, now: Date, leasedUntil: Date, limit: number): Promise<WebhookMessageRow[]> {
    const at = now.toISOString();
    const claimed = await rows<{ id: string }>(db, sql`
      update ${webhookMessages} set lease_id = gen_random_uuid(), locked_until = ${leasedUntil.toISOString()}::timestamptz
       where id in (
         select m.id from ${webhookMessages} m join ${webhookEndpoints} e on e.id = m.endpoint_id
          where m.status = 'PENDING' and m.next_attempt_at <= ${at}::timestamptz
            and (m.locked_until is null or m.locked_until < ${at}::timestamptz) and e.enabled
            and not exists (select 1 from ${webhookMessages} p
                             where p.endpoint_id = m.endpoint_id and p.ordering_key = m.ordering_key and p.status = 'PENDING' and p.sequence < m.sequence)
          order by m.next_attempt_at
          limit ${limit}
          for update of m skip locked)
       returning id`);
    if (!claimed.length) return [];
    return db.select().from(webhookMessages).where(sql`${webhookMessages.id} in (${sql.join(claimed.map((c) => sql`${c.id}::uuid`), sql`, `)})`);
  },

  async endpoint(db: Executor, id: WebhookEndpointRow["id"]): Promise<WebhookEndpointRow | undefined> {
    const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    return endpoint;
  },

  /** The attempt's outcome on the message, while this worker's lease holds it; false when another worker took it over. */
  async recordOutcome(db: Executor, message: Pick<WebhookMessageRow, "id" | "leaseId">, outcome: AttemptOutcome): Promise<boolean> {
    const updated = await db
      .update(webhookMessages)
      .set({ ...outcome, leaseId: null, lockedUntil: null })
      .where(and(eq(webhookMessages.id, message.id), eq(webhookMessages.leaseId, message.leaseId!)))
      .returning({ id: webhookMessages.id });
    return updated.length > 0;
  },

  async insertAttempt(db: Executor, attempt: typeof webhookAttempts.$inferInsert): Promise<void> {
    await db.insert(webhookAttempts).values(attempt);
  },

  async clearFailing(db: Executor, endpointId: WebhookEndpointRow["id"]): Promise<void> {
    await db.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpointId));
  },

  /** Marks the endpoint failing since `now`, unless it already was. */
  async markFailing(db: Executor, endpointId: WebhookEndpointRow["id"], now: Date): Promise<void> {
    await db.update(webhookEndpoints).set({ failingSince: now }).where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.failingSince)));
  },

  async disable(db: Executor, endpointId: WebhookEndpointRow["id"], reason: string, now: Date): Promise<void> {
    await db.update(webhookEndpoints).set({ enabled: false, disabledReason: reason, updatedAt: now }).where(eq(webhookEndpoints.id, endpointId));
  },
};
