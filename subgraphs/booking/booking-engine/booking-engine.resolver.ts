import { Arg, Ctx, Int, Query, Resolver } from "type-graphql";
import type { BookingContext } from "../loaders.js";
import { bookingEngineRepository } from "./booking-engine.repository.js";
import { BookingEngine } from "./booking-engine.type.js";

@Resolver()
export class BookingEngineResolver {
  @Query(() => [BookingEngine], { description: "Every booking engine products can be booked through" })
  bookingEngines(@Ctx() ctx: BookingContext): Promise<BookingEngine[]> {
    return bookingEngineRepository.all(ctx.database.db);
  }

  @Query(() => BookingEngine, { nullable: true, description: "One booking engine, or null when the id is unknown" })
  async bookingEngine(@Arg("id", () => Int) id: number, @Ctx() ctx: BookingContext): Promise<BookingEngine | null> {
    return (await ctx.loaders.bookingEngine.load(id)) ?? null;
  }
}
