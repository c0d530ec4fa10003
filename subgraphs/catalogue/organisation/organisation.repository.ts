import { and, asc, count, desc, eq, gt, lt, or } from "drizzle-orm";
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

  /** Up to `limit` organisations by name from a position (exclusive), forward or nearest first backward; names are unique, the id only settles equal ones. */
  async page(db: Executor, limit: number, from: { name: string; id: number } | null, direction: "forward" | "backward"): Promise<OrganisationRow[]> {
    const o = organisations;
    const beyond = !from
      ? undefined
      : direction === "forward"
        ? or(gt(o.name, from.name), and(eq(o.name, from.name), gt(o.id, from.id)))
        : or(lt(o.name, from.name), and(eq(o.name, from.name), lt(o.id, from.id)));
    const order = direction === "forward" ? [asc(o.name), asc(o.id)] : [desc(o.name), desc(o.id)];
    return db.select().from(o).where(beyond).orderBy(...order).limit(limit);
  },

  async count(db: Executor): Promise<number> {
    const [row] = await db.select({ n: count() }).from(organisations);
    return row.n;
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
