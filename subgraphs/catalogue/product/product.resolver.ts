import { Arg, Ctx, Directive, Field, FieldResolver, Float, Int, Mutation, ObjectType, Query, Resolver, Root } from "type-graphql";
import { Descriptor, TaxonomyNode } from "../taxonomy/taxonomy.type.js";
import { taxonomyPaths } from "../taxonomy/taxonomy.service.js";
import { commissionRate, estimatedNetPrice } from "../../../core/commission.js";
import { bookingLink, durationInHours, productDescriptors } from "./product.consumer.js";
import type { CatalogueContext } from "../loaders.js";
import { toSupplier } from "../supplier/supplier.service.js";
import { Supplier } from "../supplier/supplier.type.js";
import { JSONObjectScalar } from "../../common/json-scalars.js";
import { consumerRecord, type ConsumerRecord } from "./consumer-record.js";
import { productService } from "./product.service.js";
import { DeletedProduct, Product, ProductFilterInput, ProductInput } from "./product.type.js";

@ObjectType()
export class ProductPushResult {
  @Field(() => Product) product!: Product;
  @Field(() => Boolean, { description: "True when the externalId belonged to another supplier's product, which moved to this supplier" })
  moved!: boolean;
}

@Resolver(() => Product)
export class ProductResolver {
  @Query(() => [Product], { description: "The live products of a supplier the caller manages" })
  supplierProducts(
    @Arg("supplierId", () => Int) supplierId: number,
    @Arg("filter", () => ProductFilterInput, { nullable: true }) filter: ProductFilterInput | null,
    @Ctx() ctx: CatalogueContext,
  ): Promise<Product[]> {
    return productService.listOfSupplier(ctx, supplierId, filter ?? {});
  }

  @Mutation(() => ProductPushResult, { description: "Creates a product, or moves the product holding its externalId to this supplier" })
  createProduct(
    @Arg("supplierId", () => Int) supplierId: number,
    @Arg("input", () => ProductInput) input: ProductInput,
    @Ctx() ctx: CatalogueContext,
  ): Promise<ProductPushResult> {
    return productService.push(ctx, supplierId, input);
  }

  @Mutation(() => Product, { description: "Replaces the product's fields; updateDate changes" })
  updateProduct(
    @Arg("supplierId", () => Int) supplierId: number,
    @Arg("productId", () => Int) productId: number,
    @Arg("input", () => ProductInput) input: ProductInput,
    @Ctx() ctx: CatalogueContext,
  ): Promise<Product> {
    return productService.update(ctx, supplierId, productId, input);
  }

  /** Not in the client API: the booking subgraph's service code calls it on this subgraph directly. */
  @Directive("@inaccessible")
  @Mutation(() => Boolean, {
    description:
      "Whether the booking flow can sell the product (onlineBookable); told by the booking service only. A tell whose version is not newer than the last applied changes nothing. Returns what the product shows afterwards",
  })
  recordBookingFlow(
    @Arg("productId", () => Int) productId: number,
    @Arg("bookable", () => Boolean) bookable: boolean,
    @Arg("version", () => Int, { description: "The change's place in the booking service's order of changes (booking_flow_versions)" }) version: number,
    @Ctx() ctx: CatalogueContext,
  ): Promise<boolean> {
    return productService.recordBookingFlow(ctx, productId, bookable, version);
  }

  @Mutation(() => DeletedProduct, { description: "The product leaves the catalogue (DELETED in change detection)" })
  deleteProduct(@Arg("supplierId", () => Int) supplierId: number, @Arg("productId", () => Int) productId: number, @Ctx() ctx: CatalogueContext): Promise<DeletedProduct> {
    return productService.delete(ctx, supplierId, productId);
  }

  @Mutation(() => Product)
  deprecateProduct(@Arg("supplierId", () => Int) supplierId: number, @Arg("productId", () => Int) productId: number, @Ctx() ctx: CatalogueContext): Promise<Product> {
    return productService.setDeprecated(ctx, supplierId, productId, true);
  }

  @Mutation(() => Product)
  undeprecateProduct(@Arg("supplierId", () => Int) supplierId: number, @Arg("productId", () => Int) productId: number, @Ctx() ctx: CatalogueContext): Promise<Product> {
    return productService.setDeprecated(ctx, supplierId, productId, false);
  }

  @FieldResolver(() => [[TaxonomyNode]], { description: "Taxonomy paths: [level 1, level 2] for each subcategory, [level 1] for a category alone" })
  async taxonomies(@Root() product: Product, @Ctx() ctx: CatalogueContext): Promise<TaxonomyNode[][]> {
    const [linked, nodes] = await Promise.all([ctx.loaders.productTaxonomyNodes.load(product.legacyResourceId), ctx.loaders.taxonomy()]);
    return taxonomyPaths(linked, nodes);
  }

  @FieldResolver(() => [String], { description: "Languages of the title (ISO 639-1)" })
  availableLanguages(@Root() product: Product): string[] {
    return Object.keys(product.title.translations).sort();
  }

  @FieldResolver(() => Float, { nullable: true, description: "The duration in hours, when it is given in weeks, days, hours, minutes or seconds" })
  durationHours(@Root() product: Product): number | null {
    return durationInHours(product.duration);
  }

  @FieldResolver(() => [Descriptor], { description: "Why a product is flagged: EXCLUDED because DEPRECATED" })
  descriptors(@Root() product: Product): Descriptor[] {
    return productDescriptors(product);
  }

  @FieldResolver(() => String, { nullable: true, description: "The booking URL in the caller's language, with externalClientId appended when given" })
  bookingLink(
    @Root() product: Product,
    @Arg("externalClientId", () => String, { nullable: true }) externalClientId: string | null,
    @Ctx() ctx: CatalogueContext,
  ): string | null {
    return bookingLink(product.bookingUrl?.translations ?? null, ctx.languages, externalClientId);
  }

  @FieldResolver(() => JSONObjectScalar, {
    description:
      "Spec 3's consumer product record as one JSON object, texts in the caller's language: what the REST consumer paths answer, without a resolver per field",
  })
  consumerRecord(
    @Root() product: Product,
    @Arg("externalClientId", () => String, { nullable: true }) externalClientId: string | null | undefined,
    @Ctx() ctx: CatalogueContext,
  ): Promise<ConsumerRecord> {
    return consumerRecord(ctx, product, externalClientId ?? null);
  }

  @FieldResolver(() => Float, { nullable: true, description: "A per-call id for this product, when the caller's organisation has the trackingId feature (null otherwise)" })
  trackingId(@Root() product: Product, @Ctx() ctx: CatalogueContext): Promise<number | null> {
    return ctx.loaders.trackingId.load(product.legacyResourceId);
  }

  @FieldResolver(() => Float, { nullable: true, description: "First adult retail price: exact for agents, recommended for resellers" })
  retailPrice(@Root() product: Product): number | null {
    return product.minPrice;
  }

  @FieldResolver(() => Float, { nullable: true, description: "Agent model only: the commission as a ratio of the retail price" })
  async estimatedCommissionRate(@Root() product: Product, @Ctx() ctx: CatalogueContext): Promise<number | null> {
    return (await callerModel(ctx)) === "AGENT" ? commissionRate(product) : null;
  }

  @FieldResolver(() => Float, { nullable: true, description: "Reseller model only: the estimated net price" })
  async estimatedNetPrice(@Root() product: Product, @Ctx() ctx: CatalogueContext): Promise<number | null> {
    return (await callerModel(ctx)) === "RESELLER" ? estimatedNetPrice(product) : null;
  }

  @FieldResolver(() => Supplier)
  async supplier(@Root() product: Product, @Ctx() ctx: CatalogueContext): Promise<Supplier> {
    const row = await ctx.loaders.anySupplier.load(product.supplierId);
    if (!row) throw new Error(`product ${product.legacyResourceId} has no supplier ${product.supplierId}`);
    return toSupplier(row);
  }
}

/** The caller organisation's commercial model (AGENT or RESELLER): it decides which price fields a consumer sees. */
export async function callerModel(ctx: CatalogueContext): Promise<string | null> {
  if (ctx.caller.organisationId === null) return null;
  return (await ctx.loaders.organisation.load(ctx.caller.organisationId))?.commercialModel ?? null;
}
