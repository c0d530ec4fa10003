import { Arg, Ctx, Field, FieldResolver, ID, InputType, Int, Mutation, ObjectType, Resolver, Root } from "type-graphql";
import { badInput, forbidden, notFound } from "../../../core/errors.js";
import { serialKeyOfGlobalId } from "../../../core/global-id.js";
import { payloadOf, UserError } from "../../common/user.errors.js";
import { BookingEngine, bookingEngineRef } from "../booking-engine/booking-engine.type.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { managementAccess } from "../management.access.js";
import { supplierService } from "../supplier/supplier.service.js";
import { Supplier } from "../supplier/supplier.type.js";
import { importOctoEngine } from "./octo-import.service.js";

@InputType({ description: "The OCTO engine to import: by its global id or by its name, one of the two" })
export class ImportOctoEngineInput {
  @Field(() => ID, { nullable: true, description: "The engine's global id" })
  bookingEngineId?: string | null;

  @Field(() => String, { nullable: true, description: "The engine's name, as registered" })
  bookingEngineName?: string | null;
}

@ObjectType({ description: "A product the catalogue's rules refused during an import; the others were imported" })
export class OctoImportRefusal {
  @Field(() => String, { description: "The supplier system's id of the product" })
  externalId!: string;

  @Field(() => String, { description: "Which rule it broke" })
  message!: string;
}

@ObjectType({ description: "What one content import of an OCTO engine did; every count is of the engine's supplier's products" })
export class OctoImport {
  @Field(() => BookingEngine, { description: "The engine imported" })
  bookingEngine!: BookingEngine;

  /** Read when asked for: the worker's schedule asks for the counts only. */
  supplierKey!: number;

  @Field(() => Boolean, { description: "The engine's OCTO supplier became a new supplier of ours" })
  isSupplierCreated!: boolean;

  @Field(() => Boolean, { description: "Our supplier's fields were changed to the supplier system's" })
  isSupplierUpdated!: boolean;

  @Field(() => Int, { description: "New products (NEW in change detection)" })
  createdProductCount!: number;

  @Field(() => Int, { description: "Products whose content changed upstream (UPDATED)" })
  updatedProductCount!: number;

  @Field(() => Int, { description: "Products whose content did not change: not written" })
  unchangedProductCount!: number;

  @Field(() => Int, { description: "Products gone upstream: deprecated (DEPRECATED), never deleted" })
  deprecatedProductCount!: number;

  @Field(() => Int, { description: "Products back upstream after an earlier import deprecated them (UNDEPRECATED)" })
  undeprecatedProductCount!: number;

  @Field(() => [OctoImportRefusal], { description: "Products not imported, each with the rule it broke" })
  refusedProducts!: OctoImportRefusal[];
}

@ObjectType({ description: "The result of importOctoEngine" })
export class ImportOctoEnginePayload {
  @Field(() => OctoImport, { nullable: true, description: "What the import did; null when refused" })
  octoImport?: OctoImport | null;

  @Field(() => [UserError], { description: "Why the input was refused; empty on success" })
  userErrors!: UserError[];
}

/** The name of the engine the input names: exactly one of its id and its name. */
async function engineNameOf(ctx: CatalogueContext, input: ImportOctoEngineInput): Promise<string> {
  const { bookingEngineId: id, bookingEngineName: name } = input;
  if ((id == null) === (name == null)) {
    throw badInput("Give bookingEngineId or bookingEngineName, one of the two", [{ field: "bookingEngineId", rule: "exclusive", message: "give this or bookingEngineName, one of the two" }]);
  }
  if (name != null) return name;
  const key = serialKeyOfGlobalId(id!, "BookingEngine");
  const engine = key === null ? undefined : await ctx.loaders.bookingEngine.load(key);
  if (!engine) throw notFound("No booking engine has this id");
  return engine.name;
}

@Resolver(() => OctoImport)
export class OctoImportResolver {
  @Mutation(() => ImportOctoEnginePayload, {
    description:
      "Imports an OCTO engine's supplier and products now (the worker also does it on a schedule): new products are created, changed ones updated, those gone upstream deprecated. PLATFORM_CATALOG_MANAGEMENT only; one import per engine at a time (IMPORT_RUNNING). A supplier system that cannot be reached or refuses the service's key fails the operation with SERVICE_UNAVAILABLE.",
  })
  async importOctoEngine(@Arg("input", () => ImportOctoEngineInput, { description: "The engine" }) input: ImportOctoEngineInput, @Ctx() ctx: CatalogueContext) {
    // The worker's schedule calls this in its own name; everyone else must be a platform manager.
    if (ctx.caller.service !== "worker") {
      if (!ctx.caller.roles.includes("PLATFORM_CATALOG_MANAGEMENT")) throw forbidden("OCTO engines are imported by PLATFORM_CATALOG_MANAGEMENT accounts");
      await managementAccess(ctx);
    }
    const notFoundField = input.bookingEngineName != null && input.bookingEngineId == null ? "bookingEngineName" : "bookingEngineId";
    return payloadOf(async () => {
      const engineName = await engineNameOf(ctx, input);
      const report = await importOctoEngine(ctx, engineName);
      const octoImport: OctoImport = {
        bookingEngine: bookingEngineRef(report.engineId),
        supplierKey: report.supplierId,
        isSupplierCreated: report.supplierCreated,
        isSupplierUpdated: report.supplierUpdated,
        createdProductCount: report.created,
        updatedProductCount: report.updated,
        unchangedProductCount: report.unchanged,
        deprecatedProductCount: report.deprecated,
        undeprecatedProductCount: report.undeprecated,
        refusedProducts: report.refused,
      };
      return { octoImport };
    }, { notFound: notFoundField });
  }

  @FieldResolver(() => Supplier, { description: "Our supplier for the engine's OCTO supplier" })
  async supplier(@Root() octoImport: OctoImport, @Ctx() ctx: CatalogueContext): Promise<Supplier> {
    const supplier = await supplierService.visible(ctx, octoImport.supplierKey);
    // Deleted since the import ran.
    if (!supplier) throw notFound("The imported supplier no longer exists");
    return supplier;
  }
}
