import { Arg, Ctx, Int, Mutation, Query, Resolver } from "type-graphql";
import { JSONObjectScalar } from "../../common/json-scalars.js";
import type { BookingContext } from "../loaders.js";
import { bookingSetupService } from "./booking-setup.service.js";

@Resolver()
export class BookingSetupResolver {
  @Query(() => JSONObjectScalar, { nullable: true, description: "The product's booking setup for the built-in inventory engine (docs/booking-setup.md)" })
  productBookingSetup(@Arg("supplierId", () => Int) supplierId: number, @Arg("productId", () => Int) productId: number, @Ctx() ctx: BookingContext) {
    return bookingSetupService.get(ctx, supplierId, productId);
  }

  @Mutation(() => JSONObjectScalar, { description: "Replaces the product's booking setup; returns it with defaults filled in" })
  setProductBookingSetup(
    @Arg("supplierId", () => Int) supplierId: number,
    @Arg("productId", () => Int) productId: number,
    @Arg("setup", () => JSONObjectScalar) setup: Record<string, unknown>,
    @Ctx() ctx: BookingContext,
  ) {
    return bookingSetupService.set(ctx, supplierId, productId, setup);
  }

  @Mutation(() => Boolean, { description: "Takes the product out of the booking flow; existing bookings are kept" })
  removeProductBookingSetup(@Arg("supplierId", () => Int) supplierId: number, @Arg("productId", () => Int) productId: number, @Ctx() ctx: BookingContext) {
    return bookingSetupService.remove(ctx, supplierId, productId);
  }
}
