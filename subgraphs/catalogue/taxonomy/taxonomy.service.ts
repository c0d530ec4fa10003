import type { LanguageText } from "../../../drizzle/schema.js";
import { localized } from "../language/localized-text.js";
import type { TaxonomyNodeRow } from "./taxonomy.repository.js";
import type { TaxonomyNode } from "./taxonomy.type.js";

/** Tree nodes as spec 3 shapes them: parentUuid is the own uuid at the top, `parent#child` below. */
export function toTaxonomyNode(row: TaxonomyNodeRow, parent: TaxonomyNodeRow | undefined, children: TaxonomyNode[] = []): TaxonomyNode {
  const englishName = (text: LanguageText) => text.en ?? Object.values(text)[0] ?? "";
  return {
    uuid: row.uuid,
    slug: row.slug,
    code: row.code,
    family: row.family,
    level: row.level,
    name: localized(row.name)!,
    parentUuid: parent ? `${parent.uuid}#${row.uuid}` : row.uuid,
    nameFullPath: parent ? `${englishName(parent.name)}#${englishName(row.name)}` : null,
    version: row.version,
    isCurrent: row.isCurrent,
    startDate: row.startDate,
    children,
  };
}

/** The current tree: level 1 nodes with their level 2 children, by English name. */
export function taxonomyTree(rows: TaxonomyNodeRow[]): TaxonomyNode[] {
  const byName = (a: TaxonomyNodeRow, b: TaxonomyNodeRow) => (a.name.en ?? "").localeCompare(b.name.en ?? "");
  return rows
    .filter((row) => row.level === 1)
    .sort(byName)
    .map((parent) =>
      toTaxonomyNode(
        parent,
        undefined,
        rows
          .filter((row) => row.parentUuid === parent.uuid)
          .sort(byName)
          .map((child) => toTaxonomyNode(child, parent)),
      ),
    );
}

/**
 * A product's taxonomy paths: each level 2 node with its parent, and each level 1 node that has
 * none of its children linked, alone.
 */
export function taxonomyPaths(linked: readonly TaxonomyNodeRow[], nodesByUuid: ReadonlyMap<string, TaxonomyNodeRow>): TaxonomyNode[][] {
  return taxonomyRowPaths(linked, nodesByUuid).map(([top, child]) => (child ? [toTaxonomyNode(top, undefined), toTaxonomyNode(child, top)] : [toTaxonomyNode(top, undefined)]));
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
