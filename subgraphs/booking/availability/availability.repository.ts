import { eq, inArray, sql } from "drizzle-orm";
import { compiledSelect, compiledWrite } from "../../../drizzle/compiled-select.js";
import type { Executor } from "../../../drizzle/database.js";
import { availabilities } from "../../../drizzle/schema.js";

export type AvailabilityRow = typeof availabilities.$inferSelect;

// Every availability step reads its availability: built once (compiled-select.ts).
const availabilityById = compiledSelect<{ id: string }, AvailabilityRow>((db) => db.select().from(availabilities).where(eq(availabilities.id, sql.placeholder("id"))));
const availabilityForUpdate = compiledSelect<{ id: string }, AvailabilityRow>((db) => db.select().from(availabilities).where(eq(availabilities.id, sql.placeholder("id"))).for("update"));

export type AvailabilityPatch = Partial<Pick<AvailabilityRow, "selections" | "quantities" | "currency" | "quotedTotal" | "setup">>;
// And writes it, with every column returned: built once per set of columns written.
const insertAvailability = compiledWrite<typeof availabilities.$inferInsert, Record<string, never>, AvailabilityRow>(availabilities, (db, row) =>
  db.insert(availabilities).values(row as typeof availabilities.$inferInsert).returning(),
);
const updateAvailability = compiledWrite<AvailabilityPatch, { id: string }, AvailabilityRow>(availabilities, (db, patch) =>
  db.update(availabilities).set(patch).where(eq(availabilities.id, sql.placeholder("id"))).returning(),
);

export const availabilityRepository = {
  async insert(db: Executor, row: typeof availabilities.$inferInsert): Promise<AvailabilityRow> {
    const [inserted] = await insertAvailability(db, row, {});
    return inserted;
  },

  async byId(db: Executor, id: string): Promise<AvailabilityRow | undefined> {
    const [row] = await availabilityById(db, { id });
    return row;
  },

  async byIds(db: Executor, ids: readonly string[]): Promise<Pick<AvailabilityRow, "id" | "organisationId" | "accountId">[]> {
    if (!ids.length) return [];
    return db.select({ id: availabilities.id, organisationId: availabilities.organisationId, accountId: availabilities.accountId }).from(availabilities).where(inArray(availabilities.id, [...ids]));
  },

  async forUpdate(db: Executor, id: string): Promise<AvailabilityRow | undefined> {
    const [row] = await availabilityForUpdate(db, { id });
    return row;
  },

  async update(db: Executor, id: string, patch: AvailabilityPatch): Promise<AvailabilityRow> {
    const [row] = await updateAvailability(db, patch, { id });
    return row;
  },
};
