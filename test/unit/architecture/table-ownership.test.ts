import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * DESIGN.md's rule, checked on the code: each subgraph reads only its own tables. The map is the
 * one in docs/architecture.md, so the document cannot drift from what is enforced.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const subgraphsDir = path.join(root, "subgraphs");
const schemaFile = path.join(root, "drizzle/schema.ts");
/** What subgraphs may use of identity, none of it reading identity's tables: who calls, which service calls, and the port the catalogue implements. */
const IDENTITY_FOR_SUBGRAPHS = new Set(["identity/token-verifier.ts", "identity/gateway-credential.ts", "identity/partner-directory.ts"].map((file) => path.join(...file.split("/"))));

/** `| \`products\` | catalogue | …` rows of the "Table ownership" section. */
function ownershipMap(): Map<string, string> {
  const doc = readFileSync(path.join(root, "docs/architecture.md"), "utf8");
  const section = doc.split("## Table ownership")[1]?.split("\n## ")[0] ?? "";
  return new Map([...section.matchAll(/^\| `([a-z_]+)` \| ([a-z]+) \|/gm)].map((m) => [m[1], m[2]]));
}

/** Export name → SQL name of every table in drizzle/schema.ts. */
function schemaTables(): Map<string, string> {
  const text = readFileSync(schemaFile, "utf8");
  return new Map([...text.matchAll(/export const (\w+) = pgTable\(\s*"([a-z_]+)"/g)].map((m) => [m[1], m[2]]));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith(".ts") ? [full] : [];
  });
}

interface Source {
  file: string;
  text: string;
}

/** Every rule broken by the given subgraph sources, one line each. */
export function ownershipViolations(sources: Source[], owners: Map<string, string>, tables: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const { file, text } of sources) {
    const relative = path.relative(subgraphsDir, file);
    // The registry at the top of subgraphs/ lists the subgraphs; it is no subgraph's code.
    if (!relative.includes(path.sep)) continue;
    const own = relative.split(path.sep)[0];
    const where = `subgraphs/${relative}`;
    for (const match of text.matchAll(/import\s+(?:type\s+)?(\{[^}]*\}|[\w*\s]+)\s+from\s+"([^"]+)"|import\("([^"]+)"\)/g)) {
      const specifier = match[2] ?? match[3];
      if (!specifier.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), specifier).replace(/\.js$/, ".ts");
      if (target === schemaFile) {
        const names = (match[1] ?? "").replace(/[{}]/g, "").split(",").map((n) => n.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]).filter(Boolean);
        for (const name of names) {
          const table = tables.get(name);
          if (table && owners.get(table) !== own) problems.push(`${where} imports table ${table}, owned by ${owners.get(table) ?? "nobody"}`);
        }
        continue;
      }
      const inSubgraphs = path.relative(subgraphsDir, target);
      if (!inSubgraphs.startsWith("..")) {
        const other = inSubgraphs.split(path.sep)[0];
        if (inSubgraphs.includes(path.sep) && other !== own && other !== "common") problems.push(`${where} imports ${other}'s code (${specifier})`);
        continue;
      }
      const fromRoot = path.relative(root, target);
      if (fromRoot.startsWith(`identity${path.sep}`) && !IDENTITY_FOR_SUBGRAPHS.has(fromRoot)) {
        problems.push(`${where} imports identity's ${fromRoot}: subgraphs reach identity through the token verifier, the service credentials and the PartnerDirectory they implement only`);
      }
    }
    // Raw SQL naming another owner's table (comments are prose, not SQL).
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const [table, owner] of owners) {
      if (owner === own) continue;
      if (new RegExp(`\\b(from|join|update|into)\\s+"?${table}"?\\b`, "i").test(code)) problems.push(`${where} names table ${table} (owned by ${owner}) in SQL`);
    }
  }
  return problems;
}

describe("table ownership (docs/architecture.md)", () => {
  const owners = ownershipMap();
  const tables = schemaTables();

  it("gives every table of the schema exactly one owner, and names no table that does not exist", () => {
    expect(tables.size).toBeGreaterThan(15);
    expect([...owners.keys()].sort()).toEqual([...tables.values()].sort());
    expect(new Set(owners.values())).toEqual(new Set(["catalogue", "booking", "reporting", "identity", "platform", "common"]));
  });

  it("finds no subgraph reading another owner's tables or importing another subgraph's code", () => {
    const sources = sourceFiles(subgraphsDir).map((file) => ({ file, text: readFileSync(file, "utf8") }));
    expect(sources.length).toBeGreaterThan(50);
    expect(ownershipViolations(sources, owners, tables)).toEqual([]);
  });

  it("would catch each kind of crossing", () => {
    const planted = (file: string, text: string) => ownershipViolations([{ file: path.join(subgraphsDir, file), text }], owners, tables);
    expect(planted("booking/x.ts", `import { products, type LanguageText } from "../../drizzle/schema.js";`)).toEqual([
      "subgraphs/booking/x.ts imports table products, owned by catalogue",
    ]);
    expect(planted("catalogue/a/b.ts", `import { accountRepository } from "../../../identity/account.repository.js";`)).toHaveLength(1);
    expect(planted("catalogue/a/b.ts", `import { bookingSetupRepository } from "../../booking/engines/inventory/booking-setup.repository.js";`)).toHaveLength(1);
    expect(planted("reporting/r.ts", "const rows = await db.execute(sql`select * from bookings where id = ${id}`);")).toEqual([
      "subgraphs/reporting/r.ts names table bookings (owned by booking) in SQL",
    ]);
    // What is allowed: own tables, shared code, the token verifier.
    expect(planted("booking/y.ts", `import { bookings } from "../../drizzle/schema.js";\nimport { byKey } from "../common/loaders.js";\nimport { bearerToken } from "../../identity/token-verifier.js";`)).toEqual([]);
  });

  it("finds identity's code touching only its own tables and the platform's, whatever it imports or writes in SQL", () => {
    const identityDir = path.join(root, "identity");
    const foreign = [...owners].filter(([, owner]) => owner !== "identity" && owner !== "platform").map(([table]) => table);
    const problems = sourceFiles(identityDir).flatMap((file) => {
      const text = readFileSync(file, "utf8");
      const where = path.relative(root, file).split(path.sep).join("/");
      const imported = [...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"[./]*drizzle\/schema\.js"/g)]
        .flatMap((match) => match[1].split(",").map((name) => name.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]))
        .flatMap((name) => (tables.has(name) && foreign.includes(tables.get(name)!) ? [`${where} imports table ${tables.get(name)}, owned by ${owners.get(tables.get(name)!)}`] : []));
      const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
      const named = foreign.flatMap((table) => (new RegExp(`\\b(from|join|update|into)\\s+"?${table}"?\\b`, "i").test(code) ? [`${where} names table ${table} (owned by ${owners.get(table)}) in SQL`] : []));
      return [...imported, ...named];
    });
    expect(problems).toEqual([]);
  });
});
