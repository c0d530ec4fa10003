import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { serialKeyOfGlobalId } from "../../../core/global-id.js";
import { hasAnyRole } from "../../../core/caller.js";
import { forbidden, notFound } from "../../../core/errors.js";
import { platformRoles } from "../../../core/roles.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { managementAccess } from "../management.access.js";
import { bookingEngineRepository, type BookingEngineRow } from "./booking-engine.repository.js";
import { BookingEngineKind } from "../../common/booking-engine.kind.js";
import { BookingEngine, bookingEngineRef, type OctoCapability, OctoEngineSettings, RegisterOctoEngineInput, RegisterOctoEnginePayload } from "./booking-engine.type.js";
import { payloadOf } from "../../common/user.errors.js";
import { OctoRegistrationRefused, registerOctoEngine } from "./octo-engine.service.js";

async function row(ctx: CatalogueContext, engine: BookingEngine): Promise<BookingEngineRow> {
  const found = await ctx.loaders.bookingEngine.load(engine.legacyResourceId);
  if (!found) throw notFound(`Booking engine ${engine.legacyResourceId} not found`);
  return found;
}

/** The engine a global id names, or null: every caller may see every engine. */
export async function bookingEngineOf(ctx: CatalogueContext, id: string): Promise<BookingEngine | null> {
  const key = serialKeyOfGlobalId(id, "BookingEngine");
  const found = key === null ? undefined : await ctx.loaders.bookingEngine.load(key);
  return found ? bookingEngineRef(found.id) : null;
}

@Resolver(() => BookingEngine)
export class BookingEngineResolver {
  @Query(() => [BookingEngine], { description: "Every booking engine products can be booked through, optionally of one adapter kind" })
  async bookingEngines(
    @Ctx() ctx: CatalogueContext,
    @Arg("kind", () => BookingEngineKind, { nullable: true, description: "Only the engines of this kind" }) kind?: BookingEngineKind | null,
  ): Promise<BookingEngine[]> {
    const rows = await bookingEngineRepository.all(ctx.database.db, kind ?? undefined);
    for (const engine of rows) ctx.loaders.bookingEngine.prime(engine.id, engine);
    return rows.map((engine) => bookingEngineRef(engine.id));
  }

  @Query(() => BookingEngine, { nullable: true, description: "One booking engine, or null when the id names none" })
  bookingEngine(@Arg("id", () => ID, { description: "The engine's global id" }) id: string, @Ctx() ctx: CatalogueContext): Promise<BookingEngine | null> {
    return bookingEngineOf(ctx, id);
  }

  @FieldResolver(() => String, { description: "Upper-case identifier shown in catalogue responses" })
  async name(@Root() engine: BookingEngine, @Ctx() ctx: CatalogueContext): Promise<string> {
    return (await row(ctx, engine)).name;
  }

  @FieldResolver(() => BookingEngineKind, { description: "Adapter that talks to it: INVENTORY (the built-in inventory engine) or OCTO (a supplier system speaking OCTO)" })
  async kind(@Root() engine: BookingEngine, @Ctx() ctx: CatalogueContext): Promise<string> {
    return (await row(ctx, engine)).kind;
  }

  @Mutation(() => RegisterOctoEnginePayload, {
    description:
      "Registers a supplier system speaking OCTO as a booking engine, or replaces the URL, key and capabilities of one registered before. The system is asked first (GET /capabilities, GET /supplier with the key given): nothing is saved when it does not answer as OCTO, refuses the key or lacks PRICING. PLATFORM_CATALOG_MANAGEMENT only.",
  })
  async registerOctoEngine(@Arg("input", () => RegisterOctoEngineInput, { description: "The engine and how to reach it" }) input: RegisterOctoEngineInput, @Ctx() ctx: CatalogueContext) {
    if (!ctx.caller.roles.includes("PLATFORM_CATALOG_MANAGEMENT")) throw forbidden("Booking engines are registered by PLATFORM_CATALOG_MANAGEMENT accounts");
    await managementAccess(ctx);
    const { countryCode, ...registration } = input;
    return payloadOf(
      async () => {
        try {
          const { engine } = await registerOctoEngine(ctx.database, ctx.loaders.octo, { ...registration, country: countryCode }, ctx.clock.now());
          ctx.loaders.bookingEngine.prime(engine.id, engine);
          return { bookingEngine: bookingEngineRef(engine.id) };
        } catch (error) {
          throw error instanceof OctoRegistrationRefused ? error.error : error;
        }
      },
      { rename: { country: "countryCode" } },
    );
  }

  @FieldResolver(() => OctoEngineSettings, { nullable: true, description: "How an OCTO engine is reached (PLATFORM_CATALOG_MANAGEMENT and OPERATOR only); null for engines of other kinds" })
  async octo(@Root() engine: BookingEngine, @Ctx() ctx: CatalogueContext): Promise<OctoEngineSettings | null> {
    if (!hasAnyRole(ctx.caller, platformRoles)) throw forbidden(`An engine's connection is shown to ${platformRoles.join(", ")} only`);
    const settings = await ctx.loaders.octoSettings.load(engine.legacyResourceId);
    return settings ? { ...settings, capabilities: settings.capabilities as OctoCapability[] } : null;
  }

  @FieldResolver(() => String, { description: "Display name: ACTIVITIES_INVENTORY reads 'Activities Inventory'" })
  async displayName(@Root() engine: BookingEngine, @Ctx() ctx: CatalogueContext): Promise<string> {
    return engineDisplayName((await row(ctx, engine)).name);
  }
}

/** ACTIVITIES_INVENTORY reads "Activities Inventory". */
export const engineDisplayName = (name: string): string =>
  name
    .split("_")
    .filter(Boolean)
    .map((word) => word[0] + word.slice(1).toLowerCase())
    .join(" ");
