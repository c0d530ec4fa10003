import { eq } from "drizzle-orm";
import type { Executor } from "../../../drizzle/database.js";
import { availabilities } from "../../../drizzle/schema.js";

export type AvailabilityRow = typeof availabilities.$inferSelect;

export const availabilityRepository = {
  async insert(db: Executor, row: typeof availabilities.$inferInsert): Promise<AvailabilityRow> {
    const [inserted] = await db.insert(availabilities).values(row).returning();
    return inserted;
  },

  async byId(db: Executor, id: string): Promise<AvailabilityRow | undefined> {
    const [row] = await db.select().from(availabilities).where(eq(availabilities.id, id));
    return row;
  },

  async forUpdate(db: Executor, id: string): Promise<AvailabilityRow | undefined> {
    const [row] = await db.select().from(availabilities).where(eq(availabilities.id, id)).for("update");
    return row;
  },

  async update(db: Executor, id: string, patch: Partial<Pick<AvailabilityRow, "selections" | "quantities" | "currency" | "quotedTotal" | "setup">>): Promise<AvailabilityRow> {
    const [row] = await db.update(availabilities).set(patch).where(eq(availabilities.id, id)).returning();
    return row;
  },
};
