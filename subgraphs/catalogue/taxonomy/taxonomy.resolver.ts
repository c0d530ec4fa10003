import { Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { byEnglishName, toTaxonomyNode } from "./taxonomy.service.js";
import { TaxonomyNode } from "./taxonomy.type.js";

/** A node's neighbours, read from the process's copy of the taxonomy (no statement). */
@Resolver(() => TaxonomyNode)
export class TaxonomyNodeResolver {
  @FieldResolver(() => TaxonomyNode, { nullable: true, description: "The category a subcategory belongs to; null for a category" })
  async parent(@Root() node: TaxonomyNode, @Ctx() ctx: CatalogueContext): Promise<TaxonomyNode | null> {
    const row = node.parentKey === null ? undefined : (await ctx.loaders.taxonomy()).get(node.parentKey);
    return row ? toTaxonomyNode(row) : null;
  }

  @FieldResolver(() => [TaxonomyNode], { description: "A category's subcategories, by English name; empty for a subcategory" })
  async children(@Root() node: TaxonomyNode, @Ctx() ctx: CatalogueContext): Promise<TaxonomyNode[]> {
    return [...(await ctx.loaders.taxonomy()).values()].filter((row) => row.parentUuid === node.legacyResourceId).sort(byEnglishName).map(toTaxonomyNode);
  }
}
