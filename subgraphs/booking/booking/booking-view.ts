import { enqueueWebhookEvent, webhookWanted } from "../../common/webhooks/webhook-outbox.js";
import { PROCESS_ORIGIN } from "../../../core/metrics.js";
import type { Database, Executor } from "../../../drizzle/database.js";
import { channels, type Notice } from "../../../drizzle/events.js";
import { serviceSecret } from "../../../drizzle/service-secret.js";
import { availabilityView, ticketsOf, type AvailabilitySetup } from "../availability/availability-view.js";
import { availabilityBody, stateOf, toAvailability } from "../availability/availability.service.js";
import { moneyOf } from "../../common/money.type.js";
import { isQuestionStepComplete, questionGroups, type QuestionContext, type QuestionGroups } from "../questions/question-rules.js";
import { signVoucherLink } from "../voucher/voucher-link.js";
import type { BookingRow } from "./booking.repository.js";
import type { Booking } from "./booking.type.js";
import { cancellationTerms } from "./cancellation-rules.js";

/** A voucher link works for a day from the read that handed it out (spec 2: time-limited). */
export const VOUCHER_LINK_TTL_MS = 24 * 3600 * 1000;
export const VOUCHER_SECRET = "voucher-links";

/** Statuses after which the booking no longer changes through the flow (the subscription completes). */
export const FINAL_STATUSES = ["CONFIRMED", "REJECTED", "CANCELLED", "EXPIRED", "REDEEMED"];

export function availabilityOfBooking(row: BookingRow) {
  // Priced at the rates of the booking's creation: its total never moves with later rates.
  return availabilityView({ ...stateOf({ ...row, id: row.availabilityId, expiresAt: row.holdExpiresAt }), rates: row.exchangeRates ?? undefined });
}

/** Who is asked what on a booking: its options pick a supplier option's questions, its tickets their holders' questions. */
export function questionContextOf(row: Pick<BookingRow, "id" | "participants" | "language" | "setup" | "selections" | "quantities">): QuestionContext {
  const ticketUnits: (string | undefined)[] = Array.from({ length: row.participants }, () => undefined);
  for (const ticket of ticketsOf(row.setup as AvailabilitySetup, row.selections, row.quantities)) {
    if (ticket.participant < ticketUnits.length) ticketUnits[ticket.participant] = ticket.unit;
  }
  return { bookingId: row.id, participantCount: row.participants, language: row.language, selections: row.selections, ticketUnits };
}

export function questionsOf(row: BookingRow): QuestionGroups {
  const setup = row.setup as AvailabilitySetup;
  return questionGroups(setup.questions, questionContextOf(row), row.answers);
}

export interface ViewDeps {
  db: Executor;
  publicUrl: string;
  now: Date;
}

/** The booking as clients see it (spec 2, Booking). */
export async function toBooking(row: BookingRow, deps: ViewDeps): Promise<Booking> {
  const setup = row.setup as AvailabilitySetup;
  const questions = questionsOf(row);
  const terms = cancellationTerms(setup, row.status, row.startsAt, deps.now, row.language);
  const confirmed = row.bookingCode !== null && (row.status === "CONFIRMED" || row.status === "REDEEMED");
  return {
    id: row.id,
    availabilityDateTime: row.startsAtLocal,
    resellerRef: row.resellerRef,
    status: row.status,
    paymentStatus: row.paymentStatus,
    // The supplier's own voucher when it gives one, else ours.
    voucherUrl: confirmed
      ? (row.supplierVoucherUrl ?? signVoucherLink(await serviceSecret(deps.db, VOUCHER_SECRET), deps.publicUrl, row.id, new Date(deps.now.getTime() + VOUCHER_LINK_TTL_MS)))
      : undefined,
    creationDate: row.creationDate,
    updateDate: row.updateDate,
    availability: toAvailability(availabilityOfBooking(row)),
    questions,
    cancellation: { isCancellable: terms.isCancellable, cancellationPolicy: terms.cancellationPolicy },
    isQuestionStepComplete: isQuestionStepComplete(questions),
    bookingEngineDetails:
      row.bookingCode !== null
        ? {
            bookingExternalId: row.bookingExternalId ?? row.id,
            bookingEngineName: row.engineName,
            productExternalId: row.productExternalId,
            bookingCode: row.bookingCode,
          }
        : undefined,
    travelerDetails: { externalClientId: row.externalClientId ?? undefined },
    product: { id: row.productId },
    totalPrice: moneyOf(row.totalRetail, row.currency),
    exchangeRates: row.exchangeRates ? { date: row.exchangeRates.date, source: row.exchangeRates.source } : undefined,
    holdExpiresAt: row.status === "ON_HOLD" ? row.holdExpiresAt : undefined,
    answersRedactedAt: row.answersRedactedAt ?? undefined,
    rejectionReason: row.rejectionReason ?? undefined,
  };
}

/**
 * Tells every edge that a booking's status changed, with any other notices of the transaction
 * (`also`); delivered only if the transaction commits. One statement sends them and asks whether
 * the organisation's webhook endpoints want the change; only then is a webhook message built.
 */
export async function announceStatus(database: Database, tx: Executor, row: BookingRow, also: readonly Notice[] = []): Promise<void> {
  const status: Notice = {
    channel: channels.bookingEvents,
    payload: {
      type: "booking.status",
      bookingId: row.id,
      status: row.status,
      organisationId: row.organisationId,
      // The process that made the change counts it (activities_booking_transitions_total).
      origin: PROCESS_ORIGIN,
    },
  };
  const type = "booking.status_changed";
  const organisationId = row.organisationId;
  const wanted = await database.events.publishAll(tx, [status, ...also], organisationId === null ? undefined : webhookWanted(organisationId, type));
  if (wanted === true && organisationId !== null) {
    await enqueueWebhookEvent(tx, { organisationId, type, orderingKey: row.id, data: await webhookBooking(tx, row), at: row.updateDate });
  }
}

/**
 * The booking as GET booking shows it, for a webhook: without the voucher link, which is signed
 * for 24 hours from a read (GET the booking for one), and written as JSON (no empty fields).
 */
async function webhookBooking(tx: Executor, row: BookingRow): Promise<Record<string, unknown>> {
  // `product` is the graph's link to the catalogue; GET booking shows none.
  const { voucherUrl: _link, product: _product, ...booking } = await toBooking(row, { db: tx, publicUrl: "", now: row.updateDate });
  // The availability and the price as the contract writes them, not as the graph does.
  const body = { ...booking, availability: availabilityBody(availabilityOfBooking(row)), totalPrice: { retail: row.totalRetail, currency: row.currency } };
  return JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
}
