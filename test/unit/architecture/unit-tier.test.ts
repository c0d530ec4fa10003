import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { databaseUses, OPENS_A_DATABASE, testFilesWithoutDatabase } from "../../support/database-use.js";

/*
 * test/unit is the tier that runs without a database, a stack or a process: services with fakes
 * passed through their context, rules, parsers and the code's own checks. It runs once, with the
 * embedded run of the suite (vitest.config.ts leaves it out of the PostgreSQL run, where it would
 * repeat itself unchanged); this test holds every file of it to that.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const unitTier = path.join(root, "test", "unit");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith(".ts") ? [full] : [];
  });
}

describe("the unit tier", () => {
  it("starts no stack, database or process in any file", () => {
    const heavy = files(unitTier).flatMap((file) => {
      return databaseUses(readFileSync(file, "utf8")).map((pattern) => `${path.relative(root, file)}: ${pattern}`);
    });
    expect(heavy).toEqual([]);
  });

  it("tells a file that may open a database from one that cannot, both ways", () => {
    // Put together from parts, so that this file's own text names none of them.
    const opens = [
      ["import { useStack } from \"../support/", "stack.js\";"],
      ["import { startProcess } from \"../support/", "child-process.js\";"],
      ["const database = await openDatabase", "({ dataDir });"],
      ["import { PGlite } from \"@electric-sql/", "pglite\";"],
      ["import { RemotePglite } from \"../../drizzle/pglite-", "thread/remote.js\";"],
      ["import postgres from", " \"postgres\";"],
      ["import { spawn } from \"node:", "child_process\";"],
    ].map((parts) => parts.join(""));
    expect(opens.map((source) => databaseUses(source).length)).toEqual(opens.map(() => 1));
    expect(databaseUses(`/* a stack from ${"../support/"}stack.js, in prose */\nimport { parse } from "graphql";`)).toEqual([]);
    // Every pattern is seen at work.
    expect(OPENS_A_DATABASE.filter((pattern) => !opens.some((source) => pattern.test(source)))).toEqual([]);
  });

  it("is left out of the PostgreSQL run with every other file that opens no database, and nothing else is", () => {
    const without = testFilesWithoutDatabase(root);
    expect(files(unitTier).filter((file) => file.endsWith(".test.ts")).map((file) => path.relative(root, file).split(path.sep).join("/")).filter((file) => !without.includes(file))).toEqual([]);
    // Files of other tiers that need no database: the graph's lint, the generated code's drift.
    expect(without).toEqual(expect.arrayContaining(["test/contract/graph-lint.test.ts", "test/integration/codegen-drift.test.ts"]));
    // And files that start a stack or a process stay in it.
    expect(without).not.toContain("test/e2e/start.test.ts");
    expect(without).not.toContain("test/contract/booking-flow-errors.test.ts");
  });
});
