import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * test/unit is the tier that runs without a database, a stack or a process: services with fakes
 * passed through their context, rules, parsers and the code's own checks. It runs once, with the
 * embedded run of the suite (vitest.config.ts leaves it out of the PostgreSQL run, where it would
 * repeat itself unchanged); this test holds every file of it to that.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const unitTier = path.join(root, "test", "unit");

/** What starts a stack, a database or a process (a loopback socket for a client's test is neither). */
const HEAVY = [
  /support\/(stack|child-process|pgbouncer|with-pgbouncer|chromium|free-port)\.js/,
  /\bopenDatabase\(/,
  /@electric-sql\/pglite/,
  /from "postgres"/,
  /node:child_process/,
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith(".ts") ? [full] : [];
  });
}

describe("the unit tier", () => {
  it("starts no stack, database or process in any file", () => {
    const heavy = files(unitTier).flatMap((file) => {
      const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
      return HEAVY.filter((pattern) => pattern.test(text)).map((pattern) => `${path.relative(root, file)}: ${pattern}`);
    });
    // This file names the patterns it looks for, and is the only one allowed to.
    expect(heavy.filter((line) => !line.startsWith("test/unit/architecture/unit-tier.test.ts"))).toEqual([]);
  });
});
