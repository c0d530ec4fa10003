import { Arg, Ctx, Int, Mutation, Query, Resolver } from "type-graphql";
import type { BookingContext } from "../loaders.js";
import { availabilityService } from "./availability.service.js";
import { Availability, AvailabilityDates, UnitQuantityInput } from "./availability.type.js";

@Resolver(() => Availability)
export class AvailabilityResolver {
  @Query(() => AvailabilityDates, { description: "Step 1: dates with places between startDate and endDate (default: the 31 days from today)" })
  async availabilityDates(
    @Arg("productId", () => Int) productId: number,
    @Arg("startDate", () => String, { nullable: true }) startDate: string | null,
    @Arg("endDate", () => String, { nullable: true }) endDate: string | null,
    @Ctx() ctx: BookingContext,
  ): Promise<AvailabilityDates> {
    return { availabilityDates: await availabilityService.dates(ctx, productId, startDate, endDate) };
  }

  @Query(() => AvailabilityDates, { description: "Step 1 alternative: the first month with dates within a year, to that month's end" })
  async nextAvailabilityDates(@Arg("productId", () => Int) productId: number, @Ctx() ctx: BookingContext): Promise<AvailabilityDates> {
    return { availabilityDates: await availabilityService.nextDates(ctx, productId) };
  }

  @Mutation(() => Availability, { description: "Step 2a: makes an availability for a date and offers its first option level" })
  createAvailability(@Arg("productId", () => Int) productId: number, @Arg("date", () => String) date: string, @Ctx() ctx: BookingContext): Promise<Availability> {
    return availabilityService.create(ctx, productId, date);
  }

  @Mutation(() => Availability, { description: "Step 2b: sets one option; the next level comes back" })
  setAvailabilityOption(
    @Arg("productId", () => Int) productId: number,
    @Arg("availabilityId", () => String) availabilityId: string,
    @Arg("optionId", () => String) optionId: string,
    @Arg("value", () => String) value: string,
    @Ctx() ctx: BookingContext,
  ): Promise<Availability> {
    return availabilityService.setOption(ctx, productId, availabilityId, optionId, value);
  }

  @Mutation(() => Availability, { description: "Step 3a: the tickets in a currency (default EUR), which then holds to the end of the flow" })
  priceAvailability(
    @Arg("productId", () => Int) productId: number,
    @Arg("availabilityId", () => String) availabilityId: string,
    @Arg("currencyCode", () => String, { nullable: true }) currencyCode: string | null,
    @Ctx() ctx: BookingContext,
  ): Promise<Availability> {
    return availabilityService.prices(ctx, productId, availabilityId, currencyCode);
  }

  @Mutation(() => Availability, { description: "Step 3b: sets ticket quantities (absolute values)" })
  setAvailabilityQuantities(
    @Arg("productId", () => Int) productId: number,
    @Arg("availabilityId", () => String) availabilityId: string,
    @Arg("currencyCode", () => String, { nullable: true }) currencyCode: string | null,
    @Arg("quantities", () => [UnitQuantityInput]) quantities: UnitQuantityInput[],
    @Ctx() ctx: BookingContext,
  ): Promise<Availability> {
    return availabilityService.setQuantities(ctx, productId, availabilityId, currencyCode, quantities);
  }
}
