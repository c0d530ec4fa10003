import { asc, eq } from "drizzle-orm";
import { anyOf, compiledSelect } from "../../../drizzle/compiled-select.js";
import type { Executor } from "../../../drizzle/database.js";
import { bookingEngines } from "../../../drizzle/schema.js";

export type BookingEngineRow = typeof bookingEngines.$inferSelect;


// Every page of records names its products' engines: built once (compiled-select.ts).
const enginesByIds = compiledSelect<{ ids: number[] }, BookingEngineRow>((db) => db.select().from(bookingEngines).where(anyOf(bookingEngines.id, "ids")));

/** The registry of engines by name: suppliers, products and content partners' organisations are filed under one. */
export const bookingEngineRepository = {
  all(db: Executor, kind?: string): Promise<BookingEngineRow[]> {
    return db
      .select()
      .from(bookingEngines)
      .where(kind ? eq(bookingEngines.kind, kind) : undefined)
      .orderBy(asc(bookingEngines.name));
  },

  async byIds(db: Executor, ids: readonly number[]): Promise<BookingEngineRow[]> {
    return ids.length ? enginesByIds(db, { ids: [...ids] }) : [];
  },

  async byName(db: Executor, name: string): Promise<BookingEngineRow | undefined> {
    const [row] = await db.select().from(bookingEngines).where(eq(bookingEngines.name, name));
    return row;
  },

  /** Inserts the engine unless it exists; `created` tells whether this call made it. */
  async ensure(db: Executor, name: string, kind: "INVENTORY" | "OCTO" = "INVENTORY"): Promise<{ engine: BookingEngineRow; created: boolean }> {
    const [inserted] = await db.insert(bookingEngines).values({ name, kind }).onConflictDoNothing().returning();
    if (inserted) return { engine: inserted, created: true };
    const [existing] = await db.select().from(bookingEngines).where(eq(bookingEngines.name, name));
    return { engine: existing, created: false };
  },
};
