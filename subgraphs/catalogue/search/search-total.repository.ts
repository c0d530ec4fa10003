import { sql, type SQL } from "drizzle-orm";
import { rows, type Executor } from "../../../drizzle/executor.js";
import { catalogueVersions, products } from "../../../drizzle/schema.js";

/** The statements behind a search's total: a capped count at the catalogue's version, and the planner's estimate. */
export const searchTotalRepository = {
  /**
   * The catalogue's version (the sum of catalogue_versions, as text) and the products matching
   * `where`, counted up to `cap`; the count is left out (null) when the version is still
   * `knownVersion`, so a total kept from an earlier page costs one small read.
   */
  async cappedCountAtVersion(db: Executor, where: SQL, cap: number, knownVersion: string): Promise<{ version: string; total: number | null }> {
    // The count's subquery is an init plan that runs only when the CASE needs it.
    const [row] = await rows<{ version: string; total: number | null }>(
      db,
      sql`with current as (select sum(${catalogueVersions.version})::text as version from ${catalogueVersions})
          select current.version, case when current.version = ${knownVersion} then null
            else (select count(*)::int from (select 1 from ${products} where ${where} limit ${cap}) as capped) end as total
          from current`,
    );
    return row;
  },

  /** How many products the planner expects `where` to match. */
  async plannedMatches(db: Executor, where: SQL): Promise<number> {
    const [plan] = await rows<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(db, sql`explain (format json) select 1 from ${products} where ${where}`);
    return Math.round(plan["QUERY PLAN"][0].Plan["Plan Rows"]);
  },
};
