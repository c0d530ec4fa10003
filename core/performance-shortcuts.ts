/**
 * The performance shortcuts: code that takes the place of a library's own path (Apollo's, graphql-js's,
 * drizzle's, postgres.js's) because the library's path measured slower. Each gives the same answers as
 * the path it replaces, and each can be turned off, so that a wrong answer can be told from a
 * shortcut's fault by running without it. What each does, its measured gain and what an upgrade of
 * the library must check: docs/performance-machinery.md.
 */
export const performanceShortcutNames = [
  "operation-cache",
  "result-shaping",
  "direct-execution",
  "subgraph-direct-execution",
  "row-mapping",
  "compiled-statements",
  "prepared-statements",
  "driver-queue",
] as const;

export type PerformanceShortcutName = (typeof performanceShortcutNames)[number];

/** Which shortcuts are on, by their names in PERFORMANCE_SHORTCUTS_OFF. */
export type PerformanceShortcuts = Readonly<Record<PerformanceShortcutName, boolean>>;

export const allShortcutsOn: PerformanceShortcuts = Object.freeze(Object.fromEntries(performanceShortcutNames.map((name) => [name, true])) as Record<PerformanceShortcutName, boolean>);
export const allShortcutsOff: PerformanceShortcuts = Object.freeze(Object.fromEntries(performanceShortcutNames.map((name) => [name, false])) as Record<PerformanceShortcutName, boolean>);

/**
 * PERFORMANCE_SHORTCUTS_OFF's value: `all`, or a comma-separated list of names; unset or empty, every
 * shortcut is on. A name that is not a shortcut's is a problem, not ignored: a typo would otherwise
 * leave on the very shortcut being ruled out.
 */
export function parseShortcutsOff(value: string | undefined): { shortcuts: PerformanceShortcuts } | { problem: string } {
  const names = (value ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 1 && names[0] === "all") return { shortcuts: allShortcutsOff };
  const unknown = names.filter((name) => !(performanceShortcutNames as readonly string[]).includes(name));
  if (unknown.length) return { problem: `must be all, or a comma-separated list of ${performanceShortcutNames.join(", ")} (not ${unknown.join(", ")})` };
  return { shortcuts: Object.freeze({ ...allShortcutsOn, ...Object.fromEntries(names.map((name) => [name, false])) }) };
}
