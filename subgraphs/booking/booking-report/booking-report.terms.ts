import { Ctx, Directive, Field, FieldResolver, ID, ObjectType, Resolver, Root } from "type-graphql";
import { keyOfGlobalId } from "../../../core/global-id.js";
import { isUuid } from "../../../core/uuid.js";
import { notFound } from "../../../core/errors.js";
import { canSeeReport, reportingVisibility } from "../../../core/reporting-visibility.js";
import type { AvailabilitySetup } from "../availability/availability.view.js";
import { AvailabilityOption } from "../availability/availability.type.js";
import { toAvailability } from "../availability/availability.steps.js";
import { availabilityOfBooking, toCancellation } from "../booking/booking.view.js";
import type { BookingRow } from "../booking/booking.repository.js";
import { CancellationPolicyTier } from "../booking/booking.type.js";
import { cancellationTerms } from "../booking/cancellation.rules.js";
import type { BookingContext } from "../booking.loaders.js";

/**
 * What only the booking subgraph can say about a reported booking: the options chosen, with
 * their labels in the booking's language, and the cancellation terms as of now. The reporting
 * subgraph owns the rest of BookingReport.
 */
@ObjectType("BookingReport")
@Directive('@key(fields: "id")')
export class BookingReportTerms {
  @Field(() => ID, { description: "The global id" }) id!: string;
  row!: BookingRow;
}

/** Carts and lapsed holds are never reported. */
const UNREPORTED = ["ON_HOLD", "EXPIRED"];

/** The same visibility as the reporting subgraph's: references cannot reach another organisation's booking. */
export async function reportedBooking(ctx: BookingContext, id: string): Promise<BookingReportTerms> {
  const visibility = reportingVisibility(ctx.caller);
  const key = keyOfGlobalId(id, "BookingReport");
  const row = key !== null && isUuid(key) ? await ctx.loaders.booking.load(key) : undefined;
  if (!row || UNREPORTED.includes(row.status) || !canSeeReport(visibility, { organisationId: row.organisationId, testMode: row.environment === "sandbox" })) {
    throw notFound("Booking report not found");
  }
  return { id, row };
}

@Resolver(() => BookingReportTerms)
export class BookingReportTermsResolver {
  @FieldResolver(() => Boolean, { description: "Whether the booking can be cancelled now" })
  isCancellable(@Root() report: BookingReportTerms, @Ctx() ctx: BookingContext): boolean {
    return termsOf(report.row, ctx.clock.now()).isCancellable;
  }

  @FieldResolver(() => [CancellationPolicyTier], { description: "The refund tiers the booking was sold with, labels in its language" })
  cancellationPolicy(@Root() report: BookingReportTerms, @Ctx() ctx: BookingContext): CancellationPolicyTier[] {
    return toCancellation(termsOf(report.row, ctx.clock.now())).policy;
  }

  @FieldResolver(() => [AvailabilityOption], { description: "The product's options with the values chosen when it was booked" })
  availabilityOptions(@Root() report: BookingReportTerms): AvailabilityOption[] {
    return toAvailability(availabilityOfBooking(report.row)).options;
  }
}

const termsOf = (row: BookingRow, now: Date) => cancellationTerms(row.setup as AvailabilitySetup, row.status, row.startsAt, now, row.language);
