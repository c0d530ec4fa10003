import type { PerformanceShortcuts } from "../core/performance-shortcuts.js";

/** The shortcuts a database takes, as openDatabase is given them (the service's: PERFORMANCE_SHORTCUTS_OFF). */
export type DatabaseShortcuts = Pick<PerformanceShortcuts, "row-mapping" | "compiled-statements" | "prepared-statements" | "driver-queue">;

/** The two that act in drizzle's sessions, which every database of the process shares the classes of. */
type SessionShortcut = "row-mapping" | "compiled-statements";

/**
 * drizzle instances whose database runs with a session shortcut off, by the options object drizzle
 * gives their session: each transaction's (and savepoint's) session is made with the same object,
 * so a statement anywhere in the database's work finds its switches. Row mapping is installed on
 * drizzle's session classes for the whole process, and another database of it (tests open several)
 * may have it on: its sessions ask here.
 */
const plainSessions = new WeakMap<object, DatabaseShortcuts>();

/** The drizzle instance, its sessions told which shortcuts they skip. */
export function withSessionShortcuts<T>(db: T, shortcuts: DatabaseShortcuts): T {
  if (shortcuts["row-mapping"] && shortcuts["compiled-statements"]) return db;
  const options = optionsOf((db as { session?: unknown }).session);
  if (!options) throw new Error("drizzle's session keeps no options object: the switches of row mapping and compiled statements cannot reach it (docs/performance-machinery.md, upgrades)");
  plainSessions.set(options, shortcuts);
  return db;
}

/** Whether a drizzle session (a database's or a transaction's) takes the shortcut. */
export function sessionTakes(session: unknown, shortcut: SessionShortcut): boolean {
  const options = optionsOf(session);
  return !options || plainSessions.get(options)?.[shortcut] !== false;
}

function optionsOf(session: unknown): object | undefined {
  const options = (session as { options?: unknown } | undefined)?.options;
  return typeof options === "object" && options !== null ? options : undefined;
}
