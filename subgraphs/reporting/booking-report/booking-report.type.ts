import { Directive, Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { Money } from "../../common/money.type.js";
import { ProductReference } from "../../common/product.reference.js";
import { ConnectionOf, EdgeOf, OrderDirection } from "../../common/relay/relay.connection.js";
import { DateScalar, DateTimeScalar, UuidScalar } from "../../common/common.scalars.js";
import { OrganisationReference } from "../reporting-access/reporting-access.type.js";

/** The statuses a booking is reported in: from the moment it reached the supplier. */
export enum ReportedBookingStatus {
  PENDING_CONFIRM = "PENDING_CONFIRM",
  CONFIRMED = "CONFIRMED",
  REJECTED = "REJECTED",
  CANCELLED = "CANCELLED",
  REDEEMED = "REDEEMED",
}
registerEnumType(ReportedBookingStatus, {
  name: "ReportedBookingStatus",
  description: "Where a reported booking stands: a booking is reported once it reached the supplier",
  valuesConfig: {
    PENDING_CONFIRM: { description: "Paid; the supplier has not confirmed yet" },
    CONFIRMED: { description: "The supplier confirmed it" },
    REJECTED: { description: "The supplier refused it" },
    CANCELLED: { description: "Cancelled after it was confirmed" },
    REDEEMED: { description: "The traveller used it" },
  },
});

/** The values are the contract's (`quick-connect`); the graph names them in upper case. */
export enum BookingFlowType {
  QUICK_CONNECT = "quick-connect",
}
registerEnumType(BookingFlowType, {
  name: "BookingFlowType",
  description: "How a booking was made",
  valuesConfig: { QUICK_CONNECT: { description: "Through the booking-flow API, by the partner's own system (every booking of this service)" } },
});

/**
 * A booking as finance and support teams see it (spec 2, reporting record). The booking
 * subgraph adds the fields it alone can work out: isCancellable, cancellationPolicy and the
 * selected availabilityOptions.
 */
@ObjectType("BookingReport", { description: "A booking that reached the supplier (PENDING_CONFIRM and after), as finance and support teams see it" })
@Directive('@key(fields: "id")')
export class BookingReport {
  @Field(() => ID, { description: "The global id" }) id!: string;
  @Field(() => UuidScalar, { description: "The booking's id on the REST paths" }) legacyResourceId!: string;
  @Field(() => String, { nullable: true, description: "The supplier-friendly code; present once confirmed" }) bookingCode!: string | null;
  @Field(() => String, { nullable: true, description: "The supplier system's id of the booking" }) supplierBookingId!: string | null;
  @Field(() => String, { nullable: true, description: "The partner's own identifier of its customer, as given when booking" }) externalClientId!: string | null;
  @Field(() => String, { description: "The booking engine (supplier system) the booking went through" }) bookingEngineName!: string;
  @Field(() => Boolean, { description: "Made in the sandbox environment" }) isTest!: boolean;
  @Field(() => ReportedBookingStatus, { description: "Where it stands" }) status!: ReportedBookingStatus;
  @Field(() => DateTimeScalar, { description: "When the booking was created" }) bookedAt!: Date;
  @Field(() => DateTimeScalar, { nullable: true, description: "When the supplier confirmed it" }) confirmedAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true, description: "When its voucher was issued" }) voucherCreatedAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true, description: "When it was cancelled" }) cancelledAt!: Date | null;
  @Field(() => String, { nullable: true, description: "Given with the cancellation" }) cancellationReason!: string | null;
  @Field(() => DateTimeScalar, { description: "When the activity starts" }) activityStartsAt!: Date;
  @Field(() => DateTimeScalar, { nullable: true, description: "When the activity ends: its start plus the product's duration when booked" }) activityEndsAt!: Date | null;
  @Field(() => Money, { description: "What the customer paid" }) grossPrice!: Money;
  @Field(() => Money, { description: "The gross price less the product's commission when booked (the gross price when none was agreed)" }) netPrice!: Money;
  @Field(() => Int, { description: "How many participants were booked" }) participantCount!: number;
  @Field(() => BookingFlowType, { description: "How it was made" }) flowType!: BookingFlowType;
  @Field(() => String, { nullable: true, description: "The API account (username) of the partner that booked" }) partnerChannelName!: string | null;
  @Field(() => OrganisationReference, { nullable: true, description: "The booking organisation" }) partner!: OrganisationReference | null;
  @Field(() => ProductReference, { description: "The product booked" }) product!: ProductReference;
}

@ObjectType({ description: "A booking report with its place in the list" })
export class BookingReportEdge extends EdgeOf(BookingReport) {}

@ObjectType({ description: "Booking reports in the order asked for" })
export class BookingReportConnection extends ConnectionOf(BookingReport, BookingReportEdge) {
  @Field(() => String, { description: "The page's reports as CSV lines (RFC 4180, CRLF, spreadsheet-safe cells), without the header: spec 2's list item's fields in its order" })
  csv!: string;

  @Field(() => String, { description: "The CSV header line: spec 2's list item's field names in its order" })
  csvHeader!: string;
}

export enum BookingReportOrderField {
  BOOKED_AT = "BOOKED_AT",
}
registerEnumType(BookingReportOrderField, {
  name: "BookingReportOrderField",
  description: "What booking reports can be ordered by",
  valuesConfig: { BOOKED_AT: { description: "When the bookings were created (ties by id)" } },
});

@InputType({ description: "An order of booking reports" })
export class BookingReportOrder {
  @Field(() => BookingReportOrderField, { description: "What to order by" }) field!: BookingReportOrderField;
  @Field(() => OrderDirection, { description: "Which way" }) direction!: OrderDirection;
}

@InputType({ description: "Calendar days, in UTC, both ends included; an end not given is open" })
export class DateRangeInput {
  @Field(() => DateScalar, { nullable: true, description: "The first day" }) from?: string | null;
  @Field(() => DateScalar, { nullable: true, description: "The last day (not before `from`)" }) to?: string | null;
}

@InputType({ description: "Which booking reports to list: each field given narrows the list" })
export class BookingReportFilter {
  @Field(() => ReportedBookingStatus, { nullable: true, description: "In this status" }) status?: ReportedBookingStatus | null;
  @Field(() => DateRangeInput, { nullable: true, description: "Booked on these days" }) bookedOn?: DateRangeInput | null;
  @Field(() => DateRangeInput, { nullable: true, description: "Confirmed on these days" }) confirmedOn?: DateRangeInput | null;
  @Field(() => DateRangeInput, { nullable: true, description: "Cancelled on these days" }) cancelledOn?: DateRangeInput | null;
  @Field(() => Boolean, { nullable: true, description: "Test bookings only (true) or real ones only (false); both when not given" }) isTest?: boolean | null;
  @Field(() => String, { nullable: true, description: "With this supplier-friendly code (at most 255 characters)" }) bookingCode?: string | null;
  @Field(() => String, { nullable: true, description: "With this supplier system's id (at most 255 characters)" }) supplierBookingId?: string | null;
  @Field(() => String, { nullable: true, description: "With this identifier of the partner's customer (at most 255 characters)" }) externalClientId?: string | null;
  @Field(() => String, { nullable: true, description: "Through this booking engine (at most 255 characters)" }) bookingEngineName?: string | null;
}
