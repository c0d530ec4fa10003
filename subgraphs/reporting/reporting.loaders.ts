import DataLoader from "dataloader";
import type { Database } from "../../drizzle/database.js";
import type { SubgraphContext } from "../common/subgraph.context.js";
import { byKey } from "../common/common.loaders.js";
import { bookingReportRepository, type BookingReportRow } from "./booking-report/booking-report.repository.js";

export interface ReportingLoaders {
  bookingReport: DataLoader<string, BookingReportRow | undefined>;
}

export type ReportingContext = SubgraphContext<ReportingLoaders>;

export function reportingLoaders(database: Database): ReportingLoaders {
  return {
    bookingReport: new DataLoader(async (ids) => byKey(ids, await bookingReportRepository.byIds(database.db, ids), (row) => row.bookingId)),
  };
}
