import { enqueueWebhookEvent, webhookWanted } from "../../common/webhooks/webhook-outbox.repository.js";
import { PROCESS_ORIGIN } from "../../../core/metrics.js";
import type { Database, Executor } from "../../../drizzle/database.js";
import { channels, type Notice } from "../../../drizzle/events.js";
import { serviceSecret } from "../../../drizzle/service-secret.js";
import { availabilityView, ticketsOf, type AvailabilitySetup } from "../availability/availability.view.js";
import { stateOf, toAvailability } from "../availability/availability.steps.js";
import { contractBooking, rateOfPercentage, withoutNulls } from "../contract.bodies.js";
import { toGlobalId } from "../../../core/global-id.js";
import { moneyOf } from "../../common/money.type.js";
import { isQuestionStepComplete, questionGroups, type QuestionContext, type QuestionGroups, type QuestionView } from "../questions/question.rules.js";
import { signVoucherLink } from "../voucher/voucher.link.js";
import type { BookingRow } from "./booking.repository.js";
import type { Booking, BookingStatus, Cancellation, ConditionOperator, PaymentStatus, Question, QuestionDataFormat, QuestionDataType, QuestionRequirement } from "./booking.type.js";
import { cancellationTerms, type CancellationTerms } from "./cancellation.rules.js";

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
  /** The secret voucher links are signed with (BookingStores.voucherSecret). */
  voucherSecret: () => Promise<Buffer>;
  publicUrl: string;
  now: Date;
}

/** A question as the graph answers it. */
function toQuestion(view: QuestionView): Question {
  return {
    id: view.id,
    text: view.question,
    value: view.value ?? null,
    dataType: view.dataType as QuestionDataType,
    dataFormat: (view.dataFormat as QuestionDataFormat | undefined) ?? null,
    choices: view.questionChoices ? Object.entries(view.questionChoices).map(([key, label]) => ({ key, label })) : null,
    followUpQuestions: view.followUpQuestions.map(toQuestion),
    parentId: view.parentId ?? null,
    level: Number(view.level),
    requirementType: (view.requirementType as QuestionRequirement | undefined) ?? null,
    conditions: view.conditions?.map(({ op, value }) => ({ operator: op as ConditionOperator, value })) ?? null,
  };
}

/** A booking's refund tiers and whether it can be cancelled now, as the graph answers them. */
export function toCancellation(terms: Pick<CancellationTerms, "isCancellable" | "cancellationPolicy">): Cancellation {
  return {
    isCancellable: terms.isCancellable,
    policy: terms.cancellationPolicy.map((tier) => ({ label: tier.label, duration: tier.duration ?? null, refundRate: rateOfPercentage(tier.refundPercentage) })),
  };
}

/** The booking as the graph answers it. */
export async function toBooking(row: BookingRow, deps: ViewDeps): Promise<Booking> {
  const setup = row.setup as AvailabilitySetup;
  const questions = questionsOf(row);
  const terms = cancellationTerms(setup, row.status, row.startsAt, deps.now, row.language);
  const confirmed = row.bookingCode !== null && (row.status === "CONFIRMED" || row.status === "REDEEMED");
  return {
    id: toGlobalId("Booking", row.id),
    legacyResourceId: row.id,
    availabilityDateTime: row.startsAtLocal,
    resellerRef: row.resellerRef,
    status: row.status as BookingStatus,
    paymentStatus: row.paymentStatus as PaymentStatus,
    // The supplier's own voucher when it gives one, else ours.
    voucherUrl: confirmed
      ? (row.supplierVoucherUrl ?? signVoucherLink(await deps.voucherSecret(), deps.publicUrl, row.id, new Date(deps.now.getTime() + VOUCHER_LINK_TTL_MS)))
      : null,
    createdAt: row.creationDate,
    updatedAt: row.updateDate,
    availability: toAvailability(availabilityOfBooking(row)),
    questions: {
      customer: questions.customer.map(toQuestion),
      booking: questions.booking.map(toQuestion),
      participants: questions.participants.map((participant) => ({ id: participant.id, questions: participant.questions.map(toQuestion) })),
    },
    cancellation: toCancellation(terms),
    isQuestionStepComplete: isQuestionStepComplete(questions),
    supplierBooking:
      row.bookingCode !== null
        ? { externalId: row.bookingExternalId ?? row.id, engineName: row.engineName, productExternalId: row.productExternalId, bookingCode: row.bookingCode }
        : null,
    travelerDetails: { externalClientId: row.externalClientId ?? null },
    product: { legacyResourceId: row.productId },
    totalPrice: moneyOf(row.totalRetail, row.currency),
    exchangeRates: row.exchangeRates ? { date: row.exchangeRates.date, source: row.exchangeRates.source } : null,
    holdExpiresAt: row.status === "ON_HOLD" ? row.holdExpiresAt : null,
    answersRedactedAt: row.answersRedactedAt ?? null,
    rejectionReason: row.rejectionReason ?? null,
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
  const { voucherUrl: _link, ...body } = contractBooking(await toBooking(row, { voucherSecret: () => serviceSecret(tx, VOUCHER_SECRET), publicUrl: "", now: row.updateDate }));
  return JSON.parse(JSON.stringify(withoutNulls(body))) as Record<string, unknown>;
}
