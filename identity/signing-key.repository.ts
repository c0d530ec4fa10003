import { and, desc, eq, isNull } from "drizzle-orm";
import type { Executor } from "../drizzle/executor.js";
import { signingKeys } from "../drizzle/schema.js";

export type SigningKeyRow = typeof signingKeys.$inferSelect;

/** The environment's signing keys: identity's table, read and written here alone. */
export const signingKeyRepository = {
  /** The keys not retired, newest first; `limit` of them when given. */
  async active(db: Executor, environment: SigningKeyRow["environment"], limit?: number): Promise<SigningKeyRow[]> {
    const query = db
      .select()
      .from(signingKeys)
      .where(and(eq(signingKeys.environment, environment), isNull(signingKeys.retiredAt)))
      .orderBy(desc(signingKeys.createdAt), desc(signingKeys.kid));
    return limit ? query.limit(limit) : query;
  },

  /** A new key; another process's key made at the same moment is kept instead (the caller reads again). */
  async insertIfAbsent(db: Executor, values: typeof signingKeys.$inferInsert): Promise<void> {
    await db.insert(signingKeys).values(values).onConflictDoNothing();
  },
};
