import { and, eq, gt, lt } from "drizzle-orm";
import type { Executor } from "../drizzle/database.js";
import { refreshTokens } from "../drizzle/schema.js";

export const refreshTokenRepository = {
  async insert(db: Executor, values: typeof refreshTokens.$inferInsert): Promise<void> {
    await db.insert(refreshTokens).values(values);
  },

  /** Locks the row so that two concurrent refreshes with one token cannot both succeed. */
  async forUpdate(db: Executor, tokenHash: string) {
    const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).for("update");
    return row;
  },

  async markUsed(db: Executor, tokenHash: string, at: Date): Promise<void> {
    await db.update(refreshTokens).set({ usedAt: at }).where(eq(refreshTokens.tokenHash, tokenHash));
  },

  async revokeSession(db: Executor, sessionId: string): Promise<void> {
    await db.update(refreshTokens).set({ revoked: true }).where(eq(refreshTokens.sessionId, sessionId));
  },

  /** The account's sessions that could still be refreshed, each with the time it ends. */
  async liveSessions(db: Executor, accountId: string, now: Date): Promise<{ sessionId: string; endsAt: Date }[]> {
    return db
      .selectDistinct({ sessionId: refreshTokens.sessionId, endsAt: refreshTokens.expiresAt })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.accountId, accountId), eq(refreshTokens.revoked, false), gt(refreshTokens.expiresAt, now)));
  },

  async deleteExpired(db: Executor, before: Date): Promise<number> {
    const removed = await db.delete(refreshTokens).where(and(lt(refreshTokens.expiresAt, before))).returning({ hash: refreshTokens.tokenHash });
    return removed.length;
  },

  /** The sessions revoked before their tokens expired, while they would still run. */
  async revokedSessions(db: Executor, now: Date): Promise<{ sessionId: string; accountId: string; endsAt: Date }[]> {
    return db
      .selectDistinct({ sessionId: refreshTokens.sessionId, accountId: refreshTokens.accountId, endsAt: refreshTokens.expiresAt })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.revoked, true), gt(refreshTokens.expiresAt, now)));
  },
};
