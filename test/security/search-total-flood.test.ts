import { and } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseSearch } from "../../subgraphs/catalogue/search/search.expression.js";
import { compileSearch } from "../../subgraphs/catalogue/search/search.sql.js";
import { visibleToConsumers } from "../../subgraphs/catalogue/search/product-search.repository.js";
import { countedTotal } from "../../subgraphs/catalogue/search/search.totals.js";
import { useStack } from "../support/stack.js";

/**
 * A process keeps search totals by filter. A caller who sends ever new filters must not grow
 * what it keeps: at most a thousand, the least recently used let go first.
 */
describe("a flood of new search filters", () => {
  // Kept totals are counted again whenever the catalogue changes: on PostgreSQL, where both test
  // workers share a database, this file needs one of its own for "reused" to mean anything.
  const t = useStack({ ownDatabase: Boolean(process.env.DATABASE_URL) });
  const filter = (i: number) => and(visibleToConsumers, compileSearch(parseSearch(`externalId:FLOOD-${process.pid}-${i}`), { language: "en" }))!;

  it("keeps the totals of the thousand filters used last, and no more", async () => {
    const db = t.database.db;
    expect(await countedTotal(db, filter(0), 1_001)).toMatchObject({ reused: false });
    for (let i = 1; i < 1_000; i++) await countedTotal(db, filter(i), 1_001);
    // Filter 0 is used again: it becomes the most recent, and filter 1 the one to let go.
    expect(await countedTotal(db, filter(0), 1_001)).toMatchObject({ reused: true });
    await countedTotal(db, filter(1_000), 1_001);
    expect(await countedTotal(db, filter(1), 1_001)).toMatchObject({ reused: false });
    expect(await countedTotal(db, filter(0), 1_001)).toMatchObject({ reused: true });
    for (let i = 1_001; i < 2_001; i++) await countedTotal(db, filter(i), 1_001);
    expect(await countedTotal(db, filter(0), 1_001)).toMatchObject({ reused: false });
  }, 120_000);
});
