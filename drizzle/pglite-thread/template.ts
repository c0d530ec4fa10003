import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { makeFolders } from "../data-folder.js";

/**
 * A new embedded database is born empty: PGlite runs initdb, then every migration, 3.9 s of CPU
 * on this machine before the first request. A migrated, empty database kept as a tarball starts
 * in 0.7 s. Every new database, in memory or in a folder that holds none yet (`npm start`, the
 * operator CLI, every test database and child service in the test suite), starts from one; the
 * first start of a set of migrations writes it.
 *
 * The tarball is named by what makes it: PGlite's version and every migration file, so a changed
 * migration or an upgraded PGlite never loads an old one. It lives in a folder only this user can
 * open: a tarball another local user could write would be a way into every sandbox database.
 */
export function pgliteTemplatePath(migrationsFolder: string, folder = defaultTemplateFolder()): string | undefined {
  if (!ownPrivateFolder(folder)) return undefined;
  return path.join(folder, `${templateKey(migrationsFolder)}.tar`);
}

/** Templates kept in all, the one just written included: one for each of a few checkouts or branches on the machine. */
const KEPT_TEMPLATES = 4;
/** A partial tarball this old was left by a process that died while writing it. */
const ABANDONED_MS = 60 * 60 * 1000;

/**
 * Each set of migrations writes its own tarball of about 40 MB, and an old one is never read
 * again once the migrations have moved on: all but the newest few go when a template is written.
 */
export function pruneTemplates(written: string, keep = KEPT_TEMPLATES): void {
  const folder = path.dirname(written);
  const entries = readdirSync(folder).map((name) => ({ file: path.join(folder, name), modified: lstatSync(path.join(folder, name)).mtimeMs }));
  const others = entries.filter(({ file }) => file.endsWith(".tar") && file !== written).sort((a, b) => b.modified - a.modified);
  const abandoned = entries.filter(({ file, modified }) => file.endsWith(".partial") && Date.now() - modified > ABANDONED_MS);
  for (const old of [...others.slice(keep - 1), ...abandoned]) rmSync(old.file, { force: true });
}

function defaultTemplateFolder(): string {
  return path.join(tmpdir(), `activities-pglite-templates-${userInfo().uid}`);
}

/** The folder exists, is a real folder of this user's, and no one else may read or write in it. */
function ownPrivateFolder(folder: string): boolean {
  try {
    makeFolders(folder, 0o700);
    const stat = lstatSync(folder);
    return stat.isDirectory() && stat.uid === userInfo().uid && (stat.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

const keys = new Map<string, string>();

function templateKey(migrationsFolder: string): string {
  let key = keys.get(migrationsFolder);
  if (key) return key;
  const hash = createHash("sha256");
  hash.update(`pglite ${pgliteVersion()}\n`);
  const files = (readdirSync(migrationsFolder, { recursive: true }) as string[]).sort();
  for (const file of files) {
    const full = path.join(migrationsFolder, file);
    if (!lstatSync(full).isFile()) continue;
    hash.update(`${file}\n`).update(readFileSync(full)).update("\n");
  }
  key = hash.digest("hex").slice(0, 32);
  keys.set(migrationsFolder, key);
  return key;
}

function pgliteVersion(): string {
  // The package's exports hide its package.json: walk up from its entry point to it.
  let folder = path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8")) as { name?: string; version?: string };
      if (manifest.name === "@electric-sql/pglite" && manifest.version) return manifest.version;
    } catch {
      // No manifest here: keep walking up.
    }
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error("cannot find @electric-sql/pglite's package.json");
    folder = parent;
  }
}
