import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from "type-graphql";
import { notFound } from "../../../core/errors.js";
import type { CatalogueContext } from "../loaders.js";
import { bookingEngineRepository, type BookingEngineRow } from "./booking-engine.repository.js";
import { BookingEngine, BookingEngineKind } from "./booking-engine.type.js";

async function row(ctx: CatalogueContext, engine: BookingEngine): Promise<BookingEngineRow> {
  const found = await ctx.loaders.bookingEngine.load(engine.id);
  if (!found) throw notFound(`Booking engine ${engine.id} not found`);
  return found;
}

@Resolver(() => BookingEngine)
export class BookingEngineResolver {
  @Query(() => [BookingEngine], { description: "Every booking engine products can be booked through, optionally of one adapter kind" })
  async bookingEngines(
    @Ctx() ctx: CatalogueContext,
    @Arg("kind", () => BookingEngineKind, { nullable: true }) kind?: BookingEngineKind | null,
  ): Promise<BookingEngine[]> {
    const rows = await bookingEngineRepository.all(ctx.database.db, kind ?? undefined);
    for (const engine of rows) ctx.loaders.bookingEngine.prime(engine.id, engine);
    return rows;
  }

  @Query(() => BookingEngine, { nullable: true, description: "One booking engine, or null when the id is unknown" })
  async bookingEngine(@Arg("id", () => Int) id: number, @Ctx() ctx: CatalogueContext): Promise<BookingEngine | null> {
    return (await ctx.loaders.bookingEngine.load(id)) ?? null;
  }

  @FieldResolver(() => String, { description: "Upper-case identifier shown in catalogue responses" })
  async name(@Root() engine: BookingEngine, @Ctx() ctx: CatalogueContext): Promise<string> {
    return (await row(ctx, engine)).name;
  }

  @FieldResolver(() => BookingEngineKind, { description: "Adapter that talks to it: INVENTORY (the built-in inventory engine)" })
  async kind(@Root() engine: BookingEngine, @Ctx() ctx: CatalogueContext): Promise<string> {
    return (await row(ctx, engine)).kind;
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
