import type { GraphQLSchema } from "graphql";
import { buildFederatedSchema } from "../common/subgraph.build.js";
import { availabilityKey, AvailabilityResolver } from "./availability/availability.resolver.js";
import { availabilityService } from "./availability/availability.service.js";
import { bookingKey, BookingResolver } from "./booking/booking.resolver.js";
import { bookingService } from "./booking/booking.service.js";
import { BookingReportTerms, BookingReportTermsResolver, reportedBooking } from "./booking-report/booking-report.terms.js";
import { BookingSetupResolver } from "./booking-setup/booking-setup.resolver.js";
import type { BookingContext } from "./booking.loaders.js";
import { webhookReferenceResolvers, WebhookResolver } from "./webhooks/webhook.resolver.js";

export { bookingLoaders } from "./booking.loaders.js";
export { bookingNodeTypes } from "./booking.nodes.js";

/** The booking subgraph: booking setups and the booking flow (spec 2), and the terms of reported bookings. */
export function buildBookingSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema([BookingSetupResolver, AvailabilityResolver, BookingResolver, BookingReportTermsResolver, WebhookResolver], {
    Booking: {
      // Entity references (subscription messages) follow the same rules as the booking query.
      __resolveReference(reference: { id: string }, ctx: BookingContext) {
        return bookingService.byId(ctx, bookingKey(reference.id));
      },
    },
    Availability: {
      __resolveReference(reference: { id: string }, ctx: BookingContext) {
        return availabilityService.visible(ctx, availabilityKey(reference.id));
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
