import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { keyOfGlobalId } from "../../../core/global-id.js";
import { payloadOf } from "../../common/user.errors.js";
import { availabilityKey } from "../availability/availability.resolver.js";
import type { BookingContext } from "../booking.loaders.js";
import { bookingService } from "./booking.service.js";
import {
  AnswerBookingQuestionsInput,
  AnswerBookingQuestionsPayload,
  Booking,
  CancelBookingInput,
  CancelBookingPayload,
  ConfirmBookingInput,
  ConfirmBookingPayload,
  CreateBookingInput,
  CreateBookingPayload,
  VoucherDocument,
} from "./booking.type.js";

/** An id of another type, or no id at all, names nothing: an empty key, which no row has. */
export const bookingKey = (id: string) => keyOfGlobalId(id, "Booking") ?? "";

const BOOKING_INPUT = { notFound: "bookingId" };

@Resolver(() => Booking)
export class BookingResolver {
  @Query(() => Booking, {
    nullable: true,
    description: "Steps 5a and 7: the booking, at any time after it was made; null for an id that names none. Another organisation's booking is refused with FORBIDDEN (errorCode 6501), as the flow's contract answers it",
  })
  booking(@Arg("id", () => ID, { description: "The booking's global id" }) id: string, @Ctx() ctx: BookingContext): Promise<Booking | null> {
    return bookingService.byId(ctx, bookingKey(id));
  }

  @Mutation(() => CreateBookingPayload, { description: "Step 4: books an availability (ON_HOLD); the same resellerRef and availability give the same booking" })
  createBooking(@Arg("input", () => CreateBookingInput, { description: "The availability and the client's references" }) input: CreateBookingInput, @Ctx() ctx: BookingContext) {
    return payloadOf(async () => ({ booking: await bookingService.create(ctx, { ...input, availabilityId: availabilityKey(input.availabilityId) }) }), { notFound: "availabilityId" });
  }

  @Mutation(() => AnswerBookingQuestionsPayload, { description: "Step 5b: every answer known so far; follow-ups appear and vanish with their parents' answers" })
  answerBookingQuestions(@Arg("input", () => AnswerBookingQuestionsInput, { description: "The booking and its answers" }) input: AnswerBookingQuestionsInput, @Ctx() ctx: BookingContext) {
    const answers = input.answers.map(({ questionId, value }) => ({ id: questionId, value }));
    return payloadOf(async () => ({ booking: await bookingService.answer(ctx, bookingKey(input.bookingId), answers) }), { ...BOOKING_INPUT, rename: { id: "questionId" } });
  }

  @Mutation(() => ConfirmBookingPayload, { description: "Step 6, after payment: PENDING_CONFIRM and PAID; the supplier confirms seconds later (bookingStatusChanged tells when)" })
  confirmBooking(@Arg("input", () => ConfirmBookingInput, { description: "The booking paid for" }) input: ConfirmBookingInput, @Ctx() ctx: BookingContext) {
    return payloadOf(async () => ({ booking: await bookingService.confirm(ctx, bookingKey(input.bookingId), input.externalClientId ?? null) }), BOOKING_INPUT);
  }

  @Mutation(() => CancelBookingPayload, { description: "Cancels under the refund tier in force" })
  cancelBooking(@Arg("input", () => CancelBookingInput, { description: "The booking and why" }) input: CancelBookingInput, @Ctx() ctx: BookingContext) {
    return payloadOf(async () => ({ cancellation: await bookingService.cancel(ctx, bookingKey(input.bookingId), input.reason ?? null) }), { ...BOOKING_INPUT, rename: { cancellationReason: "reason" } });
  }

  @Query(() => VoucherDocument, { description: "The voucher PDF behind a signed voucher link" })
  bookingVoucher(
    @Arg("bookingId", () => ID, { description: "The booking's global id" }) bookingId: string,
    @Arg("expires", () => String, { description: "The link's expiry, as it carries it" }) expires: string,
    @Arg("signature", () => String, { description: "The link's signature" }) signature: string,
    @Ctx() ctx: BookingContext,
  ): Promise<VoucherDocument> {
    return bookingService.voucher(ctx, bookingKey(bookingId), expires, signature);
  }
}
