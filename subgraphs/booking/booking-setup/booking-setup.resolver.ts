import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { serialKeyOfGlobalId } from "../../../core/global-id.js";
import { payloadOf, type InputFields } from "../../common/user.errors.js";
import type { BookingContext } from "../booking.loaders.js";
import { bookingSetupService, type ProductBookingSetupState, type SetupAddress } from "./booking-setup.service.js";
import {
  ProductBookingSetup,
  RemoveProductBookingSetupInput,
  RemoveProductBookingSetupPayload,
  SetProductBookingSetupInput,
  SetProductBookingSetupPayload,
  type BookingSetup,
} from "./booking-setup.type.js";
import { setupAnswerOf } from "./booking-setup.document.js";

/** The graph's refund is a rate where the document's is a percentage: its faults are named by the input's field. */
const SETUP_INPUT: InputFields = { notFound: "productId", rename: { refundPercentage: "refundRate" } };

/** The product and supplier numbers an input names; 0, which nothing has, for an id of anything else (NOT_FOUND). */
const addressOf = (productId: string, supplierId: string | null | undefined): SetupAddress => ({
  productId: serialKeyOfGlobalId(productId, "Product") ?? 0,
  supplierId: supplierId == null ? null : (serialKeyOfGlobalId(supplierId, "Supplier") ?? 0),
});

const answerOf = (state: ProductBookingSetupState): ProductBookingSetup => ({
  product: { legacyResourceId: state.productId },
  bookingEngineKind: state.bookingEngineKind,
  setup: state.setup && (setupAnswerOf(state.setup) as BookingSetup),
});

@Resolver()
export class BookingSetupResolver {
  @Query(() => ProductBookingSetup, {
    nullable: true,
    description: "A product as its booking setup is managed (docs/booking-setup.md); null for a product that does not exist or that the caller does not manage",
  })
  async productBookingSetup(
    @Arg("productId", () => ID, { description: "The product's global id" }) productId: string,
    @Ctx() ctx: BookingContext,
    @Arg("supplierId", () => ID, { nullable: true, description: "The product's supplier, as a precondition: another supplier's product answers null" }) supplierId?: string | null,
  ): Promise<ProductBookingSetup | null> {
    const state = await bookingSetupService.get(ctx, addressOf(productId, supplierId));
    return state && answerOf(state);
  }

  @Mutation(() => SetProductBookingSetupPayload, { description: "Replaces the product's booking setup, making it bookable through the flow; bookings already made keep theirs" })
  setProductBookingSetup(@Arg("input", () => SetProductBookingSetupInput, { description: "The product and its new setup" }) input: SetProductBookingSetupInput, @Ctx() ctx: BookingContext) {
    return payloadOf(async () => ({ productBookingSetup: answerOf(await bookingSetupService.set(ctx, addressOf(input.productId, input.supplierId), input.setup)) }), SETUP_INPUT);
  }

  @Mutation(() => RemoveProductBookingSetupPayload, { description: "Takes the product out of the booking flow; bookings already made are kept" })
  removeProductBookingSetup(@Arg("input", () => RemoveProductBookingSetupInput, { description: "The product" }) input: RemoveProductBookingSetupInput, @Ctx() ctx: BookingContext) {
    return payloadOf(async () => ({ productBookingSetup: answerOf(await bookingSetupService.remove(ctx, addressOf(input.productId, input.supplierId))) }), SETUP_INPUT);
  }
}
