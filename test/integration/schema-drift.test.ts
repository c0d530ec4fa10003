import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generatedSchemaFiles, schemaFolder } from "../../schema/files.js";
import { refusalsDocPath, refusalsDocument } from "../../schema/refusals-doc.js";

/** Every schema change must show in review: the committed SDL is what the code builds. */
describe("committed schema files", () => {
  it("match what the code builds (run `npm run schema` after changing the graph)", async () => {
    const files = await generatedSchemaFiles();
    expect(Object.keys(files).sort()).toEqual(["api.graphql", "booking.graphql", "catalogue.graphql", "edge-subscriptions.graphql", "node.graphql", "reporting.graphql", "supergraph.graphql"]);
    for (const [name, expected] of Object.entries(files)) {
      const committed = await readFile(path.join(schemaFolder, name), "utf8").catch(() => "(missing)");
      expect(committed, `schema/${name} is stale: run npm run schema`).toBe(expected);
    }
  });

  it("include the table of refusals the docs show, made from core/refusals.ts", async () => {
    const committed = await readFile(refusalsDocPath, "utf8").catch(() => "(missing)");
    expect(committed, "docs/refusals.md is stale: run npm run schema").toBe(refusalsDocument());
    expect(committed).toContain("| `PRICES_CHANGED` | 400 | 9573 | `userErrors`, `code: PRICES_CHANGED` |");
    expect(committed).toContain("| `FORBIDDEN` | 403 | 6501 | `errors`, `extensions.code: FORBIDDEN`, `reason: FORBIDDEN` |");
    expect(committed).toContain("| `ENGINE_SECRETS_KEY_MISSING` | 409 |  | `userErrors`, `code: ENGINE_SECRETS_KEY_MISSING` |");
  });

  it("compose into a supergraph in which every subgraph is joined", async () => {
    const files = await generatedSchemaFiles();
    for (const name of ["CATALOGUE", "BOOKING", "REPORTING", "NODE"]) {
      expect(files["supergraph.graphql"]).toContain(`${name} @join__graph(name: "${name.toLowerCase()}"`);
    }
  });
});
