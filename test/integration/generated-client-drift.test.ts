import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateClient, generatedClientFolder } from "../../examples/generated-client/generate.js";

/** The generator writes TypeScript files only, in a few folders. */
const filesUnder = async (folder: string): Promise<string[]> => (await readdir(folder, { recursive: true })).filter((name) => name.endsWith(".ts")).sort();

/** The @hey-api/openapi-ts client compiles against the committed output: it must be what the code's document generates now. */
describe("committed @hey-api/openapi-ts client", () => {
  it("matches what the OpenAPI document the code builds generates (run `npm run codegen:client` after changing a route schema)", async () => {
    const fresh = await mkdtemp(path.join(tmpdir(), "generated-client-"));
    try {
      await generateClient(fresh);
      const files = await filesUnder(fresh);
      expect(files.length).toBeGreaterThan(3);
      expect(await filesUnder(generatedClientFolder).catch(() => ["(missing)"]), "examples/generated-client/sdk is stale: run npm run codegen:client").toEqual(files);
      for (const file of files) {
        const committed = await readFile(path.join(generatedClientFolder, file), "utf8");
        expect(committed, `examples/generated-client/sdk/${file} is stale: run npm run codegen:client`).toBe(await readFile(path.join(fresh, file), "utf8"));
      }
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
    // It builds the whole service in process (database, graph, routes), like a stack's start.
  }, 120_000);
});
