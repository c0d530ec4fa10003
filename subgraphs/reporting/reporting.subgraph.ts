import type { GraphQLSchema } from "graphql";
import { buildFederatedSchema } from "../common/subgraph.build.js";
import { notFound } from "../../core/errors.js";
import { BookingReportResolver, bookingReportKey } from "./booking-report/booking-report.resolver.js";
import { bookingReportService } from "./booking-report/booking-report.service.js";
import type { ReportingContext } from "./reporting.loaders.js";
import { ReportingAccessResolver } from "./reporting-access/reporting-access.resolver.js";

export { reportingLoaders } from "./reporting.loaders.js";
/** The reporting subgraph's types that `node(id)` finds. */
export { reportingNodeTypes } from "./reporting.nodes.js";

/** The reporting subgraph: booking reports (spec 2) over its own read model, booking_reports. */
export function buildReportingSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema([ReportingAccessResolver, BookingReportResolver], {
    BookingReport: {
      // References follow the rules of the bookingReport query.
      async __resolveReference(reference: { id: string }, ctx: ReportingContext) {
        const report = await bookingReportService.visible(ctx, bookingReportKey(reference.id));
        if (!report) throw notFound("Booking report not found");
        return report;
      },
    },
  });
}
