import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Statements live in repositories (`*.repository.ts`): outside `drizzle/` (the database's own
 * machinery and migrations), no other file imports a table of drizzle/schema.ts as a value or
 * names one in raw SQL. The seed included: it writes through the owners' repositories.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const FOLDERS = ["core", "identity", "subgraphs", "schema", "gateway", "rest-compat", "server", "seed", "octo-supplier"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith(".ts") ? [full] : [];
  });
}

/** Export name → SQL name of every table in drizzle/schema.ts. */
function tables(): Map<string, string> {
  const text = readFileSync(path.join(root, "drizzle/schema.ts"), "utf8");
  return new Map([...text.matchAll(/export const (\w+) = pgTable\(\s*"([a-z_]+)"/g)].map((m) => [m[1], m[2]]));
}

/** Why a file's text runs statements of its own: the tables it imports as values, the tables its raw SQL names. */
function statementsIn(text: string, known: Map<string, string>): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+"[./]*drizzle\/schema\.js"/g)) {
    if (match[1]) continue;
    for (const part of match[2].split(",").map((name) => name.trim())) {
      if (!part || part.startsWith("type ")) continue;
      const name = part.split(/\s+as\s+/)[0];
      if (known.has(name)) found.push(`imports ${name}`);
    }
  }
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  for (const table of known.values()) if (new RegExp(`\\b(from|join|update|into|analyze|truncate)\\s+"?${table}"?\\b`, "i").test(code)) found.push(`names ${table} in SQL`);
  return found;
}

describe("statements", () => {
  it("are run by repositories alone, outside the database's own machinery", () => {
    const known = tables();
    const outside = FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder)))
      .filter((file) => !file.endsWith(".repository.ts"))
      .flatMap((file) => {
        const why = statementsIn(readFileSync(file, "utf8"), known);
        return why.length ? [`${path.relative(root, file).split(path.sep).join("/")}: ${why.join(", ")}`] : [];
      });
    expect(outside).toEqual([]);
  });

  it("are found by a table a file imports or names in SQL, not by a type import or a comment", () => {
    const known = tables();
    expect(statementsIn('import { products, type LanguageText } from "../../drizzle/schema.js";', known)).toEqual(["imports products"]);
    expect(statementsIn("const q = sql`select 1 from products`;", known)).toEqual(["names products in SQL"]);
    expect(statementsIn("await db.execute(sql`analyze suppliers`);", known)).toEqual(["names suppliers in SQL"]);
    expect(statementsIn('import type { products } from "../drizzle/schema.js";\nimport { type ProductRow } from "./product.repository.js";', known)).toEqual([]);
    expect(statementsIn("// read from products, by the repository\nconst label = 'products';", known)).toEqual([]);
  });
});
