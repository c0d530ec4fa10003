import { Arg, Ctx, Directive, FieldResolver, Float, ID, Int, Mutation, Resolver, Root } from "type-graphql";
import { Money, statedMoney } from "../../common/money.type.js";
import { DecimalScalar, LanguageCodeScalar } from "../../common/common.scalars.js";
import { decimalOf } from "../../../core/decimal.js";
import { Descriptor, TaxonomyNode } from "../taxonomy/taxonomy.type.js";
import { taxonomyPaths } from "../taxonomy/taxonomy.service.js";
import { commissionRate, estimatedNetPrice } from "../../../core/commission.js";
import { bookingLink, durationInHours, productDescriptors } from "./product.consumer.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { toSupplier } from "../supplier/supplier.service.js";
import { Supplier } from "../supplier/supplier.type.js";
import { JSONObjectScalar } from "../../common/json.scalars.js";
import { consumerRecord, type ConsumerRecord } from "./product.consumer-record.js";
import { productService } from "./product.service.js";
import { eachText, withLineBreaks } from "../../../core/line-breaks.js";
import { LocalizedText, localized } from "../language/localized-text.type.js";
import { PRODUCT_INPUT_NAMES, productRequestOf } from "./product.input.js";
import { TranslationPlaces } from "../language/translation.input.js";
import { AvailabilityPeriods, typedPeriodsOf } from "./availability-periods.type.js";
import { Itinerary, typedItineraryOf } from "./itinerary.type.js";
import {
  CreateProductInput,
  CreateProductPayload,
  DeleteProductInput,
  DeleteProductPayload,
  DeprecateProductInput,
  DeprecateProductPayload,
  LanguageBookability,
  Product,
  ProductCommissionTerms,
  productKey,
  UndeprecateProductInput,
  UndeprecateProductPayload,
  UpdateProductInput,
  UpdateProductPayload,
} from "./product.type.js";
import { payloadOf, type InputFields } from "../../common/user.errors.js";
import { supplierKey } from "../supplier/supplier.type.js";

/** How the product mutations' refusals name their input's fields. */
const CREATE_FIELDS: InputFields = { notFound: "supplierId", rename: PRODUCT_INPUT_NAMES };
const PRODUCT_FIELDS: InputFields = { notFound: "productId", rename: PRODUCT_INPUT_NAMES };

/** The number of a supplier guard given (0: an id that names none, which no product belongs to). */
const guardKey = (supplierId: string | null | undefined): number | null => (supplierId == null ? null : (supplierKey(supplierId) ?? 0));

/** The supplier of the product an input addresses, and the product's number. */
async function addressed(ctx: CatalogueContext, input: { productId: string; supplierId?: string | null }): Promise<{ supplierId: number; productId: number }> {
  const productId = productKey(input.productId);
  return { supplierId: await productService.supplierOf(ctx, productId, guardKey(input.supplierId)), productId: productId! };
}

@Resolver(() => Product)
export class ProductResolver {
  @Mutation(() => CreateProductPayload, { description: "Creates a product of a supplier the caller manages, or moves the product of another supplier of the same booking engine that holds its externalId (`moved`)" })
  createProduct(@Arg("input", () => CreateProductInput, { description: "The new product" }) input: CreateProductInput, @Ctx() ctx: CatalogueContext) {
    const { supplierId, ...fields } = input;
    // A language given twice in a text is refused as the input's shape, before the rest is judged.
    const places = new TranslationPlaces();
    return payloadOf(async () => productService.push(ctx, supplierKey(supplierId) ?? 0, productRequestOf(fields, places)).catch((error) => Promise.reject(places.inInputTerms(error))), CREATE_FIELDS);
  }

  @Mutation(() => UpdateProductPayload, { description: "Replaces the product's fields (one not given becomes unset); updateDate changes and change detection reports it UPDATED" })
  updateProduct(@Arg("input", () => UpdateProductInput, { description: "The product and its new fields" }) input: UpdateProductInput, @Ctx() ctx: CatalogueContext) {
    const { productId: _product, supplierId: _guard, ...fields } = input;
    return payloadOf(async () => {
      const { supplierId, productId } = await addressed(ctx, input);
      const places = new TranslationPlaces();
      return { product: await productService.update(ctx, supplierId, productId, productRequestOf(fields, places)).catch((error) => Promise.reject(places.inInputTerms(error))) };
    }, PRODUCT_FIELDS);
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

  @Mutation(() => DeleteProductPayload, { description: "The product leaves the catalogue (DELETED in change detection); bookings and reports keep referring to it. Its externalId may be pushed again as a new product" })
  deleteProduct(@Arg("input", () => DeleteProductInput, { description: "The product to delete" }) input: DeleteProductInput, @Ctx() ctx: CatalogueContext) {
    return payloadOf(async () => {
      const { supplierId, productId } = await addressed(ctx, input);
      await productService.delete(ctx, supplierId, productId);
      return { deletedProductId: input.productId };
    }, PRODUCT_FIELDS);
  }

  @Mutation(() => DeprecateProductPayload, { description: "Keeps the product listed to its partner but EXCLUDED for consumers, and not bookable (DEPRECATED in change detection); repeating it changes nothing" })
  deprecateProduct(@Arg("input", () => DeprecateProductInput, { description: "The product" }) input: DeprecateProductInput, @Ctx() ctx: CatalogueContext) {
    return payloadOf(async () => {
      const { supplierId, productId } = await addressed(ctx, input);
      return { product: await productService.setDeprecated(ctx, supplierId, productId, true) };
    }, PRODUCT_FIELDS);
  }

  @Mutation(() => UndeprecateProductPayload, { description: "Ends the product's deprecation (UNDEPRECATED in change detection); repeating it changes nothing" })
  undeprecateProduct(@Arg("input", () => UndeprecateProductInput, { description: "The product" }) input: UndeprecateProductInput, @Ctx() ctx: CatalogueContext) {
    return payloadOf(async () => {
      const { supplierId, productId } = await addressed(ctx, input);
      return { product: await productService.setDeprecated(ctx, supplierId, productId, false) };
    }, PRODUCT_FIELDS);
  }

  @FieldResolver(() => [[TaxonomyNode]], { description: "Taxonomy paths: [level 1, level 2] for each subcategory, [level 1] for a category alone" })
  async taxonomies(@Root() product: Product, @Ctx() ctx: CatalogueContext): Promise<TaxonomyNode[][]> {
    const [linked, nodes] = await Promise.all([ctx.loaders.productTaxonomyNodes.load(product.legacyResourceId), ctx.loaders.taxonomy()]);
    return taxonomyPaths(linked, nodes);
  }

  @FieldResolver(() => [LanguageCodeScalar], { description: "The languages of its title" })
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
    @Arg("externalClientId", () => String, { nullable: true, description: "The caller's own id of its client, appended to booking links (spec 3)" }) externalClientId: string | null,
    @Ctx() ctx: CatalogueContext,
  ): string | null {
    return bookingLink(product.bookingUrl?.translations ?? null, ctx.languages, externalClientId);
  }

  @FieldResolver(() => JSONObjectScalar, {
    description:
      "Spec 3's consumer product record as one JSON object, texts in the caller's language: what the REST consumer paths answer, without a resolver per field. Untyped by design: the product's own fields hold the same, typed",
  })
  consumerRecord(
    @Root() product: Product,
    @Arg("externalClientId", () => String, { nullable: true, description: "The caller's own id of its client, appended to booking links (spec 3)" }) externalClientId: string | null | undefined,
    @Ctx() ctx: CatalogueContext,
  ): Promise<ConsumerRecord> {
    return consumerRecord(ctx, product, externalClientId ?? null);
  }

  @FieldResolver(() => ID, { nullable: true, description: "A per-call id for this product, when the caller's organisation has the trackingId feature (null otherwise)" })
  async trackingId(@Root() product: Product, @Ctx() ctx: CatalogueContext): Promise<string | null> {
    const id = await ctx.loaders.trackingId.load(product.legacyResourceId);
    return id === null ? null : String(id);
  }

  @FieldResolver(() => Money, { nullable: true, description: "Its lowest price" })
  minPrice(@Root() product: Product): Money | null {
    return statedMoney(product.minPrice, product.priceCurrency);
  }

  @FieldResolver(() => Money, { nullable: true, description: "Its highest price, not below minPrice" })
  maxPrice(@Root() product: Product): Money | null {
    return statedMoney(product.maxPrice, product.priceCurrency);
  }

  @FieldResolver(() => Money, { nullable: true, description: "Its average price (restaurants: the average meal price)" })
  averagePrice(@Root() product: Product): Money | null {
    return statedMoney(product.averagePrice, product.priceCurrency);
  }

  @FieldResolver(() => Money, { nullable: true, description: "First adult retail price: exact for agents, recommended for resellers" })
  retailPrice(@Root() product: Product): Money | null {
    return statedMoney(product.minPrice, product.priceCurrency);
  }

  @FieldResolver(() => ProductCommissionTerms, { nullable: true, description: "The commission its partner states; null when it states none" })
  commissionTerms(@Root() product: Product): ProductCommissionTerms | null {
    if (product.estCommNet === null && product.estCommFrpricePerc === null) return null;
    const decimal = (value: number | null) => (value === null ? null : decimalOf(value));
    return { netCommission: decimal(product.estCommNet), commissionRate: decimal(product.estCommFrpricePerc) };
  }

  @FieldResolver(() => DecimalScalar, { nullable: true, description: 'Agent model only: the commission as a share of the retail price, 0 to 1: "0.2"' })
  async estimatedCommissionRate(@Root() product: Product, @Ctx() ctx: CatalogueContext): Promise<string | null> {
    const rate = (await callerModel(ctx)) === "AGENT" ? commissionRate(product) : null;
    return rate === null ? null : decimalOf(rate);
  }

  @FieldResolver(() => Money, { nullable: true, description: "Reseller model only: the estimated net price" })
  async estimatedNetPrice(@Root() product: Product, @Ctx() ctx: CatalogueContext): Promise<Money | null> {
    return (await callerModel(ctx)) === "RESELLER" ? statedMoney(estimatedNetPrice(product), product.priceCurrency) : null;
  }

  @FieldResolver(() => LocalizedText, { nullable: true, description: "Its highlights, one a line" })
  experienceHighlights(@Root() product: Product): LocalizedText | null {
    return localized(eachText(product.experienceHighlights?.translations, withLineBreaks));
  }

  @FieldResolver(() => AvailabilityPeriods, { nullable: true, description: "When it is open; null: open every day" })
  availabilityPeriods(@Root() product: Product): AvailabilityPeriods | null {
    return typedPeriodsOf(product.availabilityPeriods);
  }

  @FieldResolver(() => Itinerary, { nullable: true, description: "Its route" })
  itinerary(@Root() product: Product): Itinerary | null {
    return typedItineraryOf(product.itinerary);
  }

  @FieldResolver(() => [LanguageBookability], { description: "Per language of its title, by language code: whether it can be booked online in it" })
  onlineBookable(@Root() product: Product): LanguageBookability[] {
    return Object.entries(product.onlineBookable)
      .map(([language, bookable]) => ({ language, bookable }))
      .sort((a, b) => (a.language < b.language ? -1 : 1));
  }

  @FieldResolver(() => Supplier, { description: "The supplier it belongs to" })
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
