import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { CriticalityLevel, diff } from "@graphql-inspector/core";
import { buildSchema } from "graphql";
import { schemaFolder } from "./files.js";

/**
 * Clients of the graph break when a field, type, argument or enum value they use goes away or
 * changes its type. The graph as last published is kept (`schema/published/api.graphql`); every
 * breaking change since, as `@graphql-inspector/core` finds them, must be listed with its reason in
 * `schema/breaking-changes.json`, so that it is decided, not slipped in. Publishing (a release)
 * takes the current graph as the new baseline and empties the list.
 */
export interface RecordedChange {
  /** The change's type and path as inspector names them, e.g. "FIELD_REMOVED Product.title". */
  change: string;
  /** Why the break is accepted, and what clients use instead. */
  reason: string;
}

export const publishedSchemaPath = path.join(schemaFolder, "published", "api.graphql");
export const breakingChangesPath = path.join(schemaFolder, "breaking-changes.json");

/** The breaking changes from one schema's text to another's, each as "<type> <path>" with inspector's message. */
export async function breakingChanges(before: string, after: string): Promise<{ change: string; message: string }[]> {
  const changes = await diff(buildSchema(before), buildSchema(after));
  return changes
    .filter((change) => change.criticality.level === CriticalityLevel.Breaking)
    .map((change) => ({ change: `${change.type} ${change.path ?? ""}`.trim(), message: change.message }));
}

/** What the record lacks (breaking changes nobody decided) and what it lists that no longer happens (stale entries). */
export function checkRecord(found: { change: string; message: string }[], recorded: RecordedChange[]): { unrecorded: { change: string; message: string }[]; stale: RecordedChange[] } {
  const recordedChanges = new Set(recorded.map((entry) => entry.change));
  const foundChanges = new Set(found.map((entry) => entry.change));
  return { unrecorded: found.filter((entry) => !recordedChanges.has(entry.change)), stale: recorded.filter((entry) => !foundChanges.has(entry.change)) };
}

export async function readRecord(file = breakingChangesPath): Promise<RecordedChange[]> {
  const entries: unknown = JSON.parse(await readFile(file, "utf8"));
  if (!Array.isArray(entries) || !entries.every((entry) => typeof entry?.change === "string" && typeof entry?.reason === "string" && entry.reason.trim())) {
    throw new Error(`${file}: each entry needs a "change" and a "reason"`);
  }
  return entries as RecordedChange[];
}

/** `npm run schema:publish`: the current graph becomes the baseline; the record starts empty. */
export async function publishSchema(): Promise<void> {
  const current = await readFile(path.join(schemaFolder, "api.graphql"), "utf8");
  const header = "# The graph as last published: `npm run schema:publish` copies schema/api.graphql here. Breaking changes since are listed in schema/breaking-changes.json.\n";
  await writeFile(publishedSchemaPath, header + current.slice(current.indexOf("\n") + 1));
  await writeFile(breakingChangesPath, "[]\n");
}
