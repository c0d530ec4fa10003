import { Arg, Ctx, Int, Query, Resolver } from "type-graphql";
import type { ReportingContext } from "../loaders.js";
import { bookingReportService } from "./booking-report.service.js";
import { BookingReport, BookingReportFilter, BookingReportPage, BookingReportSlice } from "./booking-report.type.js";
import { DEFAULT_LIMIT } from "./report-query.js";

@Resolver(() => BookingReport)
export class BookingReportResolver {
  @Query(() => BookingReportPage, { description: "The caller's booking reports, a page at a time (spec 2, List bookings); ordered by creation unless sort says otherwise" })
  bookingReports(
    @Arg("filter", () => BookingReportFilter, { nullable: true }) filter: BookingReportFilter | null,
    @Arg("offset", () => Int, { defaultValue: 0 }) offset: number,
    @Arg("limit", () => Int, { defaultValue: DEFAULT_LIMIT, description: "1 to 500" }) limit: number,
    @Arg("sort", () => String, { defaultValue: "bookedAt", description: "bookedAt (oldest first) or -bookedAt" }) sort: string,
    @Ctx() ctx: ReportingContext,
  ): Promise<BookingReportPage> {
    return bookingReportService.page(ctx, filter, offset, limit, sort);
  }

  @Query(() => BookingReportSlice, { description: "Every report matching the filters, read in slices after a cursor (exports)" })
  bookingReportExport(
    @Arg("filter", () => BookingReportFilter, { nullable: true }) filter: BookingReportFilter | null,
    @Arg("after", () => String, { nullable: true, description: "nextCursor of the previous slice" }) after: string | null,
    @Arg("first", () => Int, { defaultValue: 1000, description: "1 to 5000" }) first: number,
    @Arg("sort", () => String, { defaultValue: "bookedAt" }) sort: string,
    @Ctx() ctx: ReportingContext,
  ): Promise<BookingReportSlice> {
    return bookingReportService.slice(ctx, filter, after, first, sort);
  }

  @Query(() => BookingReport, { description: "One booking's report (spec 2, Get booking details); NOT_FOUND for another organisation's" })
  bookingReport(@Arg("id", () => String) id: string, @Ctx() ctx: ReportingContext): Promise<BookingReport> {
    return bookingReportService.byId(ctx, id);
  }
}
