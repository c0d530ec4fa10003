import { randomUUID } from "node:crypto";
import type { GraphQLError } from "graphql";
import { commissionRate } from "../../../core/commission.js";
import { badInput, notFound, type FieldProblem } from "../../../core/errors.js";
import { isoDurationMs } from "../../../core/iso-duration.js";
import { checkUuid, isUuid } from "../../../core/uuid.js";
import type { Executor } from "../../../drizzle/database.js";
import { serviceSecret } from "../../../drizzle/service-secret.js";
import type { OctoEngines } from "../../common/octo/octo-engines.js";
import { AVAILABILITY_LIFETIME_MS, chosenSlot, flowLanguage, sellable, stateOf, withOffer, type Sellable } from "../availability/availability.service.js";
import { availabilityRepository, type AvailabilityRow } from "../availability/availability.repository.js";
import { availabilityView, ticketsOf, unitsShown, type AvailabilitySetup } from "../availability/availability-view.js";
import { bookingAccess, owns, type Owner } from "../booking-access.js";
import { asRefusal, bookingRefusal, viaEngine } from "../booking-errors.js";
import type { ProductFacts } from "../catalogue-facts.js";
import { EngineRefusal, TransientEngineError, type BookingEngineAdapter, type EngineBooking, type Slot } from "../engines/booking-engine.js";
import { engineRegistry } from "../engines/engine-registry.js";
import { bookingJobNotice } from "../jobs/booking-job-notice.js";
import { localized, type BookingSetup } from "../engines/inventory/booking-setup.js";
import { zonedText } from "../../../core/local-time.js";
import type { BookingContext } from "../loaders.js";
import { priceUnits, type PricedAvailability } from "../pricing/price-rules.js";
import { customerAnswer, isQuestionStepComplete, topLevelAnswers, validateAnswers } from "../questions/question-rules.js";
import { verifyVoucherLink } from "../voucher/voucher-link.js";
import { announceStatus, availabilityOfBooking, questionContextOf, questionsOf, toBooking, VOUCHER_SECRET } from "./booking-view.js";
import { bookingRepository, type BookingRow } from "./booking.repository.js";
import type { Booking, CancellationInformation, CreateBookingInput, VoucherDocument } from "./booking.type.js";
import { cancellationTerms } from "./cancellation-rules.js";
import { rateOfPercentage } from "../contract-bodies.js";

/** An ON_HOLD booking keeps its places this long; unconfirmed after that, it expires (EXPIRED). */
export const BOOKING_HOLD_MS = AVAILABILITY_LIFETIME_MS;
const REFERENCE = /^[A-Za-z0-9]{1,255}$/;

function checkReference(value: string | null | undefined, field: string, required: boolean): FieldProblem[] {
  if (value === null || value === undefined || value === "") {
    return required ? [{ field, rule: "required", message: `${field} is required` }] : [];
  }
  return REFERENCE.test(value) ? [] : [{ field, rule: "alphanumeric", message: `${field} must be 1 to 255 letters or digits` }];
}

const view = (ctx: BookingContext, row: BookingRow, db: Executor = ctx.database.db) => toBooking(row, { db, publicUrl: ctx.publicUrl, now: ctx.clock.now() });

/** The caller's booking under a row lock: 404 unknown, 403 (6501) another organisation's. */
async function lockOwned(ctx: BookingContext, tx: Executor, bookingId: string): Promise<BookingRow> {
  const row = isUuid(bookingId) ? await bookingRepository.forUpdate(tx, bookingId) : undefined;
  if (!row) throw notFound("No booking has this id");
  if (!owns(ctx.caller, row)) throw bookingRefusal("FORBIDDEN", "This booking belongs to another organisation");
  return row;
}

/** Gives a booking's places back to its slot (cancellation, expiry, refusal); a supplier's hold is let go separately. */
async function releasePlaces(tx: Executor, row: BookingRow, octo: OctoEngines | undefined): Promise<void> {
  await engineOfBooking(row, octo).release(tx, row.productId, row.startsAt, row.participants);
}

/** Moves an ON_HOLD booking whose hold has lapsed to EXPIRED, in the caller's transaction (a supplier's hold lapses with it). */
export async function expireHold(ctx: { database: BookingContext["database"]; octo?: OctoEngines }, tx: Executor, row: BookingRow, now: Date): Promise<BookingRow | undefined> {
  const expired = await bookingRepository.transition(tx, row.id, "ON_HOLD", { status: "EXPIRED", expiredAt: now, updateDate: now });
  if (!expired) return undefined;
  await releasePlaces(tx, row, ctx.octo);
  await announceStatus(ctx.database, tx, expired);
  return expired;
}

type Outcome = { booking: BookingRow } | { refusal: GraphQLError };

const flowDeps = (ctx: BookingContext) => ({ database: ctx.database, octo: ctx.loaders.octo });

type Ready = {
  availability: AvailabilityRow;
  offered: AvailabilitySetup;
  product: ProductFacts;
  engine: BookingEngineAdapter;
  setup: BookingSetup;
  repriced: PricedAvailability;
  slot: Slot;
};

/** What POST bookings asks a supplier's system before its transaction; undefined for engines that hold in ours. */
type UpstreamFacts = { current: Sellable | undefined; slots: Slot[] };

async function upstreamFacts(ctx: BookingContext, product: ProductFacts, date: string, now: Date): Promise<UpstreamFacts | undefined> {
  if (!engineRegistry.for(product.bookingEngineName, product.bookingEngineKind, ctx.loaders.octo).upstream) return undefined;
  let current: Sellable;
  try {
    current = await sellable(ctx, product.id);
  } catch (error) {
    // The supplier not answering, or refusing our key, is no news of the product: the request is refused as it is.
    const reason = (error as GraphQLError).extensions?.reason;
    if (reason === "ENGINE_UNAVAILABLE" || reason === "ENGINE_REFUSED") throw error;
    return { current: undefined, slots: [] };
  }
  return { current, slots: await viaEngine(current.engine.slots(ctx.database.db, product, current.setup, date, now)) };
}

/**
 * Every check of POST bookings, under the availability's lock: the booking the request already
 * made, the refusals of a used, expired or incomplete availability, prices (9573) and places.
 */
async function checkBookable(ctx: BookingContext, tx: Executor, input: CreateBookingInput, now: Date, upstream: UpstreamFacts | undefined): Promise<Outcome | { ready: Ready }> {
  const availability = await availabilityRepository.forUpdate(tx, input.availabilityId);
  if (!availability) return { refusal: bookingRefusal("INVALID_AVAILABILITY", `Availability ${input.availabilityId} does not exist`) };
  if (!owns(ctx.caller, availability)) return { refusal: bookingRefusal("FORBIDDEN", "This availability belongs to another organisation") };
  const earlier = await earlierBooking(ctx, tx, availability, input, now);
  if (earlier) return earlier;
  if (now >= availability.expiresAt) {
    return { refusal: bookingRefusal("AVAILABILITY_EXPIRED", "This availability is more than an hour old: start again with GET options") };
  }
  const state = stateOf(availability);
  const seen = availabilityView(state);
  if (!seen.isOptionStepCompleted || !seen.isPricingStepCompleted || !availability.currency) {
    return { refusal: bookingRefusal("AVAILABILITY_INCOMPLETE", "Set every option and bookable quantities before booking") };
  }
  if (input.currencyCode && input.currencyCode !== availability.currency) {
    return { refusal: bookingRefusal("CURRENCY_CHANGE", `This flow runs in ${availability.currency}; start a new availability for another currency`) };
  }
  if (ctx.languages.length > 1 && flowLanguage(ctx) !== availability.language) {
    return { refusal: bookingRefusal("LANGUAGE_CHANGE", `This flow runs in '${availability.language}'; the request asks for '${flowLanguage(ctx)}'`) };
  }

  let current;
  try {
    current = upstream ? upstream.current : await sellable(ctx, availability.productId, tx);
  } catch {
    current = undefined;
  }
  if (!current) return { refusal: bookingRefusal("NO_LONGER_AVAILABLE", "The product is no longer sold") };
  const { product, engine, setup } = current;
  // Prices are compared with the product's setup of now, not the one the availability began with.
  const offered = withOffer(setup, state.setup, upstream?.slots);
  const repriced = priceUnits(unitsShown(offered, availability.selections), availability.quantities, availability.currency, availability.language);
  if (!repriced.isPricingStepCompleted) return { refusal: bookingRefusal("NO_LONGER_AVAILABLE", "The chosen tickets are no longer offered") };
  if (repriced.total.retail !== availability.quotedTotal) {
    await availabilityRepository.update(tx, availability.id, { setup: offered, quotedTotal: repriced.total.retail });
    return {
      refusal: bookingRefusal(
        "PRICES_CHANGED",
        `Prices changed since the selection: the total is now ${repriced.total.retail} ${repriced.total.currency} (was ${availability.quotedTotal}). GET prices shows them; submit again to accept`,
      ),
    };
  }
  const slots = upstream ? upstream.slots : await engine.slots(tx, product, setup, availability.availabilityDate, now);
  const slot = chosenSlot(offered, availability.selections, availability.availabilityDate, slots);
  if (!slot) return { refusal: bookingRefusal("NO_LONGER_AVAILABLE", "The product is no longer available at the selected date and time") };
  return { ready: { availability, offered, product, engine, setup, repriced, slot } };
}

/**
 * One availability, one booking: a repeated request (same resellerRef) gets the live hold back;
 * once a booking went further, any request on the availability is told where it went.
 */
async function earlierBooking(ctx: BookingContext, tx: Executor, availability: AvailabilityRow, input: CreateBookingInput, now: Date): Promise<Outcome | undefined> {
  const existing = await bookingRepository.onAvailability(tx, availability.id);
  const live = existing.find((b) => b.status === "ON_HOLD" && now < b.holdExpiresAt);
  if (live) {
    if (live.resellerRef === input.resellerRef) return { booking: live };
    return { refusal: bookingRefusal("AVAILABILITY_USED", `Availability ${availability.id} is held by booking ${live.id} under another resellerRef`) };
  }
  const went = (...statuses: BookingRow["status"][]) => existing.find((b) => statuses.includes(b.status));
  const confirmed = went("PENDING_CONFIRM", "CONFIRMED", "REDEEMED");
  if (confirmed) return { refusal: bookingRefusal("BOOKING_ALREADY_CONFIRMED", `Booking ${confirmed.id} on this availability is already confirmed`) };
  const lapsed = went("ON_HOLD");
  if (lapsed) await expireHold(flowDeps(ctx), tx, lapsed, now);
  const ended = lapsed ?? went("CANCELLED", "EXPIRED");
  if (ended) return { refusal: bookingRefusal("BOOKING_ALREADY_CANCELLED", `Booking ${ended.id} on this availability is cancelled or expired: start a new availability`) };
  const rejected = went("REJECTED");
  if (rejected) return { refusal: bookingRefusal("NO_LONGER_AVAILABLE", `Booking ${rejected.id} on this availability was refused by the supplier`) };
  return undefined;
}

function newBooking(ctx: BookingContext, owner: Owner, input: CreateBookingInput, ready: Ready, id: string, holdExpiresAt: Date, now: Date) {
  const { availability, offered, product, repriced, slot } = ready;
  return {
    id,
    availabilityId: availability.id,
    productId: product.id,
    organisationId: owner.organisationId,
    accountId: owner.accountId,
    environment: ctx.caller.environment,
    resellerRef: input.resellerRef,
    externalClientId: input.externalClientId ?? null,
    status: "ON_HOLD" as const,
    paymentStatus: "ON_HOLD" as const,
    language: availability.language,
    currency: availability.currency!,
    availabilityDate: availability.availabilityDate,
    startsAt: slot.startsAt,
    startsAtLocal: zonedText(slot.startsAt, offered.timeZone),
    engineName: product.bookingEngineName,
    setup: offered,
    selections: availability.selections,
    quantities: availability.quantities,
    participants: repriced.participants,
    totalRetail: repriced.total.retail,
    exchangeRates: repriced.conversion,
    commissionRate: commissionRate(product),
    endsAt: endOf(slot.startsAt, product.duration),
    holdExpiresAt,
    productExternalId: product.externalId,
    creationDate: now,
    updateDate: now,
  };
}

/**
 * The places are held in the supplier's system under a new booking id (its uuid), then the booking
 * is written. A request that lost a race to another booking of the availability lets its hold go;
 * a crash in between leaves only a supplier hold that lapses on its own.
 */
async function holdUpstream(ctx: BookingContext, owner: Owner, input: CreateBookingInput, ready: Ready, now: Date): Promise<BookingRow> {
  const upstream = ready.engine.upstream!;
  const id = randomUUID();
  const until = new Date(now.getTime() + BOOKING_HOLD_MS);
  const held = await viaEngine(
    upstream.hold({ bookingId: id, product: ready.product, setup: ready.offered, slot: ready.slot, selections: ready.availability.selections, quantities: ready.availability.quantities, resellerRef: input.resellerRef, until, now }),
  );
  const holdExpiresAt = held.expiresAt < until ? held.expiresAt : until;
  const outcome = await ctx.database.db.transaction(async (tx): Promise<Outcome> => {
    const availability = await availabilityRepository.forUpdate(tx, input.availabilityId);
    const earlier = availability && (await earlierBooking(ctx, tx, availability, input, now));
    if (earlier) return earlier;
    const booking = await bookingRepository.insert(tx, newBooking(ctx, owner, input, ready, id, holdExpiresAt, now));
    await announceStatus(ctx.database, tx, booking);
    return { booking };
  });
  if ("booking" in outcome && outcome.booking.id === id) return outcome.booking;
  await upstream.release({ id, engineName: ready.product.bookingEngineName }, "Another booking of the availability was made first");
  if ("refusal" in outcome) throw outcome.refusal;
  return outcome.booking;
}

/** The adapter of a booking's engine: one built from a supplier's product is that supplier's. */
export function engineOfBooking(row: Pick<BookingRow, "engineName" | "setup">, octo: OctoEngines | undefined): BookingEngineAdapter {
  return engineRegistry.for(row.engineName, (row.setup as AvailabilitySetup).remote ? "OCTO" : "INVENTORY", octo);
}

export const bookingService = {
  /** The caller's booking; null for an id that names none; 403 (6501) another organisation's, as spec 2 answers it. */
  async byId(ctx: BookingContext, bookingId: string): Promise<Booking | null> {
    bookingAccess(ctx.caller);
    const row = isUuid(bookingId) ? await ctx.loaders.booking.load(bookingId) : undefined;
    if (!row) return null;
    if (!owns(ctx.caller, row)) throw bookingRefusal("FORBIDDEN", "This booking belongs to another organisation");
    return view(ctx, row);
  },

  /**
   * Step 4. The availability is locked first, so two identical requests queue: the second finds
   * the booking the first made and returns it. Refusals that change the availability (9573 new
   * prices) commit that change before answering. A supplier system that holds places itself is
   * asked between two transactions: after every check, before the booking is written.
   */
  async create(ctx: BookingContext, input: CreateBookingInput): Promise<Booking> {
    const owner = bookingAccess(ctx.caller);
    const problems = [...checkReference(input.resellerRef, "resellerRef", true), ...checkReference(input.externalClientId, "externalClientId", false)];
    if (problems.length) throw badInput(problems.map((p) => p.message).join("; "), problems);
    if (!isUuid(input.availabilityId)) throw bookingRefusal("INVALID_AVAILABILITY", "availabilityId is not an availability id");
    const now = ctx.clock.now();
    // The catalogue's facts are asked (and kept by the request's loader) before the transaction:
    // no call to another subgraph waits on a lock held here, and the embedded database runs one
    // transaction at a time. So is a supplier's system, for the product's setup and the date's slots.
    const unlocked = await availabilityRepository.byId(ctx.database.db, input.availabilityId);
    const facts = unlocked ? await ctx.loaders.catalogue.product.load(unlocked.productId) : undefined;
    const upstream = unlocked && facts ? await upstreamFacts(ctx, facts, unlocked.availabilityDate, now) : undefined;

    const outcome = await ctx.database.db.transaction(async (tx): Promise<Outcome | { ready: Ready }> => {
      const checked = await checkBookable(ctx, tx, input, now, upstream);
      if (!("ready" in checked)) return checked;
      const { ready } = checked;
      if (ready.engine.upstream) return checked;
      if (!(await ready.engine.reserve(tx, ready.product, ready.setup, ready.slot.startsAt, ready.repriced.participants))) {
        return { refusal: bookingRefusal("NO_LONGER_AVAILABLE", "Not enough places left at the selected date and time") };
      }
      const booking = await bookingRepository.insert(tx, newBooking(ctx, owner, input, ready, randomUUID(), new Date(now.getTime() + BOOKING_HOLD_MS), now));
      await announceStatus(ctx.database, tx, booking);
      return { booking };
    });
    if ("refusal" in outcome) throw outcome.refusal;
    if ("ready" in outcome) return view(ctx, await holdUpstream(ctx, owner, input, outcome.ready, now));
    return view(ctx, outcome.booking);
  },


  /** Step 5b: the full list of answers; follow-ups appear and vanish with their parents' answers. */
  async answer(ctx: BookingContext, bookingId: string, answers: { id: string; value: string | null }[]): Promise<Booking> {
    bookingAccess(ctx.caller);
    const now = ctx.clock.now();
    const outcome = await keepingUpstreamHold(ctx, bookingId, now, (kept) => ctx.database.db.transaction(async (tx): Promise<Outcome | typeof EXTEND_FIRST> => {
      const row = await lockOwned(ctx, tx, bookingId);
      if (kept === UNASKED && holdToExtend(ctx, row, now)) return EXTEND_FIRST;
      if (row.status !== "ON_HOLD") {
        throw bookingRefusal("BOOKING_NOT_EDITABLE", `Answers can change only while the booking is ON_HOLD (it is ${row.status})`);
      }
      const lapsed = await applyKeptHold(ctx, tx, row, kept, now);
      if (lapsed) return lapsed;
      const setup = row.setup as AvailabilitySetup;
      const result = validateAnswers(setup.questions, questionContextOf(row), answers);
      if (result.problems.length) throw bookingRefusal("INVALID_ANSWERS", result.problems.map((p) => p.message).join("; "), result.problems);
      const updated = await bookingRepository.update(tx, row.id, { answers: result.answers, answersUpdatedAt: now, answersRedactedAt: null, updateDate: now });
      return { booking: updated };
    }));
    if ("refusal" in outcome) throw outcome.refusal;
    return view(ctx, outcome.booking);
  },

  /**
   * Step 6. The supplier confirmation is a job written in the same transaction, so a payment
   * acknowledged here is never lost; asking again returns the booking as it is.
   */
  async confirm(ctx: BookingContext, bookingId: string, externalClientId: string | null): Promise<Booking> {
    bookingAccess(ctx.caller);
    const problems = checkReference(externalClientId, "externalClientId", false);
    if (problems.length) throw badInput(problems[0].message, problems);
    const now = ctx.clock.now();
    const outcome = await keepingUpstreamHold(ctx, bookingId, now, (kept) => ctx.database.db.transaction(async (tx): Promise<Outcome | typeof EXTEND_FIRST> => {
      const row = await lockOwned(ctx, tx, bookingId);
      if (kept === UNASKED && holdToExtend(ctx, row, now)) return EXTEND_FIRST;
      switch (row.status) {
        case "PENDING_CONFIRM":
        case "CONFIRMED":
        case "REDEEMED":
          return { booking: row };
        case "CANCELLED":
        case "EXPIRED":
          return { refusal: bookingRefusal("BOOKING_ALREADY_CANCELLED", `Booking ${row.id} is ${row.status}`) };
        case "REJECTED":
          return { refusal: bookingRefusal("BOOKING_REJECTED", `Booking ${row.id} was refused by the supplier: ${row.rejectionReason ?? ""}`) };
        default:
      }
      if (now >= row.holdExpiresAt) {
        await expireHold(flowDeps(ctx), tx, row, now);
        return { refusal: bookingRefusal("BOOKING_EXPIRED", `Booking ${row.id} was not confirmed within its hold and has expired: start a new availability`) };
      }
      const lapsed = await applyKeptHold(ctx, tx, row, kept, now);
      if (lapsed) return lapsed;
      if (!isQuestionStepComplete(questionsOf(row))) {
        const why = row.answersRedactedAt ? "Answers were erased for privacy after the retention time: give them again" : "Answer every question first";
        return { refusal: bookingRefusal("QUESTIONS_INCOMPLETE", why) };
      }
      const setup = row.setup as AvailabilitySetup;
      const pending = await bookingRepository.transition(tx, row.id, "ON_HOLD", {
        status: "PENDING_CONFIRM",
        paymentStatus: "PAID",
        confirmRequestedAt: now,
        externalClientId: externalClientId ?? row.externalClientId,
        updateDate: now,
      });
      const runAt = new Date(now.getTime() + setup.confirmationDelaySeconds * 1000);
      await bookingRepository.addJob(tx, row.id, "confirm", runAt);
      await announceStatus(ctx.database, tx, pending!, [bookingJobNotice({ bookingId: row.id, runAt })]);
      return { booking: pending! };
    }));
    if ("refusal" in outcome) throw outcome.refusal;
    return view(ctx, outcome.booking);
  },

  /** Step 7, DELETE: under the tier in force; the places go back to the slot. */
  async cancel(ctx: BookingContext, bookingId: string, reason: string | null): Promise<CancellationInformation> {
    bookingAccess(ctx.caller);
    if (reason !== null && (reason.length < 1 || reason.length > 500)) {
      throw badInput("cancellationReason must be 1 to 500 characters", [{ field: "cancellationReason", rule: "length", message: "1 to 500 characters" }]);
    }
    const now = ctx.clock.now();
    const why = reason ?? "Cancelled by the customer";
    // The supplier is told first, outside the transaction: a booking is cancelled here only once
    // its supplier has cancelled it (a retry tells it again, idempotently, by the booking id).
    const told = await tellSupplierOfCancellation(ctx, bookingId, now, why);
    const result = await ctx.database.db.transaction(async (tx) => {
      const row = await lockOwned(ctx, tx, bookingId);
      if (row.status === "CANCELLED" || row.status === "EXPIRED") throw bookingRefusal("BOOKING_ALREADY_CANCELLED", `Booking ${row.id} is already ${row.status}`);
      const setup = row.setup as AvailabilitySetup;
      const terms = cancellationTerms(setup, row.status, row.startsAt, now, row.language);
      if (!terms.isCancellable) {
        const why =
          row.status === "PENDING_CONFIRM"
            ? "the supplier has not answered the confirmation yet: try again in a few seconds"
            : row.status === "CONFIRMED"
              ? "no cancellation tier applies any more"
              : `it is ${row.status}`;
        throw bookingRefusal("BOOKING_NOT_CANCELLABLE", `Booking ${row.id} cannot be cancelled: ${why}`);
      }
      const wasConfirmed = row.status === "CONFIRMED";
      if (wasConfirmed && !told) throw bookingRefusal("BOOKING_NOT_CANCELLABLE", `Booking ${row.id} was confirmed while this request ran: send it again`);
      const cancelled = await bookingRepository.transition(tx, row.id, row.status, {
        status: "CANCELLED",
        paymentStatus: wasConfirmed ? (terms.refundPercentage > 0 ? "REFUND" : "PAID") : row.paymentStatus,
        cancelledAt: now,
        cancellationReason: why,
        refundPercentage: terms.refundPercentage,
        updateDate: now,
      });
      await releasePlaces(tx, row, ctx.loaders.octo);
      await announceStatus(ctx.database, tx, cancelled!);
      return { row: cancelled!, terms, wasHeld: row.status === "ON_HOLD" };
    });
    // A dropped hold frees the supplier's places now rather than when the hold lapses.
    const upstream = result.wasHeld && engineOfBooking(result.row, ctx.loaders.octo).upstream;
    if (upstream) await upstream.release(result.row, why);
    const booking = await view(ctx, result.row);
    return {
      cancellation: booking.cancellation,
      reason: result.row.cancellationReason!,
      requestedAt: now,
      refundRate: rateOfPercentage(result.terms.refundPercentage),
      booking,
    };
  },

  /** The voucher behind a signed link: the signature is the authorisation. */
  async voucher(ctx: BookingContext, bookingId: string, expires: string, signature: string): Promise<VoucherDocument> {
    checkUuid(bookingId, "bookingId");
    const check = verifyVoucherLink(await serviceSecret(ctx.database.db, VOUCHER_SECRET), bookingId, expires, signature, ctx.clock.now());
    if (check === "expired") throw bookingRefusal("VOUCHER_LINK_EXPIRED", "This voucher link has expired: read the booking again for a fresh one");
    if (check === "invalid") throw bookingRefusal("VOUCHER_LINK_INVALID", "This voucher link is not valid");
    const [row] = await bookingRepository.byIds(ctx.database.db, [bookingId]);
    if (!row || row.bookingCode === null || (row.status !== "CONFIRMED" && row.status !== "REDEEMED")) throw notFound("No voucher for this booking");
    const product = await ctx.loaders.catalogue.product.load(row.productId);
    const availability = availabilityOfBooking(row);
    // The setup declares which answers are the name: question texts are free-form and localized, so matching them on
    // "name" missed a French flow's "Prénom"/"Nom" and would print a "Company name".
    const setup = row.setup as AvailabilitySetup;
    const name = (setup.leadTravellerName ?? [])
      .map((key) => customerAnswer(row.id, row.answers, key)?.trim())
      .filter((part) => part !== undefined && part !== "")
      .join(" ");
    // Loaded on the first voucher: pdf-lib and fontkit are 0.4 s of every start's CPU otherwise.
    const { renderVoucherPdf } = await import("../voucher/voucher-pdf.js");
    const pdf = await renderVoucherPdf({
      bookingId: row.id,
      bookingCode: row.bookingCode,
      productTitle: (product && localized(product.title, row.language)) ?? `Product ${row.productId}`,
      supplierName: product?.supplierName ?? undefined,
      startsAt: row.startsAtLocal,
      participants: (availability.priced?.units ?? []).filter((u) => u.unitQuantity > 0).map((u) => ({ label: u.label, quantity: u.unitQuantity })),
      options: availability.availabilityOptions.map((o) => ({ label: o.label, value: o.selectedOptionValue ?? "" })),
      resellerRef: row.resellerRef,
      leadTraveller: name || undefined,
      supplierCode: row.supplierVoucherCode ?? undefined,
      total: { retail: row.totalRetail, currency: row.currency },
      issuedAt: row.voucherCreatedAt ?? row.confirmedAt ?? row.updateDate,
      environment: row.environment,
    });
    return { fileName: `voucher-${row.bookingCode}.pdf`, pdfBase64: Buffer.from(pdf).toString("base64") };
  },
};

/** The lead traveller's details a supplier confirms with, from the customer questions of these keys. */
const CONTACT_KEYS = ["firstName", "lastName", "emailAddress", "phoneNumber", "postalCode", "country"] as const;

export function engineBooking(row: BookingRow): EngineBooking {
  const contact: EngineBooking["contact"] = {};
  for (const key of CONTACT_KEYS) {
    const answer = customerAnswer(row.id, row.answers, key)?.trim();
    if (answer) contact[key] = answer;
  }
  return {
    id: row.id,
    engineName: row.engineName,
    productId: row.productId,
    productExternalId: row.productExternalId,
    startsAt: row.startsAt,
    participants: row.participants,
    quantities: row.quantities,
    selections: row.selections,
    setup: row.setup as AvailabilitySetup,
    resellerRef: row.resellerRef,
    contact,
    questionAnswers: supplierAnswers(row),
  };
}

/** The booking's answers as EngineBooking carries them: top-level booking answers, and each ticket's holder's. */
function supplierAnswers(row: BookingRow): EngineBooking["questionAnswers"] {
  const setup = row.setup as AvailabilitySetup;
  const answered = topLevelAnswers(setup.questions, questionContextOf(row), row.answers);
  return {
    booking: Object.fromEntries(answered.booking),
    tickets: ticketsOf(setup, row.selections, row.quantities).map((ticket) => ({ unit: ticket.unit, answers: Object.fromEntries(answered.participants[ticket.participant] ?? []) })),
  };
}

/** The booking as it stands before a step's transaction, if the caller may act on it. */
async function ownedUnlocked(ctx: BookingContext, bookingId: string): Promise<BookingRow | undefined> {
  if (!isUuid(bookingId)) return undefined;
  const [row] = await bookingRepository.byIds(ctx.database.db, [bookingId]);
  return row && owns(ctx.caller, row) ? row : undefined;
}

/** The supplier was not asked: the step has not yet seen whether the hold needs it. */
const UNASKED = Symbol("supplier hold not asked");
/** The step's answer when it has to ask the supplier first: it runs again once it has. */
const EXTEND_FIRST = Symbol("extend the supplier hold first");
type KeptHold = { expiresAt: Date } | "lapsed" | { refused: EngineRefusal } | undefined | typeof UNASKED;

/**
 * A step on a booking on hold (answers, confirm) that may have to extend its supplier's hold.
 * The supplier is called outside any transaction, so a slow supplier holds no lock; but most
 * bookings need no call (the built-in inventory holds for our whole hour), so the step first runs
 * as it is, and only when its locked read shows a hold to extend does it stop, ask the supplier,
 * and run again with the answer. One read of the booking per step instead of two.
 */
async function keepingUpstreamHold(ctx: BookingContext, bookingId: string, now: Date, step: (kept: KeptHold) => Promise<Outcome | typeof EXTEND_FIRST>): Promise<Outcome> {
  const first = await step(UNASKED);
  if (first !== EXTEND_FIRST) return first;
  const second = await step(await keepUpstreamHold(ctx, bookingId, now));
  if (second === EXTEND_FIRST) throw new Error("a step asked for its supplier hold twice");
  return second;
}

/** Whether this booking's supplier holds it for less than the rest of our hour. */
function holdToExtend(ctx: BookingContext, row: BookingRow, now: Date) {
  if (row.status !== "ON_HOLD" || now >= row.holdExpiresAt) return false;
  const until = row.creationDate.getTime() + BOOKING_HOLD_MS;
  return row.holdExpiresAt.getTime() < until - 60_000 && Boolean(engineOfBooking(row, ctx.loaders.octo).upstream);
}

/**
 * A supplier's hold is kept for the rest of our hour: answering and confirming extend it when it
 * ends sooner. "lapsed" when the supplier has let it go; undefined when there is nothing to do or
 * the supplier cannot be reached now (the hold stays as it is).
 */
async function keepUpstreamHold(ctx: BookingContext, bookingId: string, now: Date): Promise<KeptHold> {
  const row = await ownedUnlocked(ctx, bookingId);
  if (!row || !holdToExtend(ctx, row, now)) return undefined;
  const upstream = engineOfBooking(row, ctx.loaders.octo).upstream!;
  const until = new Date(row.creationDate.getTime() + BOOKING_HOLD_MS);
  try {
    const { expiresAt } = await upstream.extend(engineBooking(row), until, now);
    return { expiresAt: expiresAt < until ? expiresAt : until };
  } catch (error) {
    // A refused key says nothing of the hold: the step is refused, and the hold left as it is.
    if (error instanceof EngineRefusal && error.reason === "ENGINE_REFUSED") return { refused: error };
    if (error instanceof EngineRefusal) return "lapsed";
    if (error instanceof TransientEngineError) return undefined;
    throw error;
  }
}

/** Records a kept hold's new end, or expires a booking whose supplier hold lapsed, in the step's transaction. */
async function applyKeptHold(ctx: BookingContext, tx: Executor, row: BookingRow, kept: KeptHold, now: Date): Promise<Outcome | undefined> {
  if (kept === UNASKED) return undefined;
  if (kept && typeof kept === "object" && "refused" in kept) return { refusal: asRefusal(kept.refused) as GraphQLError };
  if (kept === "lapsed") {
    await expireHold(flowDeps(ctx), tx, row, now);
    return { refusal: bookingRefusal("BOOKING_EXPIRED", `The supplier no longer holds booking ${row.id}: start a new availability`) };
  }
  if (kept && kept.expiresAt > row.holdExpiresAt) {
    row.holdExpiresAt = kept.expiresAt;
    await bookingRepository.update(tx, row.id, { holdExpiresAt: kept.expiresAt });
  }
  return undefined;
}

/**
 * DELETE of a confirmed booking tells its supplier before anything is recorded; true when the
 * booking was confirmed and its supplier has cancelled it. Refusals (the supplier will not, or
 * cannot be reached) are answered with nothing changed.
 */
async function tellSupplierOfCancellation(ctx: BookingContext, bookingId: string, now: Date, reason: string): Promise<boolean> {
  const row = await ownedUnlocked(ctx, bookingId);
  if (!row || row.status !== "CONFIRMED") return false;
  if (!cancellationTerms(row.setup as AvailabilitySetup, row.status, row.startsAt, now, row.language).isCancellable) return false;
  await viaEngine(engineOfBooking(row, ctx.loaders.octo).cancel(ctx.database.db, engineBooking(row), reason));
  return true;
}

/** When the booked activity ends: its start plus the product's duration, unknown without one. */
function endOf(startsAt: Date, duration: string | null): Date | null {
  const ms = isoDurationMs(duration);
  return ms === null ? null : new Date(startsAt.getTime() + ms);
}
