import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * Functions of at most 60 lines, outside tests, bench/ and generated code. The functions longer
 * than that are listed with their length now: none may grow, none may join, and the test fails
 * when one has been cut below the bar until it leaves the list, so the list only shrinks.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const FOLDERS = ["core", "drizzle", "identity", "subgraphs", "schema", "gateway", "rest-compat", "server", "seed", "octo-supplier"];
const MAX_LINES = 60;

const STILL_LONGER: [string, number][] = [
  ["core/tracing-settings.ts: readOtelVariables", 108],
  ["subgraphs/booking/voucher/voucher.pdf.ts: renderVoucherPdf", 69],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "migrations" ? [] : sourceFiles(full);
    return full.endsWith(".ts") ? [full] : [];
  });
}

/** Every function-like node longer than the bar, named by its file and its enclosing names. */
function longFunctions(): Map<string, number> {
  const found = new Map<string, number>();
  for (const file of FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder)))) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const where = path.relative(root, file).split(path.sep).join("/");
    const visit = (node: ts.Node, owner: string) => {
      let name = owner;
      if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessor(node)) {
        const own =
          (node as ts.FunctionDeclaration).name?.getText(source) ??
          (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent) ? node.parent.name.getText(source) : ts.isConstructorDeclaration(node) ? "constructor" : "(anonymous)");
        name = owner ? `${owner}.${own}` : own;
        const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        if (lines > MAX_LINES) found.set(`${where}: ${name}`, Math.max(lines, found.get(`${where}: ${name}`) ?? 0));
      }
      ts.forEachChild(node, (child) => visit(child, name));
    };
    visit(source, "");
  }
  return found;
}

describe("functions", () => {
  it(`are at most ${MAX_LINES} lines, but for the listed ones, which may only shrink`, () => {
    const found = longFunctions();
    const allowed = new Map(STILL_LONGER);
    expect([...found].filter(([name, lines]) => !allowed.has(name) || lines > allowed.get(name)!).map(([name, lines]) => `${name} (${lines} lines)`)).toEqual([]);
    expect(STILL_LONGER.filter(([name]) => !found.has(name)).map(([name]) => `${name} is short now: take it off the list`)).toEqual([]);
  });
});
