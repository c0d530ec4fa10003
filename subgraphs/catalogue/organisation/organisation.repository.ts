import { asc, eq } from "drizzle-orm";
import { anyOf, compiledSelect } from "../../../drizzle/compiled-select.js";
import type { Executor } from "../../../drizzle/database.js";
import { organisations } from "../../../drizzle/schema.js";

export type OrganisationRow = typeof organisations.$inferSelect;

// Every request reads its caller's organisation.
const organisationsByIds = compiledSelect<{ ids: number[] }, OrganisationRow>((db) => db.select().from(organisations).where(anyOf(organisations.id, "ids")));

/** Organisations are catalogue data: who manages which engine's content, and on which commercial model it is sold. */
export const organisationRepository = {
  async byName(db: Executor, name: string): Promise<OrganisationRow | undefined> {
    const [row] = await db.select().from(organisations).where(eq(organisations.name, name));
    return row;
  },

  async byIds(db: Executor, ids: readonly number[]): Promise<OrganisationRow[]> {
    return ids.length ? organisationsByIds(db, { ids: [...ids] }) : [];
  },

  async all(db: Executor): Promise<OrganisationRow[]> {
    return db.select().from(organisations).orderBy(asc(organisations.name));
  },

  async insert(db: Executor, values: typeof organisations.$inferInsert): Promise<OrganisationRow> {
    const [row] = await db.insert(organisations).values(values).returning();
    return row;
  },

  async update(db: Executor, id: number, values: Partial<typeof organisations.$inferInsert>): Promise<OrganisationRow> {
    const [row] = await db.update(organisations).set(values).where(eq(organisations.id, id)).returning();
    return row;
  },
};
