import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The embedded database's folder cannot be used; the message says why, in one line, without the setting's name. */
export class DataFolderUnusable extends Error {
  constructor(
    readonly folder: string,
    reason: string,
  ) {
    super(reason);
    this.name = "DataFolderUnusable";
  }
}

/**
 * Creates `folder` and the parents it lacks, one level at a time. Node 20's recursive mkdirSync
 * never returns for a path under /proc (mkdir there fails with ENOENT while the parent exists, and
 * it tries again), holding the event loop so that not even a signal is handled; here every
 * failure is an answer, naming the part of the path that refused.
 */
export function makeFolders(folder: string, mode?: number): void {
  const absolute = path.resolve(folder);
  const missing: string[] = [];
  for (let at = absolute; ; at = path.dirname(at)) {
    const kind = entryKind(absolute, at);
    if (kind === "folder") break;
    if (kind === "other") throw new DataFolderUnusable(absolute, `${at} is a file, not a folder`);
    missing.unshift(at);
    if (path.dirname(at) === at) break;
  }
  for (const at of missing) {
    try {
      mkdirSync(at, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && entryKind(absolute, at) === "folder") continue;
      throw new DataFolderUnusable(absolute, `${at} cannot be created (${reasonOf(error, `${path.dirname(at)} takes no new folders`)})`);
    }
  }
}

/**
 * Makes the embedded database's folder ready, or says why it cannot be: a folder it can create,
 * read and write files in. Checked before the start opens anything, so that a wrong DATA_DIR
 * stops it at once (exit 1, one line) rather than in the database's thread.
 */
export function prepareDataFolder(folder: string): void {
  const absolute = path.resolve(folder);
  makeFolders(absolute);
  try {
    readdirSync(absolute);
  } catch (error) {
    throw new DataFolderUnusable(absolute, `${absolute} cannot be read (${reasonOf(error)})`);
  }
  // Where the process's lock file goes: a file it cannot write there, the database cannot either.
  const probe = path.join(absolute, `.activities-write-check-${process.pid}`);
  try {
    writeFileSync(probe, "");
  } catch (error) {
    throw new DataFolderUnusable(absolute, `files cannot be written in ${absolute} (${reasonOf(error)})`);
  } finally {
    rmSync(probe, { force: true });
  }
}

/** What is at `at`: a folder, nothing (or a path through a file, which the level above tells), or something else. */
function entryKind(folder: string, at: string): "folder" | "missing" | "other" {
  try {
    return statSync(at).isDirectory() ? "folder" : "other";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    throw new DataFolderUnusable(folder, `${at} cannot be reached (${reasonOf(error)})`);
  }
}

const REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "not permitted",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  ENAMETOOLONG: "the name is too long",
  ELOOP: "too many symbolic links",
};

function reasonOf(error: unknown, whenMissing = "no such file or folder"): string {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  if (code === "ENOENT") return `${whenMissing}, ENOENT`;
  return REASONS[code] ? `${REASONS[code]}, ${code}` : (error as Error).message;
}
