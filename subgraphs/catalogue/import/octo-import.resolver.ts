import { Arg, Ctx, Field, Int, Mutation, ObjectType, Resolver } from "type-graphql";
import { forbidden } from "../../../core/errors.js";
import type { CatalogueContext } from "../loaders.js";
import { managementAccess } from "../management-access.js";
import { importOctoEngine } from "./octo-import.js";

@ObjectType({ description: "A product the catalogue's rules refused during an import; the others were imported" })
export class OctoImportRefusal {
  @Field(() => String, { description: "The OCTO product id" })
  externalId!: string;

  @Field(() => String)
  message!: string;
}

@ObjectType({ description: "What one content import of an OCTO engine did" })
export class OctoImportReport {
  @Field(() => String)
  engine!: string;

  @Field(() => Int, { description: "Our supplier for the engine's OCTO supplier" })
  supplierId!: number;

  @Field(() => Boolean)
  supplierCreated!: boolean;

  @Field(() => Boolean)
  supplierUpdated!: boolean;

  @Field(() => Int, { description: "New products (NEW in change detection)" })
  created!: number;

  @Field(() => Int, { description: "Products whose content changed upstream (UPDATED)" })
  updated!: number;

  @Field(() => Int, { description: "Products whose content did not change: not written" })
  unchanged!: number;

  @Field(() => Int, { description: "Products gone upstream: deprecated (DEPRECATED), never deleted" })
  deprecated!: number;

  @Field(() => Int, { description: "Products back upstream after an earlier import deprecated them (UNDEPRECATED)" })
  undeprecated!: number;

  @Field(() => [OctoImportRefusal])
  refused!: OctoImportRefusal[];
}

@Resolver()
export class OctoImportResolver {
  @Mutation(() => OctoImportReport, {
    description:
      "Imports an OCTO engine's supplier and products now (the worker also does it on a schedule): new products are created, changed ones updated, those gone upstream deprecated. PLATFORM_CATALOG_MANAGEMENT only; one import per engine at a time (CONFLICT with reason IMPORT_RUNNING).",
  })
  async importOctoEngine(@Arg("name", () => String) name: string, @Ctx() ctx: CatalogueContext): Promise<OctoImportReport> {
    // The worker's schedule calls this in its own name; everyone else must be a platform manager.
    if (ctx.caller.service !== "worker") {
      if (!ctx.caller.roles.includes("PLATFORM_CATALOG_MANAGEMENT")) throw forbidden("OCTO engines are imported by PLATFORM_CATALOG_MANAGEMENT accounts");
      await managementAccess(ctx);
    }
    return importOctoEngine(ctx, name);
  }
}
