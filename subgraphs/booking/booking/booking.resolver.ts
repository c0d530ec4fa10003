import { Arg, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { BookingContext } from "../loaders.js";
import { bookingService } from "./booking.service.js";
import { availabilityKey } from "../availability/availability.resolver.js";
import { AnswerInput, Booking, CancelBookingResult, CreateBookingInput, VoucherDocument } from "./booking.type.js";

@Resolver(() => Booking)
export class BookingResolver {
  @Query(() => Booking, { description: "Steps 5a and 7: the booking, at any time after creation" })
  booking(@Arg("id", () => String) id: string, @Ctx() ctx: BookingContext): Promise<Booking> {
    return bookingService.byId(ctx, id);
  }

  @Mutation(() => Booking, { description: "Step 4: books an availability (ON_HOLD); the same resellerRef and availability give the same booking" })
  createBooking(@Arg("input", () => CreateBookingInput) input: CreateBookingInput, @Ctx() ctx: BookingContext): Promise<Booking> {
    return bookingService.create(ctx, { ...input, availabilityId: availabilityKey(input.availabilityId) });
  }

  @Mutation(() => Booking, { description: "Step 5b: the full list of answers known so far" })
  answerBookingQuestions(
    @Arg("bookingId", () => String) bookingId: string,
    @Arg("answers", () => [AnswerInput]) answers: AnswerInput[],
    @Ctx() ctx: BookingContext,
  ): Promise<Booking> {
    return bookingService.answer(ctx, bookingId, answers);
  }

  @Mutation(() => Booking, { description: "Step 6, after payment: PENDING_CONFIRM and PAID; the supplier confirms seconds later" })
  confirmBooking(
    @Arg("bookingId", () => String) bookingId: string,
    @Arg("externalClientId", () => String, { nullable: true }) externalClientId: string | null,
    @Ctx() ctx: BookingContext,
  ): Promise<Booking> {
    return bookingService.confirm(ctx, bookingId, externalClientId);
  }

  @Mutation(() => CancelBookingResult, { description: "Cancels under the cancellation tier in force" })
  cancelBooking(
    @Arg("bookingId", () => String) bookingId: string,
    @Arg("reason", () => String, { nullable: true }) reason: string | null,
    @Ctx() ctx: BookingContext,
  ): Promise<CancelBookingResult> {
    return bookingService.cancel(ctx, bookingId, reason);
  }

  @Query(() => VoucherDocument, { description: "The voucher PDF behind a signed voucher link" })
  bookingVoucher(
    @Arg("bookingId", () => String) bookingId: string,
    @Arg("expires", () => String) expires: string,
    @Arg("signature", () => String) signature: string,
    @Ctx() ctx: BookingContext,
  ): Promise<VoucherDocument> {
    return bookingService.voucher(ctx, bookingId, expires, signature);
  }
}
