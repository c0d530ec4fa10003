import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { generate } from "@graphql-codegen/cli";
import { describe, expect, it } from "vitest";
import config from "../../codegen.ts";

/**
 * The example client's types are committed, so a schema change that breaks it shows in review and
 * in `npm run typecheck`; here, that they are what `npm run codegen` writes today.
 */
describe("committed GraphQL codegen output", () => {
  it("matches what the schema and the example's operations generate (run `npm run codegen`)", async () => {
    const outputs: { filename: string; content: string }[] = await generate({ ...config, silent: true, verbose: false }, false);
    const folder = "examples/graphql-client/gql";
    expect(outputs.map((o) => path.relative(folder, o.filename)).sort()).toEqual((await readdir(folder)).sort());
    for (const output of outputs) {
      const committed = await readFile(output.filename, "utf8");
      expect(committed, `${output.filename} is stale: run npm run codegen`).toBe(output.content);
    }
  });
});
