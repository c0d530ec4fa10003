import { PagingArgsOf, type PagingArguments } from "../../common/relay/relay.connection.js";
import { Arg, Args, Ctx, ID, Query, Resolver } from "type-graphql";
import { keyOfGlobalId } from "../../../core/global-id.js";
import type { ReportingContext } from "../reporting.loaders.js";
import { bookingReportService, type BookingReportPage } from "./booking-report.service.js";
import { BookingReport, BookingReportConnection, BookingReportFilter, BookingReportOrder } from "./booking-report.type.js";
import { MAX_REPORT_PAGE } from "./booking-report.query.js";

/** The booking id a report's global id names, or null. */
export const bookingReportKey = (id: string): string | null => keyOfGlobalId(id, "BookingReport");

/** The paging arguments of a list of reports. */
const ReportsPaging = PagingArgsOf("reports");

@Resolver(() => BookingReport)
export class BookingReportResolver {
  @Query(() => BookingReportConnection, {
    description: `The caller's booking reports (its organisation's; every organisation's for platform roles), oldest first unless ordered otherwise; at most ${MAX_REPORT_PAGE} a page (20 unless asked). FORBIDDEN without the reporting scope`,
  })
  bookingReports(
    @Ctx() ctx: ReportingContext,
    @Args(() => ReportsPaging) paging: PagingArguments,
    @Arg("filter", () => BookingReportFilter, { nullable: true, description: "Which reports: all the caller may see unless given" }) filter?: BookingReportFilter | null,
    @Arg("orderBy", () => BookingReportOrder, { nullable: true, description: "The order: by BOOKED_AT, ascending, unless given" }) orderBy?: BookingReportOrder | null,
  ): Promise<BookingReportPage> {
    return bookingReportService.page(ctx, filter ?? null, paging, orderBy ?? null);
  }

  @Query(() => BookingReport, { nullable: true, description: "One booking's report; null for an id that names none the caller may see. FORBIDDEN without the reporting scope" })
  bookingReport(@Arg("id", () => ID, { description: "The report's global id" }) id: string, @Ctx() ctx: ReportingContext): Promise<BookingReport | null> {
    return bookingReportService.visible(ctx, bookingReportKey(id));
  }
}
