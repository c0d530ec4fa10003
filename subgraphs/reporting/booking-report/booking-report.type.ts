import { Directive, Field, Float, InputType, Int, ObjectType } from "type-graphql";
import { ProductReference } from "../../common/product-reference.js";
import { OrganisationReference } from "../reporting-access/reporting-access.type.js";

@ObjectType("ReportPrice")
export class ReportPrice {
  @Field(() => Float, { description: "What the customer paid" }) gross!: number;
  @Field(() => Float, { description: "Gross less the product's commission when booked (equal to gross when none was agreed)" }) net!: number;
  @Field(() => String, { description: "ISO 4217" }) currency!: string;
}

/**
 * A booking as finance and support teams see it (spec 2, reporting record). The booking
 * subgraph adds the fields it alone can work out: isCancellable, cancellationPolicy and the
 * selected availabilityOptions.
 */
@ObjectType("BookingReport", { description: "A booking that reached the supplier: PENDING_CONFIRM and after (spec 2, reporting record)" })
@Directive('@key(fields: "id")')
export class BookingReport {
  @Field(() => String) id!: string;
  @Field(() => String, { nullable: true, description: "The supplier-friendly code; present once confirmed" }) bookingCode!: string | null;
  @Field(() => String, { nullable: true, description: "The supplier's booking id" }) bookingExternalId!: string | null;
  @Field(() => String, { nullable: true }) externalClientId!: string | null;
  @Field(() => String, { description: "The booking engine (supplier system) the booking went through" }) bookingEngineName!: string;
  @Field(() => Boolean, { description: "Made in the sandbox environment" }) testMode!: boolean;
  @Field(() => String, { description: "PENDING_CONFIRM, CONFIRMED, REJECTED, CANCELLED or REDEEMED" }) status!: string;
  @Field(() => Date, { description: "When the booking was created" }) bookedAt!: Date;
  @Field(() => Date, { nullable: true }) confirmedAt!: Date | null;
  @Field(() => Date, { nullable: true }) voucherCreatedAt!: Date | null;
  @Field(() => Date, { nullable: true }) cancelledAt!: Date | null;
  @Field(() => String, { nullable: true, description: "Given with the cancellation" }) cancellationReason!: string | null;
  @Field(() => Date) activityStartDate!: Date;
  @Field(() => Date, { nullable: true, description: "Start plus the product's duration when booked" }) activityEndDate!: Date | null;
  @Field(() => Float) priceGross!: number;
  @Field(() => String) priceCurrency!: string;
  @Field(() => ReportPrice) price!: ReportPrice;
  @Field(() => Int, { description: "Participants booked" }) paxBooked!: number;
  @Field(() => String, { description: "quick-connect: every booking here is made through the booking-flow API" }) flowType!: string;
  @Field(() => String, { nullable: true, description: "The API account (username) of the partner that booked" }) partnerChannelName!: string | null;
  @Field(() => String, { nullable: true, description: "The booking organisation's id" }) partnerId!: string | null;
  @Field(() => OrganisationReference, { nullable: true, description: "The booking organisation" }) partner!: OrganisationReference | null;
  @Field(() => Int) productId!: number;
  @Field(() => ProductReference) product!: ProductReference;
}

@InputType({ description: "Filters of the booking report list (spec 2); dates are yyyy-MM-dd, UTC days, both ends included" })
export class BookingReportFilter {
  @Field(() => String, { nullable: true, description: "PENDING_CONFIRM, CONFIRMED, REJECTED, CANCELLED or REDEEMED" }) status?: string | null;
  @Field(() => String, { nullable: true }) cancelledStartDate?: string | null;
  @Field(() => String, { nullable: true }) cancelledEndDate?: string | null;
  @Field(() => String, { nullable: true }) confirmedStartDate?: string | null;
  @Field(() => String, { nullable: true }) confirmedEndDate?: string | null;
  @Field(() => String, { nullable: true }) bookedStartDate?: string | null;
  @Field(() => String, { nullable: true }) bookedEndDate?: string | null;
  @Field(() => Boolean, { nullable: true, description: "Null: both" }) testMode?: boolean | null;
  @Field(() => String, { nullable: true }) bookingCode?: string | null;
  @Field(() => String, { nullable: true }) bookingExternalId?: string | null;
  @Field(() => String, { nullable: true }) externalClientId?: string | null;
  @Field(() => String, { nullable: true }) bookingEngineName?: string | null;
}

@ObjectType({ description: "One page of booking reports" })
export class BookingReportPage {
  @Field(() => Int, { description: "Every report matching the filters" }) count!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
  @Field(() => [String], { description: "The order applied, e.g. [\"bookedAt\"] (\"-bookedAt\": newest first)" }) sort!: string[];
  @Field(() => [BookingReport]) items!: BookingReport[];
}

@ObjectType({ description: "A run of reports after a cursor, for exports that read every row once" })
export class BookingReportSlice {
  @Field(() => [BookingReport]) items!: BookingReport[];
  @Field(() => String, { description: "The items as CSV lines (RFC 4180, CRLF, spreadsheet-safe cells), without the header" }) csv!: string;
  @Field(() => String, { description: "The CSV header line: the list item's field names in the contract's order" }) csvHeader!: string;
  @Field(() => String, { nullable: true, description: "Pass as `after` for the next slice; null after the last" }) nextCursor!: string | null;
}
