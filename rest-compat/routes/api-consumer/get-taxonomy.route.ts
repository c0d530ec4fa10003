import type { RestRoute } from "../../rest-route.js";

interface Node {
  uuid: string;
  slug: string;
  family: string;
  level: number;
  name: { text: string | null; translations: Record<string, string> };
  parentUuid: string;
  nameFullPath: string | null;
  version: number;
  isCurrent: boolean;
  startDate: string;
  children?: Node[];
}

const NODE = "uuid slug family level parentUuid nameFullPath version isCurrent startDate name { text translations }";

function treeNode(node: Node): Record<string, unknown> {
  return {
    uuid: node.uuid,
    name: node.name.translations.en ?? node.name.text,
    startDate: node.startDate,
    isCurrent: node.isCurrent,
    version: node.version,
    parentUuid: node.parentUuid,
    ...(node.nameFullPath ? { nameFullPath: node.nameFullPath } : {}),
    family: node.family,
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
    summary: "Get taxonomy",
    description: "The activities taxonomy tree; localizedName in the Accept-Language language (default en).",
    tags: ["Catalogue consumption"],
    response: {
      200: {
        type: "object",
        properties: { "taxonomy-tree": { type: "array", items: { type: "object", additionalProperties: true } } },
      },
    },
  },
  operation: /* GraphQL */ `query RestTaxonomy { taxonomy { ${NODE} children { ${NODE} } } }`,
  respond: ({ taxonomy }) => ({ "taxonomy-tree": taxonomy.map(treeNode) }),
};
