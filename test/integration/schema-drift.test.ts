import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generatedSchemaFiles, schemaFolder } from "../../schema/files.js";

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

  it("compose into a supergraph in which every subgraph is joined", async () => {
    const files = await generatedSchemaFiles();
    for (const name of ["CATALOGUE", "BOOKING", "REPORTING"]) {
      expect(files["supergraph.graphql"]).toContain(`${name} @join__graph(name: "${name.toLowerCase()}"`);
    }
  });
});
