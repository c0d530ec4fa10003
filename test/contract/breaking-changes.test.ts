import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { breakingChanges, checkRecord, publishedSchemaPath, readRecord } from "../../schema/breaking-changes.js";
import { schemaFolder } from "../../schema/files.js";

const before = `
  type Query { product(id: ID!): Product }
  type Product { id: ID! title: String! price: Float }
`;

describe("breaking changes to the graph", () => {
  it("are each recorded with a reason since the graph was last published, and the record lists nothing that no longer happens", async () => {
    const published = await readFile(publishedSchemaPath, "utf8");
    // The committed schema is what the code builds (test/integration/schema-drift.test.ts).
    const current = await readFile(path.join(schemaFolder, "api.graphql"), "utf8");
    const { unrecorded, stale } = checkRecord(await breakingChanges(published, current), await readRecord());
    expect(unrecorded, "record each in schema/breaking-changes.json with its reason, or keep the old shape deprecated").toEqual([]);
    expect(stale, "remove these from schema/breaking-changes.json: they no longer happen").toEqual([]);
  });

  it("finds a removed field and a changed type, and lets an added field pass", async () => {
    const removed = await breakingChanges(before, before.replace("price: Float", ""));
    expect(removed.map((change) => change.change)).toEqual(["FIELD_REMOVED Product.price"]);
    const retyped = await breakingChanges(before, before.replace("title: String!", "title: Int!"));
    expect(retyped.map((change) => change.change)).toEqual(["FIELD_TYPE_CHANGED Product.title"]);
    expect(await breakingChanges(before, before.replace("price: Float", "price: Float currency: String"))).toEqual([]);
  });

  it("refuses a break nobody recorded, accepts one recorded, and calls a recorded change that no longer happens stale", async () => {
    const found = await breakingChanges(before, before.replace("price: Float", ""));
    expect(checkRecord(found, []).unrecorded).toHaveLength(1);
    expect(checkRecord(found, [{ change: "FIELD_REMOVED Product.price", reason: "Prices are Money now: use Product.priceFrom." }])).toEqual({ unrecorded: [], stale: [] });
    const stale = { change: "FIELD_REMOVED Product.title", reason: "Renamed." };
    expect(checkRecord([], [stale]).stale).toEqual([stale]);
  });

  it("refuses a record entry without a reason", async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), "breaking-changes-"));
    try {
      const file = path.join(folder, "breaking-changes.json");
      await writeFile(file, JSON.stringify([{ change: "FIELD_REMOVED Product.price", reason: " " }]));
      await expect(readRecord(file)).rejects.toThrow(/"reason"/);
      await writeFile(file, JSON.stringify([{ change: "FIELD_REMOVED Product.price", reason: "Use Product.priceFrom." }]));
      await expect(readRecord(file)).resolves.toHaveLength(1);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
