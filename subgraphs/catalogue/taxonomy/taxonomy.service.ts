import { toGlobalId } from "../../../core/global-id.js";
import type { LanguageText } from "../../../drizzle/schema.js";
import { localized, type LocalizedText } from "../language/localized-text.type.js";
import type { TaxonomyNodeRow } from "./taxonomy.repository.js";
import type { TaxonomyFamily, TaxonomyNode } from "./taxonomy.type.js";

/** A node as the graph shows it; its parent and children are read from the taxonomy when asked for. */
export function toTaxonomyNode(row: TaxonomyNodeRow): TaxonomyNode {
  return {
    id: toGlobalId("TaxonomyNode", row.uuid),
    legacyResourceId: row.uuid,
    slug: row.slug,
    code: row.code,
    family: row.family as TaxonomyFamily,
    level: row.level,
    name: localized(row.name)!,
    version: row.version,
    isCurrent: row.isCurrent,
    startDate: row.startDate,
    parentKey: row.parentUuid,
  };
}

/** A node as spec 3's records write it: parentUuid is the own uuid at the top, `parent#child` below. */
export interface TaxonomyRecordNode {
  uuid: string;
  slug: string;
  family: string;
  level: number;
  name: LocalizedText;
  parentUuid: string;
  nameFullPath: string | null;
  version: number;
  isCurrent: boolean;
  startDate: string;
}

export function taxonomyRecordNode(row: TaxonomyNodeRow, parent: TaxonomyNodeRow | undefined): TaxonomyRecordNode {
  const englishName = (text: LanguageText) => text.en ?? Object.values(text)[0] ?? "";
  return {
    uuid: row.uuid,
    slug: row.slug,
    family: row.family,
    level: row.level,
    name: localized(row.name)!,
    parentUuid: parent ? `${parent.uuid}#${row.uuid}` : row.uuid,
    nameFullPath: parent ? `${englishName(parent.name)}#${englishName(row.name)}` : null,
    version: row.version,
    isCurrent: row.isCurrent,
    startDate: row.startDate,
  };
}

/** Nodes in the order the taxonomy lists them: by English name. */
export const byEnglishName = (a: TaxonomyNodeRow, b: TaxonomyNodeRow) => (a.name.en ?? "").localeCompare(b.name.en ?? "");

/** The current tree's level 1 nodes, by English name (their children are a field of each). */
export function taxonomyTree(rows: TaxonomyNodeRow[]): TaxonomyNode[] {
  return rows
    .filter((row) => row.level === 1)
    .sort(byEnglishName)
    .map(toTaxonomyNode);
}

/**
 * A product's taxonomy paths: each level 2 node with its parent, and each level 1 node that has
 * none of its children linked, alone.
 */
export function taxonomyPaths(linked: readonly TaxonomyNodeRow[], nodesByUuid: ReadonlyMap<string, TaxonomyNodeRow>): TaxonomyNode[][] {
  return taxonomyRowPaths(linked, nodesByUuid).map((path) => path.map(toTaxonomyNode));
}

/** taxonomyPaths as spec 3's records write their nodes. */
export function taxonomyRecordPaths(linked: readonly TaxonomyNodeRow[], nodesByUuid: ReadonlyMap<string, TaxonomyNodeRow>): TaxonomyRecordNode[][] {
  return taxonomyRowPaths(linked, nodesByUuid).map(([top, child]) => (child ? [taxonomyRecordNode(top, undefined), taxonomyRecordNode(child, top)] : [taxonomyRecordNode(top, undefined)]));
}

/** taxonomyPaths as the nodes' rows: a linked level-2 node under its parent, a linked level-1 node alone when none of its children is linked. */
export function taxonomyRowPaths(linked: readonly TaxonomyNodeRow[], nodesByUuid: ReadonlyMap<string, TaxonomyNodeRow>): TaxonomyNodeRow[][] {
  const paths: TaxonomyNodeRow[][] = [];
  const covered = new Set<string>();
  for (const node of linked) {
    if (node.level !== 2) continue;
    const parent = node.parentUuid ? nodesByUuid.get(node.parentUuid) : undefined;
    if (!parent) continue;
    covered.add(parent.uuid);
    paths.push([parent, node]);
  }
  for (const node of linked) if (node.level === 1 && !covered.has(node.uuid)) paths.push([node]);
  return paths;
}
