import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from "type-graphql";
import type { BookingContext } from "../loaders.js";
import { bookingEngineRepository } from "./booking-engine.repository.js";
import { BookingEngine, BookingEngineKind } from "./booking-engine.type.js";

@Resolver(() => BookingEngine)
export class BookingEngineResolver {
  @Query(() => [BookingEngine], { description: "Every booking engine products can be booked through, optionally of one adapter kind" })
  bookingEngines(
    @Ctx() ctx: BookingContext,
    @Arg("kind", () => BookingEngineKind, { nullable: true }) kind?: BookingEngineKind | null,
  ): Promise<BookingEngine[]> {
    return bookingEngineRepository.all(ctx.database.db, kind ?? undefined);
  }

  @Query(() => BookingEngine, { nullable: true, description: "One booking engine, or null when the id is unknown" })
  async bookingEngine(@Arg("id", () => Int) id: number, @Ctx() ctx: BookingContext): Promise<BookingEngine | null> {
    return (await ctx.loaders.bookingEngine.load(id)) ?? null;
  }

  @FieldResolver(() => String, { description: "Display name: ACTIVITIES_INVENTORY reads 'Activities Inventory'" })
  displayName(@Root() engine: BookingEngine): string {
    return engine.name
      .split("_")
      .filter(Boolean)
      .map((word) => word[0] + word.slice(1).toLowerCase())
      .join(" ");
  }
}
