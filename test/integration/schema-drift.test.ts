import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { printSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { buildGraph, committedSupergraph, composeGraphAfresh, compositionCounts, GENERATED_HEADER } from "../../schema/compose.js";
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

/**
 * A start takes the committed supergraph when its subgraphs print as the committed files do
 * (schema/compose.ts): the same text and API schema as a composition, and only while every
 * subgraph's file matches.
 */
describe("the committed supergraph at start-up", () => {
  it("is what a start uses while the subgraphs match their files: the text and API schema a composition gives", async () => {
    const before = compositionCounts();
    const afresh = await composeGraphAfresh();
    expect(await committedSupergraph(afresh.subgraphs)).toBe(afresh.supergraphSdl);
    const started = await buildGraph({ reuseCommitted: true });
    expect(compositionCounts()).toEqual({ composed: before.composed + 1, reused: before.reused + 1 });
    expect(started.supergraphSdl).toBe(afresh.supergraphSdl);
    expect(printSchema(started.apiSchema)).toBe(printSchema(afresh.apiSchema));
  });

  it("is not used when a subgraph prints otherwise, a file is missing or lacks the header: the graph is composed then", async () => {
    const { subgraphs } = await composeGraphAfresh();
    const folder = mkdtempSync(path.join(tmpdir(), "committed-schema-"));
    try {
      cpSync(schemaFolder, folder, { recursive: true, filter: (source) => source === schemaFolder || source.endsWith(".graphql") });
      expect(await committedSupergraph(subgraphs, folder)).toBe((await readFile(path.join(folder, "supergraph.graphql"), "utf8")).slice(GENERATED_HEADER.length));
      // The code's booking subgraph changed since `npm run schema`.
      const changed = { ...subgraphs, booking: { sdl: `${subgraphs.booking.sdl}\ntype Added {\n  id: ID!\n}\n` } };
      expect(await committedSupergraph(changed, folder)).toBeUndefined();
      writeFileSync(path.join(folder, "supergraph.graphql"), "schema { query: Query }\n");
      expect(await committedSupergraph(subgraphs, folder)).toBeUndefined();
      rmSync(path.join(folder, "catalogue.graphql"));
      expect(await committedSupergraph(subgraphs, folder)).toBeUndefined();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
