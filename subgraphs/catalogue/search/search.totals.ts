import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { sharedExecutor, type Executor } from "../../../drizzle/database.js";
import { searchTotalRepository } from "./search-total.repository.js";

/**
 * A search's total is the same for every caller who sends the same filter, and changes only when
 * the catalogue does; counting it is the costliest part of a page at the database (a heap row per
 * match up to the cap: about 2 ms of PostgreSQL's 5 for a page of `title:museum` at 100k products),
 * and a consumer walking through the results asks for it again on every page. So a process keeps
 * each filter's total beside the catalogue version it was counted at (`catalogue_versions`, which
 * every transaction that changes what a search reads moves as it commits). Every page still asks
 * PostgreSQL, in the count's own statement, which version it sees, and the count runs only if that
 * moved: version and count come from one snapshot, so a kept total is never given for a catalogue
 * other than the one it was counted on. Nothing of a caller is kept: the key is the filter's SQL.
 */
// A filter is at most 20 criteria in 2,000 characters (search.expression.ts), so its key is a few
// kB of SQL at most, and what a process keeps stays within about 10 MB whatever callers send.
const KEPT_FILTERS = 1_000;

interface Kept {
  /** The sum of catalogue_versions in the snapshot the count ran in (bigint, as text). */
  version: string;
  counted: number;
  /** The planner's estimate for the same filter, asked for once the count passed its cap. */
  estimate?: number;
}

/** One map per executor: the pool's lives with the process; a transaction's (which may hold uncommitted writes) ends with it. */
const keptByExecutor = new WeakMap<object, Map<string, Kept>>();
const dialect = new PgDialect();

function keptFor(db: Executor): Map<string, Kept> {
  // Every account's view of the database shares the service's totals.
  const shared = sharedExecutor(db);
  let kept = keptByExecutor.get(shared);
  if (!kept) keptByExecutor.set(shared, (kept = new Map()));
  return kept;
}

/** A counted total, and where its estimate is kept once it is asked for. */
export interface CountedTotal {
  counted: number;
  /** True when no statement counted it: it was kept from an earlier page at the same version. */
  reused: boolean;
  kept: Kept;
}

/** Matches of `where` counted up to `cap`, or the total kept for it while the catalogue has not changed. */
export async function countedTotal(db: Executor, where: SQL, cap: number): Promise<CountedTotal> {
  const query = dialect.sqlToQuery(where);
  const key = `${cap} ${query.sql} ${JSON.stringify(query.params)}`;
  const kept = keptFor(db);
  const known = kept.get(key);
  const row = await searchTotalRepository.cappedCountAtVersion(db, where, cap, known?.version ?? "");
  if (row.total === null && known) {
    // Most recently used last: the first key is the one to let go of.
    kept.delete(key);
    kept.set(key, known);
    return { counted: known.counted, reused: true, kept: known };
  }
  const counted: Kept = { version: row.version, counted: Number(row.total) };
  kept.delete(key);
  if (kept.size >= KEPT_FILTERS) kept.delete(kept.keys().next().value!);
  kept.set(key, counted);
  return { counted: counted.counted, reused: false, kept: counted };
}

/** The planner's row estimate of the filter (no row is read), kept with the count it goes with when there is one. */
export async function estimatedTotal(db: Executor, where: SQL, counted?: CountedTotal): Promise<number> {
  if (counted?.kept.estimate !== undefined) return counted.kept.estimate;
  const estimate = await searchTotalRepository.plannedMatches(db, where);
  if (counted) counted.kept.estimate = estimate;
  return estimate;
}
