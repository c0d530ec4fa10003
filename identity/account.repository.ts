import { and, asc, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { Executor } from "../drizzle/database.js";
import { accounts, passwordSetupTokens } from "../drizzle/schema.js";

export type AccountRow = typeof accounts.$inferSelect;
export type Environment = AccountRow["environment"];

export const accountRepository = {
  /** Usernames are looked up within one environment: another environment's account of that name is not this one's. */
  async byUsername(db: Executor, environment: Environment, username: string): Promise<AccountRow | undefined> {
    const [row] = await db
      .select()
      .from(accounts)
      .where(and(eq(accounts.environment, environment), sql`lower(${accounts.username}) = lower(${username})`));
    return row;
  },

  async byId(db: Executor, id: string): Promise<AccountRow | undefined> {
    const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
    return row;
  },

  async byIds(db: Executor, ids: readonly string[]): Promise<AccountRow[]> {
    return ids.length ? db.select().from(accounts).where(inArray(accounts.id, [...ids])) : [];
  },

  async list(db: Executor, environment: Environment): Promise<AccountRow[]> {
    return db.select().from(accounts).where(eq(accounts.environment, environment)).orderBy(asc(accounts.username));
  },

  async insert(db: Executor, values: typeof accounts.$inferInsert): Promise<AccountRow> {
    const [row] = await db.insert(accounts).values(values).returning();
    return row;
  },

  async update(db: Executor, id: string, values: Partial<typeof accounts.$inferInsert>): Promise<void> {
    await db.update(accounts).set(values).where(eq(accounts.id, id));
  },

  async insertPasswordSetupToken(db: Executor, values: typeof passwordSetupTokens.$inferInsert): Promise<void> {
    await db.insert(passwordSetupTokens).values(values);
  },

  async passwordSetupTokenForUpdate(db: Executor, tokenHash: string) {
    const [row] = await db
      .select()
      .from(passwordSetupTokens)
      .where(eq(passwordSetupTokens.tokenHash, tokenHash))
      .for("update");
    return row;
  },

  async passwordSetupToken(db: Executor, tokenHash: string) {
    const [row] = await db.select().from(passwordSetupTokens).where(eq(passwordSetupTokens.tokenHash, tokenHash));
    return row;
  },

  /** Using one link spends every other outstanding link of the same account. */
  async spendPasswordSetupTokens(db: Executor, accountId: string, at: Date): Promise<void> {
    await db
      .update(passwordSetupTokens)
      .set({ usedAt: at })
      .where(sql`${passwordSetupTokens.accountId} = ${accountId} and ${passwordSetupTokens.usedAt} is null`);
  },

  /** Links expired before `before`, spent or not, removed: how many. */
  async deleteExpiredPasswordSetupTokens(db: Executor, before: Date): Promise<number> {
    const removed = await db.delete(passwordSetupTokens).where(lt(passwordSetupTokens.expiresAt, before)).returning({ hash: passwordSetupTokens.tokenHash });
    return removed.length;
  },

  async exists(db: Executor, id: string): Promise<boolean> {
    const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, id));
    return row !== undefined;
  },

  /** Every disabled account's id, of every environment. */
  async disabledIds(db: Executor): Promise<string[]> {
    return (await db.select({ id: accounts.id }).from(accounts).where(isNotNull(accounts.disabledAt))).map((row) => row.id);
  },
};
