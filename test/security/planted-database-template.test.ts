import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder, openDatabase } from "../../drizzle/database.js";
import { pgliteTemplatePath } from "../../drizzle/pglite-thread/template.js";

/**
 * An in-memory database starts from a template tarball kept in the temporary folder. Whoever can
 * write that tarball decides what every sandbox database holds (accounts, keys), so a template is
 * read and written only in a folder that this user owns and no one else can open.
 */
// PGlite only: the PostgreSQL run of the suite leaves this file out (vitest.config.ts).
describe("a database template another user could plant", () => {
  const folder = mkdtempSync(path.join(tmpdir(), "planted-template-test-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("is neither read nor written in a folder others may write to or read", async () => {
    for (const mode of [0o777, 0o770, 0o755, 0o1777]) {
      const shared = path.join(folder, `shared-${mode.toString(8)}`);
      mkdirSync(shared);
      chmodSync(shared, mode);
      expect(pgliteTemplatePath(migrationsFolder, shared), mode.toString(8)).toBeUndefined();
    }
    const database = await openDatabase({ dataDir: "memory", templateFolder: path.join(folder, "shared-777") });
    await database.close();
    expect(readdirSync(path.join(folder, "shared-777"))).toEqual([]);
  });

  it("is not taken through a symbolic link to another folder", () => {
    const target = path.join(folder, "elsewhere");
    mkdirSync(target, { mode: 0o700 });
    const link = path.join(folder, "link");
    symlinkSync(target, link);
    expect(pgliteTemplatePath(migrationsFolder, link)).toBeUndefined();
  });
});
