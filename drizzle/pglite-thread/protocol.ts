/**
 * Messages between the service's thread and the thread that owns the embedded PGlite. PGlite
 * runs PostgreSQL compiled to WebAssembly on the thread that calls it; on the service's own thread
 * every statement would stop the event loop that serves other requests, so it lives on its own.
 */

/** A statement's options as they cross threads: type ids whose text is kept as it is, never parser functions. */
export interface QueryOptions {
  rowMode?: "array" | "object";
  rawTypes?: number[];
}

export type Request =
  | { kind: "query"; id: number; transaction?: number; sql: string; params?: unknown[]; options?: QueryOptions }
  | { kind: "exec"; id: number; transaction?: number; sql: string }
  | { kind: "begin"; id: number }
  | { kind: "end"; id: number; transaction: number; commit: boolean }
  | { kind: "listen"; id: number; channel: string }
  | { kind: "unlisten"; id: number; channel: string }
  | { kind: "close"; id: number }
  /** Writes the database as it is, as a template tarball at `path` (template.ts). */
  | { kind: "dump"; id: number; path: string };

/** A database error's fields that can cross threads (SQLSTATE code, constraint, detail, ...). */
export type ErrorFields = Record<string, string | number | undefined> & { message: string };

export type Reply =
  | { kind: "reply"; id: number; ok: true; value: unknown }
  | { kind: "reply"; id: number; ok: false; error: ErrorFields }
  | { kind: "notification"; channel: string; payload: string };

export interface HostOptions {
  /** A data folder, or `memory`. */
  dataDir: string;
  /** For a database not made yet (in memory, or a folder without one): a migrated template tarball to start from when it exists (template.ts). */
  template?: string;
}

/** What the host answers once its database is ready. */
export interface Ready {
  /** The database was loaded from the template tarball rather than made by initdb. */
  fromTemplate: boolean;
}
