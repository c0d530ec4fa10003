import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../drizzle/database.js";
import { accounts, bookingEngines, organisations, passwordSetupTokens } from "../drizzle/schema.js";

export type AccountRow = typeof accounts.$inferSelect;
export type OrganisationRow = typeof organisations.$inferSelect;
export type BookingEngineRow = typeof bookingEngines.$inferSelect;

export const accountRepository = {
  async byUsername(db: Executor, username: string): Promise<AccountRow | undefined> {
    const [row] = await db
      .select()
      .from(accounts)
      .where(sql`lower(${accounts.username}) = lower(${username})`);
    return row;
  },

  async byId(db: Executor, id: string): Promise<AccountRow | undefined> {
    const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
    return row;
  },

  async byIds(db: Executor, ids: readonly string[]): Promise<AccountRow[]> {
    return ids.length ? db.select().from(accounts).where(inArray(accounts.id, [...ids])) : [];
  },

  async list(db: Executor) {
    return db
      .select({ account: accounts, organisation: organisations })
      .from(accounts)
      .leftJoin(organisations, eq(accounts.organisationId, organisations.id))
      .orderBy(asc(accounts.username));
  },

  async insert(db: Executor, values: typeof accounts.$inferInsert): Promise<AccountRow> {
    const [row] = await db.insert(accounts).values(values).returning();
    return row;
  },

  async update(db: Executor, id: string, values: Partial<typeof accounts.$inferInsert>): Promise<void> {
    await db.update(accounts).set(values).where(eq(accounts.id, id));
  },

  async organisationByName(db: Executor, name: string): Promise<OrganisationRow | undefined> {
    const [row] = await db.select().from(organisations).where(eq(organisations.name, name));
    return row;
  },

  async organisationsByIds(db: Executor, ids: readonly number[]): Promise<OrganisationRow[]> {
    return ids.length ? db.select().from(organisations).where(inArray(organisations.id, [...ids])) : [];
  },

  async allOrganisations(db: Executor): Promise<OrganisationRow[]> {
    return db.select().from(organisations).orderBy(asc(organisations.name));
  },

  async insertOrganisation(db: Executor, values: typeof organisations.$inferInsert): Promise<OrganisationRow> {
    const [row] = await db.insert(organisations).values(values).returning();
    return row;
  },

  async updateOrganisation(db: Executor, id: number, values: Partial<typeof organisations.$inferInsert>): Promise<OrganisationRow> {
    const [row] = await db.update(organisations).set(values).where(eq(organisations.id, id)).returning();
    return row;
  },

  async bookingEngineByName(db: Executor, name: string): Promise<BookingEngineRow | undefined> {
    const [row] = await db.select().from(bookingEngines).where(eq(bookingEngines.name, name));
    return row;
  },

  async bookingEnginesByIds(db: Executor, ids: readonly number[]): Promise<BookingEngineRow[]> {
    return ids.length ? db.select().from(bookingEngines).where(inArray(bookingEngines.id, [...ids])) : [];
  },

  /** Inserts the engine unless it exists; `created` tells whether this call made it. */
  async ensureBookingEngine(db: Executor, name: string): Promise<{ engine: BookingEngineRow; created: boolean }> {
    const [inserted] = await db.insert(bookingEngines).values({ name }).onConflictDoNothing().returning();
    if (inserted) return { engine: inserted, created: true };
    const [existing] = await db.select().from(bookingEngines).where(eq(bookingEngines.name, name));
    return { engine: existing, created: false };
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
};
