import { answer, type JsonSchema } from "../../json-schema.js";
import { languageObjectOf, TRANSLATIONS, type Translations } from "../../language-objects.js";
import type { RestRoute } from "../../rest-route.js";

interface Node {
  legacyResourceId: string;
  slug: string;
  family: string;
  level: number;
  name: { text: string | null; translations: Translations };
  parent: { legacyResourceId: string; name: { translations: Translations } } | null;
  version: number;
  isCurrent: boolean;
  startDate: string;
  children?: Node[];
}

/** The graph's family (ACTIVITIES) as the contract writes it. */
const FAMILIES: Record<string, string> = { ACTIVITIES: "activities" };

/** A tree node as treeNode writes it; the children of a level 2 node are always empty (two levels exist). */
const treeNodeSchema = (level: 1 | 2): JsonSchema =>
  answer(
    {
      uuid: { type: "string" },
      name: { type: "string", description: "English name" },
      startDate: { type: "string", description: "YYYY-MM-DD" },
      isCurrent: { type: "boolean" },
      version: { type: "integer" },
      parentUuid: { type: "string", description: "A top-level node's own uuid; a child's parent uuid and its own joined by '#'" },
      nameFullPath: { type: "string", description: "Children only: 'Parent#Child'" },
      family: { type: "string", description: "activities" },
      slug: { type: "string", description: "family, level 1 and level 2 names joined by hyphens" },
      localizedName: { type: "string", description: "Name in the Accept-Language language" },
      children: level === 1 ? { type: "array", items: treeNodeSchema(2) } : { type: "array", maxItems: 0, description: "Always empty" },
    },
    ["uuid", "name", "startDate", "isCurrent", "version", "parentUuid", "family", "slug", "localizedName", "children"],
  );

const NODE = `legacyResourceId slug family level version isCurrent startDate name { text ${TRANSLATIONS} } parent { legacyResourceId name { ${TRANSLATIONS} } }`;

/** A name in English, or in the first language it has (by language code). */
const english = (translations: Translations) => languageObjectOf(translations).en ?? translations[0]?.text ?? "";

/** Spec 3's node: parentUuid is the own uuid at the top and `parent#child` below; nameFullPath is `Parent#Child` in English, children only. */
function treeNode(node: Node): Record<string, unknown> {
  return {
    uuid: node.legacyResourceId,
    name: languageObjectOf(node.name.translations).en ?? node.name.text,
    startDate: node.startDate,
    isCurrent: node.isCurrent,
    version: node.version,
    parentUuid: node.parent ? `${node.parent.legacyResourceId}#${node.legacyResourceId}` : node.legacyResourceId,
    ...(node.parent ? { nameFullPath: `${english(node.parent.name.translations)}#${english(node.name.translations)}` } : {}),
    family: FAMILIES[node.family] ?? node.family,
    slug: node.slug,
    localizedName: node.name.text,
    children: (node.children ?? []).map(treeNode),
  };
}

/** GET /api/consumer/taxonomy (spec 3, "Get taxonomy"). */
export const getTaxonomyRoute: RestRoute<{ taxonomy: Node[] }> = {
  method: "GET",
  url: "/api/consumer/taxonomy",
  schema: {
    operationId: "getTaxonomy",
    summary: "Get taxonomy",
    description: "The activities taxonomy tree; localizedName in the Accept-Language language (default en).",
    tags: ["Catalogue consumption"],
    response: {
      200: answer({ "taxonomy-tree": { type: "array", items: treeNodeSchema(1), description: "Level 1 nodes, each with its level 2 children" } }, ["taxonomy-tree"], "The taxonomy tree"),
    },
  },
  operation: /* GraphQL */ `query RestTaxonomy { taxonomy { ${NODE} children { ${NODE} } } }`,
  respond: ({ taxonomy }) => ({ "taxonomy-tree": taxonomy.map(treeNode) }),
};
