import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { keyOfGlobalId, serialKeyOfGlobalId } from "../../../core/global-id.js";
import { DateScalar } from "../../common/common.scalars.js";
import { payloadOf } from "../../common/user.errors.js";
import type { BookingContext } from "../booking.loaders.js";
import { availabilityService } from "./availability.service.js";
import { Availability, CreateAvailabilityInput, CreateAvailabilityPayload, PriceAvailabilityInput, PriceAvailabilityPayload, SetAvailabilityOptionInput, SetAvailabilityOptionPayload, SetAvailabilityQuantitiesInput, SetAvailabilityQuantitiesPayload } from "./availability.type.js";

/** An id of another type, or no id at all, names nothing: an empty key, which no row has. */
export const availabilityKey = (id: string) => keyOfGlobalId(id, "Availability") ?? "";

const AVAILABILITY_INPUT = { notFound: "availabilityId" };

/** The number a product's global id names; 0, which no product has, for anything else (NOT_FOUND). */
const productNumber = (id: string): number => serialKeyOfGlobalId(id, "Product") ?? 0;
/** A step's optional product: not given, or the number it names. */
const precondition = (id: string | null | undefined): number | null => (id == null ? null : productNumber(id));

@Resolver(() => Availability)
export class AvailabilityResolver {
  @Query(() => [DateScalar], { description: "Step 1: the dates with places between startDate and endDate, in order (default: the 31 days from today; a range covers at most 366 days)" })
  availableDates(
    @Arg("productId", () => ID, { description: "The product's global id" }) productId: string,
    @Arg("startDate", () => DateScalar, { nullable: true, description: "The first day, inclusive; today when not given" }) startDate: string | null | undefined,
    @Arg("endDate", () => DateScalar, { nullable: true, description: "The last day, inclusive; 30 days after startDate when not given" }) endDate: string | null | undefined,
    @Ctx() ctx: BookingContext,
  ): Promise<string[]> {
    // Left out (undefined) and given as null both mean "not given".
    return availabilityService.dates(ctx, productNumber(productId), startDate ?? null, endDate ?? null);
  }

  @Query(() => [DateScalar], { description: "Step 1 alternative: the first month with dates within a year, from its first date to the month's end; empty when none" })
  nextAvailableDates(@Arg("productId", () => ID, { description: "The product's global id" }) productId: string, @Ctx() ctx: BookingContext): Promise<string[]> {
    return availabilityService.nextDates(ctx, productNumber(productId));
  }

  @Mutation(() => CreateAvailabilityPayload, { description: "Step 2a: makes an availability for a date and offers its first option level; it can be worked on for an hour" })
  createAvailability(@Arg("input", () => CreateAvailabilityInput, { description: "The product and date" }) input: CreateAvailabilityInput, @Ctx() ctx: BookingContext) {
    return payloadOf(async () => ({ availability: await availabilityService.create(ctx, productNumber(input.productId), input.date) }), { notFound: "productId" });
  }

  @Mutation(() => SetAvailabilityOptionPayload, { description: "Step 2b: sets one option; the next level comes back" })
  setAvailabilityOption(@Arg("input", () => SetAvailabilityOptionInput, { description: "The option and its value" }) input: SetAvailabilityOptionInput, @Ctx() ctx: BookingContext) {
    return payloadOf(async () => ({ availability: await availabilityService.setOption(ctx, precondition(input.productId), availabilityKey(input.availabilityId), input.optionId, input.value) }), AVAILABILITY_INPUT);
  }

  @Mutation(() => PriceAvailabilityPayload, { description: "Step 3a: the ticket types in a currency (EUR unless given), which then holds to the end of the flow" })
  priceAvailability(@Arg("input", () => PriceAvailabilityInput, { description: "The availability and currency" }) input: PriceAvailabilityInput, @Ctx() ctx: BookingContext) {
    return payloadOf(async () => ({ availability: await availabilityService.prices(ctx, precondition(input.productId), availabilityKey(input.availabilityId), input.currencyCode ?? null) }), AVAILABILITY_INPUT);
  }

  @Mutation(() => SetAvailabilityQuantitiesPayload, { description: "Step 3b: sets ticket quantities (absolute values); nothing changes when one is refused" })
  setAvailabilityQuantities(@Arg("input", () => SetAvailabilityQuantitiesInput, { description: "The availability and the new quantities" }) input: SetAvailabilityQuantitiesInput, @Ctx() ctx: BookingContext) {
    const changes = input.quantities.map(({ unitId, quantity }) => ({ unitId, value: quantity }));
    return payloadOf(
      async () => ({ availability: await availabilityService.setQuantities(ctx, precondition(input.productId), availabilityKey(input.availabilityId), input.currencyCode ?? null, changes) }),
      { ...AVAILABILITY_INPUT, list: "quantities", rename: { value: "quantity" } },
    );
  }
}
