import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * What may open a database, directly or in a process it starts: a stack, a child process, the
 * pooler, a browser driving a started service, either driver, the embedded database's thread. A test file that uses none of them
 * answers the same whatever DATABASE_URL says (a loopback socket for a client's test is no database).
 */
export const OPENS_A_DATABASE = [
  /support\/(stack|child-process|pgbouncer|with-pgbouncer|chromium|free-port)\.js/,
  /\bopenDatabase\(/,
  /@electric-sql\/pglite|pglite-thread\//,
  /from "postgres"/,
  /node:child_process/,
];

/** The patterns of OPENS_A_DATABASE that the source's code (block comments aside) matches. */
export function databaseUses(source: string): RegExp[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "");
  return OPENS_A_DATABASE.filter((pattern) => pattern.test(code));
}

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "support" ? [] : testFiles(full);
    return full.endsWith(".test.ts") ? [full] : [];
  });
}

/** The suite's test files that open no database, relative to the repository (test/…). */
export function testFilesWithoutDatabase(root: string): string[] {
  return testFiles(path.join(root, "test"))
    .filter((file) => databaseUses(readFileSync(file, "utf8")).length === 0)
    .map((file) => path.relative(root, file).split(path.sep).join("/"))
    .sort();
}
