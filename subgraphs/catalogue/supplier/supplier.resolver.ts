import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { CatalogueContext } from "../loaders.js";
import { countryNames } from "../../../core/iso-codes.js";
import { DEFAULT_NESTED_PRODUCTS, MAX_NESTED_PRODUCTS, productService } from "../product/product.service.js";
import { Product, ProductFilterInput } from "../product/product.type.js";
import { supplierService } from "./supplier.service.js";
import { DeletedSupplier, Supplier, SupplierInput, SupplierPage } from "./supplier.type.js";

@Resolver(() => Supplier)
export class SupplierResolver {
  @Query(() => Supplier, { description: "One supplier of a booking engine the caller manages" })
  supplier(@Arg("id", () => Int) id: number, @Ctx() ctx: CatalogueContext): Promise<Supplier> {
    return supplierService.get(ctx, id);
  }

  @Query(() => SupplierPage, { description: "The live suppliers of a booking engine, by id" })
  suppliers(
    @Arg("bookingEngineName", () => String) bookingEngineName: string,
    @Arg("pageNumber", () => Int, { defaultValue: 1 }) pageNumber: number,
    @Arg("resultsPerPage", () => Int, { defaultValue: 100 }) resultsPerPage: number,
    @Ctx() ctx: CatalogueContext,
  ): Promise<SupplierPage> {
    return supplierService.list(ctx, bookingEngineName, pageNumber, resultsPerPage);
  }

  @Mutation(() => Supplier)
  createSupplier(@Arg("input", () => SupplierInput) input: SupplierInput, @Ctx() ctx: CatalogueContext): Promise<Supplier> {
    return supplierService.create(ctx, input);
  }

  @Mutation(() => Supplier, { description: "Replaces the supplier's fields; updateDate changes" })
  updateSupplier(@Arg("id", () => Int) id: number, @Arg("input", () => SupplierInput) input: SupplierInput, @Ctx() ctx: CatalogueContext): Promise<Supplier> {
    return supplierService.update(ctx, id, input);
  }

  @Mutation(() => DeletedSupplier, { description: "Permanent: the supplier and its products leave the catalogue" })
  deleteSupplier(@Arg("id", () => Int) id: number, @Ctx() ctx: CatalogueContext): Promise<DeletedSupplier> {
    return supplierService.delete(ctx, id);
  }

  @FieldResolver(() => String, { nullable: true, description: "The country's name in the caller's language" })
  countryName(@Root() supplier: Supplier, @Ctx() ctx: CatalogueContext): string | null {
    const names = countryNames(supplier.country, ctx.languages);
    return ctx.languages.map((language) => names[language]).find(Boolean) ?? null;
  }

  @FieldResolver(() => Boolean, { description: "True when at least one of its products can be booked online" })
  onlineBookable(@Root() supplier: Supplier, @Ctx() ctx: CatalogueContext): Promise<boolean> {
    return ctx.loaders.supplierOnlineBookable.load(supplier.id);
  }

  @FieldResolver(() => [Product], { description: "The supplier's first live products (deprecated ones included), by id; `supplierProducts` lists them all" })
  products(
    @Root() supplier: Supplier,
    @Arg("filter", () => ProductFilterInput, { nullable: true }) filter: ProductFilterInput | null,
    @Arg("first", () => Int, { defaultValue: DEFAULT_NESTED_PRODUCTS, description: `1 to ${MAX_NESTED_PRODUCTS}` }) first: number,
    @Ctx() ctx: CatalogueContext,
  ): Promise<Product[]> {
    return productService.listOfSupplier(ctx, supplier.id, filter ?? {}, { first, max: MAX_NESTED_PRODUCTS });
  }
}
