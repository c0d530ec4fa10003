import type { FastifyRequest } from "fastify";
import { answer, arr, bool, int, num, str, type JsonSchema } from "../../json-schema.js";
import { selfLink } from "../../rest-route.js";
import { contractCancellationTier, type CancellationTierData } from "../../../subgraphs/booking/contract.bodies.js";
import { availabilityOptionSchema, cancellationPolicySchema, restAvailabilityOption, withoutNulls, type GraphAvailabilityOption } from "../booking-flow/booking-body.js";

/** The list item of spec 2 ("Reporting record (list item)"), in the contract's field order. */
export const REPORT_FIELDS = /* GraphQL */ `
  fragment RestReport on BookingReport {
    legacyResourceId bookingCode supplierBookingId externalClientId bookingEngineName isTest status
    bookedAt confirmedAt voucherCreatedAt cancelledAt activityStartsAt grossPrice { amount currencyCode } flowType partnerChannelName product { id: legacyResourceId }
  }
`;

export interface ReportData {
  legacyResourceId: string;
  bookingCode: string | null;
  supplierBookingId: string | null;
  externalClientId: string | null;
  bookingEngineName: string;
  isTest: boolean;
  status: string;
  bookedAt: string;
  confirmedAt: string | null;
  voucherCreatedAt: string | null;
  cancelledAt: string | null;
  activityStartsAt: string;
  grossPrice: MoneyData;
  flowType: string;
  partnerChannelName: string | null;
  product: { id: number };
}

interface MoneyData {
  amount: string;
  currencyCode: string;
}

export interface ReportDetailData extends Omit<ReportData, "product"> {
  partner: { legacyResourceId: number } | null;
  netPrice: MoneyData;
  participantCount: number;
  activityEndsAt: string | null;
  isCancellable: boolean;
  cancellationReason: string | null;
  product: { id: number; externalId: string; title: { text: string | null } };
  availabilityOptions: GraphAvailabilityOption[];
  cancellationPolicy: CancellationTierData[];
}

/** The graph's flow type (QUICK_CONNECT) as the contract writes it. */
const FLOW_TYPES: Record<string, string> = { QUICK_CONNECT: "quick-connect" };

/** yyyy-MM-dd'T'HH:mm:ss'Z', the contract's UTC format for report times. */
export const utcSeconds = (iso: string | null): string | null => (iso === null ? null : `${iso.slice(0, 19)}Z`);
/** yyyy-MM-dd'T'HH:mm:ss.SSS'Z' (the cancellation request time). */
export const utcMillis = (iso: string | null): string | null => (iso === null ? null : new Date(iso).toISOString());

export function reportBody(report: ReportData) {
  return withoutNulls({
    id: report.legacyResourceId,
    bookingCode: report.bookingCode,
    bookingExternalId: report.supplierBookingId,
    externalClientId: report.externalClientId,
    bookingEngineName: report.bookingEngineName,
    testMode: report.isTest,
    status: report.status,
    bookedAt: utcSeconds(report.bookedAt),
    confirmedAt: utcSeconds(report.confirmedAt),
    voucherCreatedAt: utcSeconds(report.voucherCreatedAt),
    cancelledAt: utcSeconds(report.cancelledAt),
    activityStartDate: utcSeconds(report.activityStartsAt),
    // The contract's numbers: an exact amount as JSON writes it ("49.90" is 49.9).
    priceGross: Number(report.grossPrice.amount),
    priceCurrency: report.grossPrice.currencyCode,
    flowType: FLOW_TYPES[report.flowType] ?? report.flowType,
    partnerChannelName: report.partnerChannelName,
    productId: report.product.id,
  });
}

export function reportDetailBody(report: ReportDetailData) {
  return withoutNulls({
    ...reportBody({ ...report, product: { id: report.product.id } }),
    partnerId: report.partner === null ? null : String(report.partner.legacyResourceId),
    price: { gross: Number(report.grossPrice.amount), net: Number(report.netPrice.amount), currency: report.grossPrice.currencyCode },
    paxBooked: report.participantCount,
    activityEndDate: utcSeconds(report.activityEndsAt),
    isCancellable: report.isCancellable,
    product: { id: report.product.id, externalId: report.product.externalId, title: report.product.title.text },
    options: { availabilityOptions: report.availabilityOptions.map(restAvailabilityOption) },
    cancellationInformation: {
      cancellationRequestDateTime: utcMillis(report.cancelledAt),
      cancellationReason: report.cancellationReason,
      cancellation: { cancellationPolicy: report.cancellationPolicy.map(contractCancellationTier) },
    },
  });
}

const time = (description: string): JsonSchema => ({ type: "string", description: `${description}; UTC yyyy-MM-dd'T'HH:mm:ss'Z'` });

export const reportProperties = {
    id: str("Booking id (UUID)"),
    bookingCode: str("Supplier-friendly code; once confirmed"),
    bookingExternalId: str("The supplier's booking id"),
    externalClientId: str("Client identifier"),
    bookingEngineName: str("Booking engine (supplier system)"),
    testMode: bool("Made in the sandbox environment"),
    status: str("PENDING_CONFIRM, CONFIRMED, REJECTED, CANCELLED or REDEEMED"),
    bookedAt: time("Booking created"),
    confirmedAt: time("Supplier confirmed"),
    voucherCreatedAt: time("Voucher issued"),
    cancelledAt: time("Cancelled"),
    activityStartDate: time("Activity start"),
    priceGross: num("What the customer paid"),
    priceCurrency: str("ISO 4217"),
    flowType: str("quick-connect (booking-flow API)"),
    partnerChannelName: str("The partner's API account that booked"),
    productId: int("Product id"),
} satisfies Record<string, JsonSchema>;

const REPORT_REQUIRED = ["id", "bookingEngineName", "testMode", "status", "bookedAt", "activityStartDate", "priceGross", "priceCurrency", "flowType", "productId"];

export const reportSchema: JsonSchema = answer(reportProperties, REPORT_REQUIRED, "Reporting record (list item); fields absent when not applicable");

export const reportDetailSchema: JsonSchema = answer(
  {
    ...reportProperties,
    partnerId: str("The booking organisation's id"),
    price: answer({ gross: num("Paid by the customer"), net: num("Gross less commission"), currency: str("ISO 4217") }, ["gross", "net", "currency"]),
    paxBooked: num("Participants"),
    activityEndDate: time("Activity end (start plus the product's duration)"),
    isCancellable: bool("Cancellable now"),
    product: answer({ id: int("Product id"), externalId: str("Supplier's product id"), title: str("In the Accept-Language, else English") }, ["id", "externalId"]),
    options: answer({ availabilityOptions: arr(availabilityOptionSchema, "Options with selectedOptionId and selectedOptionValue") }, ["availabilityOptions"]),
    cancellationInformation: answer(
      {
        cancellationRequestDateTime: str("When cancelled; yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"),
        cancellationReason: str("Given with the cancellation"),
        cancellation: answer({ cancellationPolicy: cancellationPolicySchema }, ["cancellationPolicy"]),
      },
      ["cancellation"],
    ),
  },
  [...REPORT_REQUIRED, "price", "paxBooked", "isCancellable", "product", "options", "cancellationInformation"],
  "Reporting record (detail); fields absent when not applicable",
);

/** links.self is the request as made; next and last the same with another page[offset]; next is empty on the last page. */
export function pageLinks(request: FastifyRequest, count: number, offset: number, limit: number) {
  const self = selfLink(request);
  const at = (pageOffset: number) => {
    const url = new URL(self);
    url.searchParams.set("page[offset]", String(pageOffset));
    url.searchParams.set("page[limit]", String(limit));
    return url.toString();
  };
  const lastOffset = count > offset ? offset + Math.floor((count - 1 - offset) / limit) * limit : Math.max(0, Math.floor((count - 1) / limit) * limit);
  return { self: self.toString(), next: offset + limit < count ? at(offset + limit) : "", last: at(lastOffset) };
}
