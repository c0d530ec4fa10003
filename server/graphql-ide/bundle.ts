import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export interface IdeAssets {
  /** File name (ide.js, ide.css) to its content */
  files: Map<string, { contentType: string; body: Uint8Array }>;
}

const contentTypes: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/**
 * Bundles the IDE's browser code (GraphiQL, React, the sign-in form) from node_modules, in
 * memory. Done on the first request for the IDE rather than at start: most processes never
 * serve it, and a build takes a second or two.
 */
export async function bundleIde(): Promise<IdeAssets> {
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
    files.set(name, { contentType: contentTypes[path.extname(name)] ?? "text/plain; charset=utf-8", body: file.contents });
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
