import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Field, ID, Info, Int, ObjectType, Query, Resolver } from "type-graphql";
import { productKey } from "../product/product.type.js";
import { asksFor } from "../../common/selection.js";
import { consumerAccess } from "../consumer-access.js";
import type { CatalogueContext } from "../loaders.js";
import { Product } from "../product/product.type.js";
import { taxonomyTree } from "../taxonomy/taxonomy.service.js";
import { TaxonomyNode } from "../taxonomy/taxonomy.type.js";
import { consumerProduct, searchProducts } from "./search.service.js";

@ObjectType()
export class ProductSearchPage {
  @Field(() => Int) pageNumber!: number;
  @Field(() => Int) resultsPerPage!: number;
  @Field(() => Int) totalResults!: number;
  @Field(() => Boolean, { description: "totalResults is the planner's estimate: more than 1,000 products matched, the most that are counted exactly" }) totalResultsEstimated!: boolean;
  @Field(() => [Product]) items!: Product[];
}

@Resolver()
export class CatalogueConsumerResolver {
  @Query(() => ProductSearchPage, { description: "Search the catalogue with a Search expression (docs/search.md)" })
  searchProducts(
    @Arg("search", () => String) search: string,
    @Arg("pageNumber", () => Int, { defaultValue: 1 }) pageNumber: number,
    @Arg("resultsPerPage", () => Int, { defaultValue: 100 }) resultsPerPage: number,
    @Arg("sortingField", () => String, { defaultValue: "title" }) sortingField: string,
    @Arg("sortingOrder", () => String, { defaultValue: "asc" }) sortingOrder: string,
    @Ctx() ctx: CatalogueContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ProductSearchPage> {
    return searchProducts(ctx, { search, pageNumber, resultsPerPage, sortingField, sortingOrder }, asksFor(info, "consumerRecord"));
  }

  @Query(() => Product, { nullable: true, description: "One product of the catalogue (deprecated ones included); null for an id that names none, or a deleted one" })
  product(@Arg("id", () => ID, { description: "The product's global id" }) id: string, @Ctx() ctx: CatalogueContext): Promise<Product | null> {
    return consumerProduct(ctx, productKey(id));
  }

  @Query(() => [TaxonomyNode], { description: "The current activities taxonomy: level 1 nodes with their children" })
  async taxonomy(@Ctx() ctx: CatalogueContext): Promise<TaxonomyNode[]> {
    await consumerAccess(ctx);
    return taxonomyTree([...(await ctx.loaders.taxonomy()).values()]);
  }
}
