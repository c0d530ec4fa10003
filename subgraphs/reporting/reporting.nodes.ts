import { canSeeReport, reportingVisibility, type ReportingVisibility } from "../../core/reporting-visibility.js";
import { isUuid } from "../../core/uuid.js";
import type { NodeType } from "../common/relay/relay.node-type.js";
import { bookingReportRepository } from "./booking-report/booking-report.repository.js";

/** The reporting subgraph's types that `node(id)` finds, as bookingReport(id) shows them. */
export const reportingNodeTypes: NodeType[] = [
  {
    typeName: "BookingReport",
    async visibleKeys({ database, caller }, keys) {
      let visibility: ReportingVisibility;
      try {
        visibility = reportingVisibility(caller);
      } catch {
        // A caller bookingReport(id) refuses sees no report through node(id) either.
        return new Set();
      }
      const rows = await bookingReportRepository.byIds(database.db, keys.filter(isUuid));
      return new Set(rows.filter((row) => canSeeReport(visibility, row)).map((row) => row.bookingId));
    },
  },
];
