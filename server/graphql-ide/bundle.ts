import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface IdeAssets {
  /** File name (ide.js, ide.css) to its content */
  files: Map<string, { contentType: string; body: Uint8Array }>;
}

const contentTypes: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/**
 * Where `npm run build` writes the bundle, beside the compiled server: a build serves it as it is,
 * so production installs neither the bundler nor GraphiQL and React (development dependencies).
 */
export const BUILT_ASSETS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), "ide-assets");

/** The IDE's files: the build's, or, run from the sources, bundled now. */
export async function ideAssets(builtFolder = BUILT_ASSETS_FOLDER): Promise<IdeAssets> {
  return existsSync(builtFolder) ? readAssets(builtFolder) : bundleIde();
}

async function readAssets(folder: string): Promise<IdeAssets> {
  const files = new Map<string, { contentType: string; body: Uint8Array }>();
  for (const name of await readdir(folder)) files.set(name, { contentType: contentTypeOf(name), body: await readFile(path.join(folder, name)) });
  return { files };
}

/** `npm run build`: the bundle written where the compiled server looks for it. */
export async function writeIdeAssets(folder: string): Promise<void> {
  const { files } = await bundleIde();
  await mkdir(folder, { recursive: true });
  for (const [name, file] of files) await writeFile(path.join(folder, name), file.body);
}

const contentTypeOf = (name: string) => contentTypes[path.extname(name)] ?? "text/plain; charset=utf-8";

/**
 * Bundles the IDE's browser code (GraphiQL, React, the sign-in form) from node_modules, in
 * memory. Done on the first request for the IDE rather than at start: most processes never
 * serve it, and a build takes a second or two.
 */
export async function bundleIde(): Promise<IdeAssets> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: { ide: path.join(browserFolder(), "ide.jsx") },
    bundle: true,
    write: false,
    outdir: "/ide",
    format: "esm",
    target: "es2022",
    platform: "browser",
    jsx: "automatic",
    minify: true,
    legalComments: "linked",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  const files = new Map<string, { contentType: string; body: Uint8Array }>();
  for (const file of result.outputFiles) {
    const name = path.basename(file.path);
    files.set(name, { contentType: contentTypeOf(name), body: file.contents });
  }
  return { files };
}

/**
 * The browser sources are not compiled by `npm run build` (they are bundled instead), so the
 * compiled server (dist/server/...) finds them in the project's server/ folder as well.
 */
function browserFolder(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(folder, "package.json"))) return path.join(folder, "server", "graphql-ide", "browser");
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error("the GraphQL IDE's browser sources (server/graphql-ide/browser) were not found");
    folder = parent;
  }
}
