import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { rows, type Database } from "../../drizzle/database.js";
import { searchConfigs } from "../../drizzle/schema.js";
import { parseFullText, tsQuery } from "../../subgraphs/catalogue/search/search.full-text.js";
import { openTestDatabase } from "../support/stack.js";

/**
 * Full-text values are read as websearch_to_tsquery reads them, but the tsquery is built from
 * each word or phrase (subgraphs/catalogue/search/search.full-text.ts). For what callers ordinarily type
 * the result is the very tsquery websearch_to_tsquery gave, in every configuration search uses;
 * what PostgreSQL's parser fails on is refused before any SQL runs.
 */
describe("full-text values on the database", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });

  const ordinary = [
    "museum",
    "Museum",
    "dinner cruise",
    '"dinner cruise"',
    '"dinner cruise" or boat',
    "louvre -orsay",
    'paris -"dinner cruise"',
    "museum - louvre",
    "wine-tasting",
    "wine--tasting",
    "skip-the-line ticket",
    "e.g. foo/bar",
    "mus:* tour",
    "(guided) tour!",
    "a or b or c",
    "glacier or museum walking",
    "or museum",
    "museum or",
    "don't stop",
    "Zürich Führung",
    "château de versailles",
    "visite guidée",
    "tour 2027",
    '"the best of the city"',
    "the and of",
    "museum -",
    "louvre or -orsay",
    "louvre or or orsay",
    "OR louvre Or orsay oR",
    "-museum",
  ];

  it.each(ordinary)("builds websearch_to_tsquery's own tsquery for %j", async (value) => {
    const query = parseFullText(value);
    for (const config of ["simple", ...new Set(Object.values(searchConfigs))]) {
      const [row] = await rows<{ ours: string; theirs: string }>(
        database.db,
        sql`select (${tsQuery(query, config)})::text as ours, websearch_to_tsquery(${config}::regconfig, ${value})::text as theirs`,
      );
      expect(row.ours, `${config}: ${value}`).toBe(row.theirs);
    }
  });

  it("finds what the words say and leaves out the excluded", async () => {
    const matches = async (document: string, value: string) => {
      const [row] = await rows<{ m: boolean }>(database.db, sql`select to_tsvector('english', ${document}) @@ ${tsQuery(parseFullText(value), "english")} as m`);
      return row.m;
    };
    expect(await matches("Seine dinner cruise", '"dinner cruise"')).toBe(true);
    expect(await matches("Dinner on a Seine cruise", '"dinner cruise"')).toBe(false);
    expect(await matches("Wine-tasting in Bordeaux", "wine-tasting")).toBe(true);
    expect(await matches("Louvre museum ticket", "museum -orsay")).toBe(true);
    expect(await matches("Orsay museum ticket", "museum -orsay")).toBe(false);
    expect(await matches("Orsay museum ticket", "louvre or orsay")).toBe(true);
  });

  it.each([
    ["-".repeat(33), "one '-'"],
    [`${"-".repeat(33)}museum`, "one '-'"],
    [Array(33).fill("-").join(" "), "one '-'"],
    ["--museum", "one '-'"],
    ["- -museum", "one '-'"],
    ["-".repeat(32), "one '-'"],
    ["-", "no word"],
    ["!!! && || :* ()", "no word"],
    ['""', "no word"],
    [Array.from({ length: 33 }, (_, i) => `w${i}`).join(" "), "at most 32 words"],
    [`"${Array.from({ length: 33 }, (_, i) => `w${i}`).join(" ")}"`, "at most 32 words"],
    ["é".repeat(1024), "longer than 2047 bytes"],
  ])("refuses %j before PostgreSQL sees it", (value, message) => {
    expect(() => parseFullText(value)).toThrow(message);
  });

  it("fails in PostgreSQL's own parser where the value is refused (the reason for refusing it)", async () => {
    await expect(rows(database.db, sql`select websearch_to_tsquery('english', ${"-".repeat(33)}) as q`)).rejects.toThrow();
    // Within the limits, nothing built from a caller's text reaches PostgreSQL's tsquery parser.
    const [row] = await rows<{ q: string }>(database.db, sql`select (${tsQuery(parseFullText(`-${"&|!():*<->".repeat(20)} museum`), "english")})::text as q`);
    expect(row.q).toBe("'museum'");
  });
});
