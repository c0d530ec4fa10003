import type { GraphQLSchema } from "graphql";
import { notFound } from "../../core/errors.js";
import { buildFederatedSchema } from "../common/build-subgraph.js";
import { BookingEngineResolver } from "./booking-engine/booking-engine.resolver.js";
import type { BookingContext } from "./loaders.js";

export { bookingLoaders } from "./loaders.js";

/** The booking subgraph: booking engines now; the booking flow steps next. */
export function buildBookingSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema([BookingEngineResolver], {
    BookingEngine: {
      async __resolveReference(reference: { id: number }, ctx: BookingContext) {
        const row = await ctx.loaders.bookingEngine.load(reference.id);
        if (!row) throw notFound(`Booking engine ${reference.id} not found`);
        return row;
      },
    },
  });
}
