import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";

/** The repository, where `npm run build` runs and writes `dist/`. */
const root = path.resolve(import.meta.dirname, "../..");

/**
 * The compiled build, `node dist/server/main.js` as the README's production command runs it: the
 * code `npm start` runs, loaded without the TypeScript loader. A child started from it costs about
 * 2.4 s less CPU than one started through tsx (docs/performance.md, "CI time"), so the tests that
 * start and stop many services use it; those that hold `npm start` itself keep `npmStartCommand`.
 */
export async function builtServiceCommand(): Promise<{ file: string; args: string[] }> {
  await builtOnce();
  return { file: process.execPath, args: ["dist/server/main.js"] };
}

/** What the build reads: every folder but these (and the files beside them: the lock file, the compiler's settings). */
const NOT_BUILT_FROM = new Set(["node_modules", "dist", "data", "test", "bench", "docs", "examples", "coverage", ".git"]);
const DIGEST_FILE = path.join(root, "dist", ".inputs-digest");
const LOCK = path.join(root, "node_modules", ".cache", "dist-build.lock");

let built: Promise<void> | undefined;

/** `npm run build`, unless `dist/` was built from these very inputs; once per process. */
export function builtOnce(): Promise<void> {
  built ??= buildUnlessCurrent().catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}

async function buildUnlessCurrent(): Promise<void> {
  const digest = inputsDigest();
  if (readOrEmpty(DIGEST_FILE) === digest) return;
  // Both workers of a run may ask at once, and the build empties dist/ first: one builds, the other waits.
  await takeLock();
  try {
    if (readOrEmpty(DIGEST_FILE) === digest) return;
    await promisify(execFile)("npm", ["run", "build"], { cwd: root });
    writeFileSync(DIGEST_FILE, digest);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

async function takeLock(): Promise<void> {
  mkdirSync(path.dirname(LOCK), { recursive: true });
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    // A lock older than any build (about 6 s) is one a killed run left behind; it is taken back
    // well before a waiting run would give up.
    const age = Date.now() - Number(statSafe(LOCK)?.mtimeMs ?? Date.now());
    if (age > 120_000) rmSync(LOCK, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`waited five minutes for another test run's build (${LOCK})`);
    await sleep(200);
  }
}

/** A digest of every file the build reads, by path and content: an edit anywhere in them builds again. */
function inputsDigest(): string {
  const hash = createHash("sha256");
  const add = (relative: string) => {
    const full = path.join(root, relative);
    const stat = statSafe(full);
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of readdirSync(full).sort()) add(path.join(relative, entry));
      return;
    }
    hash.update(relative).update("\0").update(readFileSync(full)).update("\0");
  };
  for (const entry of readdirSync(root).sort()) if (!NOT_BUILT_FROM.has(entry)) add(entry);
  return hash.digest("hex");
}

function statSafe(file: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
