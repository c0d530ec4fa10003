import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * Functions of at most 60 lines, outside tests, bench/ and generated code: a function that needs
 * more is a function of several steps, and each step gets its name.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const FOLDERS = ["core", "drizzle", "identity", "subgraphs", "schema", "gateway", "rest-compat", "server", "seed", "octo-supplier"];
const MAX_LINES = 60;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "migrations" ? [] : sourceFiles(full);
    return full.endsWith(".ts") ? [full] : [];
  });
}

/** Every function-like node of the code longer than the bar, named by its file and its enclosing names. */
function longFunctions(): Map<string, number> {
  const found = new Map<string, number>();
  for (const file of FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder)))) {
    longFunctionsOf(path.relative(root, file).split(path.sep).join("/"), readFileSync(file, "utf8"), found);
  }
  return found;
}

/** The function-like nodes of one file longer than the bar. */
function longFunctionsOf(where: string, text: string, found = new Map<string, number>()): Map<string, number> {
  const source = ts.createSourceFile(where, text, ts.ScriptTarget.Latest, true);
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
  return found;
}

describe("functions", () => {
  it(`are at most ${MAX_LINES} lines`, () => {
    expect([...longFunctions()].map(([name, lines]) => `${name} (${lines} lines)`)).toEqual([]);
  });

  it("are measured from their first line to their last, a method or an arrow inside another named by both", () => {
    const body = (lines: number) => Array.from({ length: lines - 2 }, (_, i) => `  step${i}();`).join("\n");
    const text = `export function short() {\n${body(MAX_LINES)}\n}\nclass Steps {\n  long() {\n${body(MAX_LINES + 1)}\n  }\n}\nconst outer = () => {\n  const inner = () => {\n${body(MAX_LINES + 5)}\n  };\n};\n`;
    expect(longFunctionsOf("planted.ts", text)).toEqual(
      new Map([
        ["planted.ts: long", MAX_LINES + 1],
        ["planted.ts: outer", MAX_LINES + 7],
        ["planted.ts: outer.inner", MAX_LINES + 5],
      ]),
    );
  });
});
