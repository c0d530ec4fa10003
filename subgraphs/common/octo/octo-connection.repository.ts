import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../../../drizzle/executor.js";
import { octoConnections } from "../../../drizzle/schema.js";

export type OctoConnectionRow = typeof octoConnections.$inferSelect;

/** The OCTO engines' connections (common's table): the sealed key is read here and opened only by OctoEngines. */
export const octoConnectionRepository = {
  async byEngineName(db: Executor, engineName: string): Promise<OctoConnectionRow | undefined> {
    const [row] = await db.select().from(octoConnections).where(eq(octoConnections.engineName, engineName));
    return row;
  },

  async byEngineIds(db: Executor, engineIds: readonly number[]): Promise<OctoConnectionRow[]> {
    return engineIds.length ? db.select().from(octoConnections).where(inArray(octoConnections.engineId, [...engineIds])) : [];
  },

  async all(db: Executor): Promise<OctoConnectionRow[]> {
    return db.select().from(octoConnections).orderBy(octoConnections.engineName);
  },

  /** Saves the connection, or replaces an earlier one of the engine keeping when it was first registered. */
  async upsert(db: Executor, values: Omit<typeof octoConnections.$inferInsert, "registeredAt">, now: Date): Promise<OctoConnectionRow> {
    const [row] = await db
      .insert(octoConnections)
      .values({ ...values, registeredAt: now })
      .onConflictDoUpdate({ target: octoConnections.engineId, set: { ...values, registeredAt: sql`${octoConnections.registeredAt}` } })
      .returning();
    return row;
  },

  /** Marks the engine's import started unless one started after `lapsed` still holds it; whether this caller got it. */
  async claimImport(db: Executor, engineId: number, now: Date, lapsed: Date): Promise<boolean> {
    const claimed = await db
      .update(octoConnections)
      .set({ importStartedAt: now })
      .where(and(eq(octoConnections.engineId, engineId), or(isNull(octoConnections.importStartedAt), lt(octoConnections.importStartedAt, lapsed))))
      .returning({ engineId: octoConnections.engineId });
    return claimed.length === 1;
  },

  async releaseImport(db: Executor, engineId: number, now: Date, completed: boolean): Promise<void> {
    await db
      .update(octoConnections)
      .set({ importStartedAt: null, ...(completed ? { lastImportedAt: now } : {}) })
      .where(eq(octoConnections.engineId, engineId));
  },
};
