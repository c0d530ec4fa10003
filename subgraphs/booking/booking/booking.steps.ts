import type { GraphQLError } from "graphql";
import { notFound, type FieldProblem } from "../../../core/errors.js";
import { isUuid } from "../../../core/uuid.js";
import type { Executor } from "../../../drizzle/database.js";
import type { AvailabilitySetup } from "../availability/availability.view.js";
import { AVAILABILITY_LIFETIME_MS } from "../availability/availability.steps.js";
import { owns } from "../booking.access.js";
import { bookingRefusal } from "../booking.errors.js";
import type { BookingStores } from "../booking.stores.js";
import type { BookingEngineAdapter, EngineBooking } from "../engines/booking.engine.js";
import type { BookingContext } from "../booking.loaders.js";
import { customerAnswer, topLevelAnswers } from "../questions/question.rules.js";
import { ticketsOf } from "../availability/availability.view.js";
import { questionContextOf, toBooking } from "./booking.view.js";
import type { BookingRow } from "./booking.repository.js";
import type { Booking } from "./booking.type.js";

/*
 * What every step on a booking shares: finding the caller's booking, giving places back, expiring
 * a lapsed hold, and the engine that sells it.
 */

const REFERENCE = /^[A-Za-z0-9]{1,255}$/;

/** A reseller's or client's reference: 1 to 255 letters or digits. */
export function checkReference(value: string | null | undefined, field: string, required: boolean): FieldProblem[] {
  if (value === null || value === undefined || value === "") {
    return required ? [{ field, rule: "required", message: `${field} is required` }] : [];
  }
  return REFERENCE.test(value) ? [] : [{ field, rule: "alphanumeric", message: `${field} must be 1 to 255 letters or digits` }];
}

/** An ON_HOLD booking keeps its places this long; unconfirmed after that, it expires (EXPIRED). */
export const BOOKING_HOLD_MS = AVAILABILITY_LIFETIME_MS;

/** What a step's transaction decided: the booking it leaves, or the refusal it answers once committed. */
export type Outcome = { booking: BookingRow } | { refusal: GraphQLError };

export const view = (ctx: BookingContext, row: BookingRow, db: Executor = ctx.database.db): Promise<Booking> =>
  toBooking(row, { voucherSecret: () => ctx.loaders.stores.voucherSecret(db), publicUrl: ctx.publicUrl, now: ctx.clock.now() });

/** The caller's booking under a row lock: 404 unknown, 403 (6501) another organisation's. */
export async function lockOwned(ctx: BookingContext, tx: Executor, bookingId: string): Promise<BookingRow> {
  const row = isUuid(bookingId) ? await ctx.loaders.stores.bookings.forUpdate(tx, bookingId) : undefined;
  if (!row) throw notFound("No booking has this id");
  if (!owns(ctx.caller, row)) throw bookingRefusal("FORBIDDEN", "This booking belongs to another organisation");
  return row;
}

/** The booking as it stands before a step's transaction, if the caller may act on it. */
export async function ownedUnlocked(ctx: BookingContext, bookingId: string): Promise<BookingRow | undefined> {
  if (!isUuid(bookingId)) return undefined;
  const [row] = await ctx.loaders.stores.bookings.byIds(ctx.database.db, [bookingId]);
  return row && owns(ctx.caller, row) ? row : undefined;
}

/** The adapter of a booking's engine: one built from a supplier's product is that supplier's. */
export function engineOfBooking(row: Pick<BookingRow, "engineName" | "setup">, stores: Pick<BookingStores, "engine">): BookingEngineAdapter {
  return stores.engine(row.engineName, (row.setup as AvailabilitySetup).remote ? "OCTO" : "INVENTORY");
}

/** Gives a booking's places back to its slot (cancellation, expiry, refusal); a supplier's hold is let go separately. */
export async function releasePlaces(stores: BookingStores, tx: Executor, row: BookingRow): Promise<void> {
  await engineOfBooking(row, stores).release(tx, row.productId, row.startsAt, row.participants);
}

/** Moves an ON_HOLD booking whose hold has lapsed to EXPIRED, in the caller's transaction (a supplier's hold lapses with it). */
export async function expireHold(stores: BookingStores, tx: Executor, row: BookingRow, now: Date): Promise<BookingRow | undefined> {
  const expired = await stores.bookings.transition(tx, row.id, "ON_HOLD", { status: "EXPIRED", expiredAt: now, updateDate: now });
  if (!expired) return undefined;
  await releasePlaces(stores, tx, row);
  await stores.announce(tx, expired);
  return expired;
}

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
