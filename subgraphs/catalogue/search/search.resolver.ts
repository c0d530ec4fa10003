import { type Connection, PagingArgsOf, type PagingArguments } from "../../common/relay/relay.connection.js";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, ID, Info, Query, Resolver } from "type-graphql";
import { productKey } from "../product/product.type.js";
import { asksFor } from "../../common/operation.selection.js";
import { consumerAccess } from "../consumer.access.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { Product, ProductConnection, ProductOrder } from "../product/product.type.js";
import { taxonomyTree } from "../taxonomy/taxonomy.service.js";
import { TaxonomyNode } from "../taxonomy/taxonomy.type.js";
import { consumerProduct, DEFAULT_PRODUCT_ORDER, MAX_SEARCH_PAGE_SIZE, searchProducts } from "./search.service.js";

/** The paging arguments of a list of products. */
const ProductsPaging = PagingArgsOf("products");

@Resolver()
export class CatalogueConsumerResolver {
  @Query(() => ProductConnection, {
    description: `Searches the live catalogue with a Search expression (docs/search.md): the caller's organisation's country first, then the order asked for (TITLE ascending unless given); at most ${MAX_SEARCH_PAGE_SIZE} a page (20 unless asked). Cursors are positions in that ranking; paging back needs \`before\``,
  })
  searchProducts(
    @Arg("query", () => String, { description: "The Search expression, such as `title:museum AND countryCode:FR` (at most 20 criteria)" }) query: string,
    @Ctx() ctx: CatalogueContext,
    @Info() info: GraphQLResolveInfo,
    @Args(() => ProductsPaging) paging: PagingArguments,
    @Arg("orderBy", () => ProductOrder, { nullable: true, description: "The order after the caller's country: by TITLE, ascending, unless given" }) orderBy?: ProductOrder | null,
  ): Promise<Connection<Product>> {
    const request = { query, orderBy: orderBy ?? DEFAULT_PRODUCT_ORDER, ...paging, withTotal: asksFor(info, "totalCount") };
    return searchProducts(ctx, request, asksFor(info, "consumerRecord"));
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
