import { asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../../drizzle/database.js";
import { bookingEngines } from "../../../drizzle/schema.js";

export type BookingEngineRow = typeof bookingEngines.$inferSelect;

export const bookingEngineRepository = {
  all(db: Executor, kind?: string): Promise<BookingEngineRow[]> {
    return db
      .select()
      .from(bookingEngines)
      .where(kind ? eq(bookingEngines.kind, kind) : undefined)
      .orderBy(asc(bookingEngines.name));
  },

  async byIds(db: Executor, ids: readonly number[]): Promise<BookingEngineRow[]> {
    return ids.length ? db.select().from(bookingEngines).where(inArray(bookingEngines.id, [...ids])) : [];
  },
};
