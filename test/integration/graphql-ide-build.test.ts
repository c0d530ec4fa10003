import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUILT_ASSETS_FOLDER, ideAssets, writeIdeAssets } from "../../server/graphql-ide/bundle.js";

/*
 * `npm run build` bundles the GraphQL IDE into the build, so a production install carries neither
 * the bundler nor GraphiQL and React (development dependencies): the compiled server serves the
 * files it finds beside it, and only a process run from the sources bundles them itself.
 */
const root = path.resolve(import.meta.dirname, "../..");
const folder = mkdtempSync(path.join(tmpdir(), "ide-assets-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("the GraphQL IDE's bundle in a build", () => {
  it("is written by the build where the compiled server looks for it", () => {
    const build = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.build as string;
    const compiledFolder = path.join("dist", path.relative(root, BUILT_ASSETS_FOLDER));
    expect(build).toContain(`tsx server/graphql-ide/write-assets.ts ${compiledFolder}`);
  });

  it("is served as written, with its content types, once the build wrote it", async () => {
    await writeIdeAssets(folder);
    const assets = await ideAssets(folder);
    expect(assets.files.get("ide.js")).toMatchObject({ contentType: "text/javascript; charset=utf-8" });
    expect(assets.files.get("ide.css")).toMatchObject({ contentType: "text/css; charset=utf-8" });
    expect(Buffer.from(assets.files.get("ide.js")!.body).toString()).toEqual(readFileSync(path.join(folder, "ide.js"), "utf8"));
    expect(Buffer.from(assets.files.get("ide.js")!.body).toString()).toContain("graphiql");
  }, 60_000);

  it("is bundled from the sources where no build wrote it", async () => {
    const assets = await ideAssets(path.join(folder, "no-build-here"));
    expect([...assets.files.keys()]).toEqual(expect.arrayContaining(["ide.js", "ide.css"]));
  }, 60_000);
});
