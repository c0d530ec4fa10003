import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { clientTypesFile, generatedClientTypes } from "../../examples/rest-client/openapi.js";

/** The typed REST client compiles against the committed types: they must be what the code builds now. */
describe("committed REST client types", () => {
  it("match the OpenAPI document the code builds (run `npm run codegen:rest` after changing a route schema)", async () => {
    const committed = await readFile(clientTypesFile, "utf8").catch(() => "(missing)");
    expect(committed, "examples/rest-client/api.d.ts is stale: run npm run codegen:rest").toBe(await generatedClientTypes());
    // It builds the whole service in process (database, graph, routes), like a stack's start.
  }, 120_000);
});
