import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { serialKeyOfGlobalId } from "../../../core/global-id.js";
import { countryNames } from "../../../core/iso-codes.js";
import { type Connection, OrderDirection, PagingArgsOf, type PagingArguments } from "../../common/relay/relay.connection.js";
import { payloadOf, type InputFields } from "../../common/user.errors.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { MAX_SUPPLIER_PRODUCTS_PAGE, productService } from "../product/product.service.js";
import { ProductConnection, SupplierProductFilter, SupplierProductOrder, SupplierProductOrderField, type Product } from "../product/product.type.js";
import type { SupplierRequest } from "./supplier.rules.js";
import { MAX_SUPPLIER_PAGE, supplierService } from "./supplier.service.js";
import {
  CreateSupplierInput,
  CreateSupplierPayload,
  DeleteSupplierInput,
  DeleteSupplierPayload,
  Supplier,
  SupplierConnection,
  supplierId,
  supplierKey,
  SupplierOrder,
  SupplierOrderField,
  UpdateSupplierInput,
  UpdateSupplierPayload,
} from "./supplier.type.js";

/** The service's names of the input's fields (spec 1's), as the graph names them. */
const SUPPLIER_FIELDS: InputFields = { rename: { country: "countryCode", supplierContact: "contact", bookingEngine: "bookingEngineId" }, notFound: "supplierId" };

/** The graph's input as the service's request: spec 1's field names, the engine by its number (0: an id that names none). */
const supplierRequest = ({ countryCode, contact, bookingEngineId, ...fields }: CreateSupplierInput): SupplierRequest => ({
  ...fields,
  country: countryCode,
  supplierContact: contact,
  bookingEngine: bookingEngineId == null ? bookingEngineId : (serialKeyOfGlobalId(bookingEngineId, "BookingEngine") ?? 0),
});

const DEFAULT_ORDER: SupplierOrder = { field: SupplierOrderField.ID, direction: OrderDirection.ASC };
const DEFAULT_SUPPLIER_PRODUCT_ORDER: SupplierProductOrder = { field: SupplierProductOrderField.ID, direction: OrderDirection.ASC };

/** The paging arguments of a list of products. */
const ProductsPaging = PagingArgsOf("products");

/** The paging arguments of a list of suppliers. */
const SuppliersPaging = PagingArgsOf("suppliers");

@Resolver(() => Supplier)
export class SupplierResolver {
  @Query(() => Supplier, { nullable: true, description: "One supplier of a booking engine the caller manages; null for an id that names none of those" })
  supplier(@Arg("id", () => ID, { description: "The supplier's global id" }) id: string, @Ctx() ctx: CatalogueContext): Promise<Supplier | null> {
    return supplierService.visible(ctx, supplierKey(id));
  }

  @Query(() => SupplierConnection, { description: `The live suppliers of a booking engine the caller manages, by number unless ordered otherwise; at most ${MAX_SUPPLIER_PAGE} a page (20 unless asked)` })
  suppliers(
    @Arg("bookingEngineName", () => String, { description: "The booking engine's name: a content partner's own; any for PLATFORM_CATALOG_MANAGEMENT" }) bookingEngineName: string,
    @Ctx() ctx: CatalogueContext,
    @Args(() => SuppliersPaging) paging: PagingArguments,
    @Arg("orderBy", () => SupplierOrder, { nullable: true, description: "The order: by number, ascending, unless given" }) orderBy?: SupplierOrder | null,
  ): Promise<Connection<Supplier>> {
    return supplierService.page(ctx, bookingEngineName, paging, orderBy ?? DEFAULT_ORDER);
  }

  @Mutation(() => CreateSupplierPayload, { description: "Adds a supplier to a booking engine: the caller's own, or the one named (PLATFORM_CATALOG_MANAGEMENT)" })
  createSupplier(@Arg("input", () => CreateSupplierInput, { description: "The new supplier" }) input: CreateSupplierInput, @Ctx() ctx: CatalogueContext) {
    return payloadOf(async () => ({ supplier: await supplierService.create(ctx, supplierRequest(input)) }), SUPPLIER_FIELDS);
  }

  @Mutation(() => UpdateSupplierPayload, { description: "Replaces the supplier's fields (one not given becomes unset); updatedAt changes. Its booking engine cannot change" })
  updateSupplier(@Arg("input", () => UpdateSupplierInput, { description: "The supplier and its new fields" }) input: UpdateSupplierInput, @Ctx() ctx: CatalogueContext) {
    const { supplierId: id, ...fields } = input;
    return payloadOf(async () => ({ supplier: await supplierService.update(ctx, supplierKey(id) ?? 0, supplierRequest(fields)) }), SUPPLIER_FIELDS);
  }

  @Mutation(() => DeleteSupplierPayload, { description: "Permanent: the supplier and its products leave the catalogue (change detection reports the products DELETED)" })
  deleteSupplier(@Arg("input", () => DeleteSupplierInput, { description: "The supplier to delete" }) input: DeleteSupplierInput, @Ctx() ctx: CatalogueContext) {
    return payloadOf(async () => {
      const deleted = await supplierService.delete(ctx, supplierKey(input.supplierId) ?? 0);
      return { deletedSupplierId: supplierId(deleted.id), deletedProductCount: deleted.deletedProducts };
    }, SUPPLIER_FIELDS);
  }

  @FieldResolver(() => String, { nullable: true, description: "The country's name in the caller's language" })
  countryName(@Root() supplier: Supplier, @Ctx() ctx: CatalogueContext): string | null {
    const names = countryNames(supplier.countryCode, ctx.languages);
    return ctx.languages.map((language) => names[language]).find(Boolean) ?? null;
  }

  @FieldResolver(() => Boolean, { description: "True when at least one of its products can be booked online" })
  isOnlineBookable(@Root() supplier: Supplier, @Ctx() ctx: CatalogueContext): Promise<boolean> {
    return ctx.loaders.supplierOnlineBookable.load(supplier.legacyResourceId);
  }

  @FieldResolver(() => ProductConnection, {
    description: `The supplier's live products (deprecated ones included), by number unless ordered otherwise; at most ${MAX_SUPPLIER_PRODUCTS_PAGE} a page (20 unless asked)`,
  })
  products(
    @Root() supplier: Supplier,
    @Ctx() ctx: CatalogueContext,
    @Args(() => ProductsPaging) paging: PagingArguments,
    @Arg("filter", () => SupplierProductFilter, { nullable: true, description: "Only the products that match" }) filter?: SupplierProductFilter | null,
    @Arg("orderBy", () => SupplierProductOrder, { nullable: true, description: "The order: by number, ascending, unless given" }) orderBy?: SupplierProductOrder | null,
  ): Promise<Connection<Product>> {
    return productService.pageOfSupplier(ctx, supplier.legacyResourceId, filter ?? {}, paging, orderBy ?? DEFAULT_SUPPLIER_PRODUCT_ORDER);
  }
}
