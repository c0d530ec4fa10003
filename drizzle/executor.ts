import type { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema.js";

/*
 * What code that runs statements needs of the database, and nothing that opens one: the event
 * channels and the repositories import it without importing the drivers.
 */

export type Schema = typeof schema;
/** The drizzle database both drivers give; repositories depend on this and never on a driver. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle or the database itself: repositories accept either. */
export type Executor = Pick<Db, "select" | "selectDistinct" | "insert" | "update" | "delete" | "execute" | "transaction">;

/** The rows of a raw statement, whichever driver ran it. */
export async function rows<T>(executor: Pick<Db, "execute">, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}
