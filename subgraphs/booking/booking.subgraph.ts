import type { GraphQLSchema } from "graphql";
import { buildFederatedSchema } from "../common/build-subgraph.js";
import { AvailabilityResolver } from "./availability/availability.resolver.js";
import { BookingResolver } from "./booking/booking.resolver.js";
import { bookingService } from "./booking/booking.service.js";
import { BookingReportTerms, BookingReportTermsResolver, reportedBooking } from "./booking-report/booking-report-terms.js";
import { BookingSetupResolver } from "./booking-setup/booking-setup.resolver.js";
import type { BookingContext } from "./loaders.js";
import { webhookReferenceResolvers, WebhookResolver } from "./webhooks/webhook.resolver.js";

export { bookingLoaders } from "./loaders.js";
/** The booking subgraph's types that `node(id)` finds. */
export { webhookNodeTypes as bookingNodeTypes } from "./webhooks/webhook.nodes.js";

/** The booking subgraph: booking setups and the booking flow (spec 2), and the terms of reported bookings. */
export function buildBookingSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema([BookingSetupResolver, AvailabilityResolver, BookingResolver, BookingReportTermsResolver, WebhookResolver], {
    Booking: {
      // Entity references (subscription messages) follow the same rules as the booking query.
      __resolveReference(reference: { id: string }, ctx: BookingContext) {
        return bookingService.byId(ctx, reference.id);
      },
    },
    BookingReport: {
      __resolveReference(reference: { id: string }, ctx: BookingContext) {
        return reportedBooking(ctx, reference.id);
      },
    },
    ...webhookReferenceResolvers,
  }, [BookingReportTerms]);
}
