import { randomUUID } from "node:crypto";
import type { GraphQLError } from "graphql";
import { commissionRate } from "../../../core/commission.js";
import { badInput } from "../../../core/errors.js";
import { isoDurationMs } from "../../../core/iso-duration.js";
import { zonedText } from "../../../core/local-time.js";
import { isUuid } from "../../../core/uuid.js";
import type { Executor } from "../../../drizzle/database.js";
import { availabilityView, unitsShown, type AvailabilitySetup } from "../availability/availability.view.js";
import type { AvailabilityRow } from "../availability/availability.repository.js";
import { chosenSlot, flowLanguage, sellable, stateOf, withOffer, type Sellable } from "../availability/availability.steps.js";
import { bookingAccess, owns, type Owner } from "../booking.access.js";
import { bookingRefusal, viaEngine } from "../booking.errors.js";
import type { ProductFacts } from "../catalogue.facts.js";
import type { BookingEngineAdapter, Slot } from "../engines/booking.engine.js";
import type { BookingSetup } from "../engines/inventory/booking-setup.schema.js";
import type { BookingContext } from "../booking.loaders.js";
import { priceUnits, type PricedAvailability } from "../pricing/price.rules.js";
import { BOOKING_HOLD_MS, checkReference, expireHold, view, type Outcome } from "./booking.steps.js";
import type { BookingRow } from "./booking.repository.js";
import type { Booking, CreateBookingInput } from "./booking.type.js";

/*
 * Step 4, POST bookings: the availability becomes a booking ON_HOLD, its places held for an hour.
 */

type Ready = {
  availability: AvailabilityRow;
  offered: AvailabilitySetup;
  product: ProductFacts;
  engine: BookingEngineAdapter;
  setup: BookingSetup;
  repriced: PricedAvailability;
  slot: Slot;
};

/**
 * The availability is locked first, so two identical requests queue: the second finds the
 * booking the first made and returns it. Refusals that change the availability (9573 new prices)
 * commit that change before answering. A supplier system that holds places itself is asked
 * between two transactions: after every check, before the booking is written.
 */
export async function createBooking(ctx: BookingContext, input: CreateBookingInput): Promise<Booking> {
  const owner = bookingAccess(ctx.caller);
  const problems = [...checkReference(input.resellerRef, "resellerRef", true), ...checkReference(input.externalClientId, "externalClientId", false)];
  if (problems.length) throw badInput(problems.map((p) => p.message).join("; "), problems);
  if (!isUuid(input.availabilityId)) throw bookingRefusal("INVALID_AVAILABILITY", "availabilityId is not an availability id");
  const now = ctx.clock.now();
  const { stores } = ctx.loaders;
  // The catalogue's facts are asked (and kept by the request's loader) before the transaction:
  // no call to another subgraph waits on a lock held here, and the embedded database runs one
  // transaction at a time. So is a supplier's system, for the product's setup and the date's slots.
  const unlocked = await stores.availabilities.byId(ctx.database.db, input.availabilityId);
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
    const booking = await stores.bookings.insert(tx, newBooking(ctx, owner, input, ready, randomUUID(), new Date(now.getTime() + BOOKING_HOLD_MS), now));
    await stores.announce(tx, booking);
    return { booking };
  });
  if ("refusal" in outcome) throw outcome.refusal;
  if ("ready" in outcome) return view(ctx, await holdUpstream(ctx, owner, input, outcome.ready, now));
  return view(ctx, outcome.booking);
}

/** What POST bookings asks a supplier's system before its transaction; undefined for engines that hold in ours. */
type UpstreamFacts = { current: Sellable | undefined; slots: Slot[] };

async function upstreamFacts(ctx: BookingContext, product: ProductFacts, date: string, now: Date): Promise<UpstreamFacts | undefined> {
  if (!ctx.loaders.stores.engine(product.bookingEngineName, product.bookingEngineKind).upstream) return undefined;
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
 * made, the refusals of a used, expired or incomplete availability, then what the product offers now.
 */
async function checkBookable(ctx: BookingContext, tx: Executor, input: CreateBookingInput, now: Date, upstream: UpstreamFacts | undefined): Promise<Outcome | { ready: Ready }> {
  const availability = await ctx.loaders.stores.availabilities.forUpdate(tx, input.availabilityId);
  if (!availability) return { refusal: bookingRefusal("INVALID_AVAILABILITY", `Availability ${input.availabilityId} does not exist`) };
  if (!owns(ctx.caller, availability)) return { refusal: bookingRefusal("FORBIDDEN", "This availability belongs to another organisation") };
  const earlier = await earlierBooking(ctx, tx, availability, input, now);
  if (earlier) return earlier;
  if (now >= availability.expiresAt) {
    return { refusal: bookingRefusal("AVAILABILITY_EXPIRED", "This availability is more than an hour old: start again with GET options") };
  }
  const seen = availabilityView(stateOf(availability));
  if (!seen.isOptionStepCompleted || !seen.isPricingStepCompleted || !availability.currency) {
    return { refusal: bookingRefusal("AVAILABILITY_INCOMPLETE", "Set every option and bookable quantities before booking") };
  }
  if (input.currencyCode && input.currencyCode !== availability.currency) {
    return { refusal: bookingRefusal("CURRENCY_CHANGE", `This flow runs in ${availability.currency}; start a new availability for another currency`) };
  }
  if (ctx.languages.length > 1 && flowLanguage(ctx) !== availability.language) {
    return { refusal: bookingRefusal("LANGUAGE_CHANGE", `This flow runs in '${availability.language}'; the request asks for '${flowLanguage(ctx)}'`) };
  }
  return checkOffer(ctx, tx, availability, now, upstream);
}

/** The product's offer of now against the availability's: still sold, same prices (9573), a slot with places. */
async function checkOffer(ctx: BookingContext, tx: Executor, availability: AvailabilityRow, now: Date, upstream: UpstreamFacts | undefined): Promise<Outcome | { ready: Ready }> {
  let current;
  try {
    current = upstream ? upstream.current : await sellable(ctx, availability.productId, tx);
  } catch {
    current = undefined;
  }
  if (!current) return { refusal: bookingRefusal("NO_LONGER_AVAILABLE", "The product is no longer sold") };
  const { product, engine, setup } = current;
  // Prices are compared with the product's setup of now, not the one the availability began with.
  const offered = withOffer(setup, stateOf(availability).setup, upstream?.slots);
  const repriced = priceUnits(unitsShown(offered, availability.selections), availability.quantities, availability.currency!, availability.language);
  if (!repriced.isPricingStepCompleted) return { refusal: bookingRefusal("NO_LONGER_AVAILABLE", "The chosen tickets are no longer offered") };
  if (repriced.total.retail !== availability.quotedTotal) {
    await ctx.loaders.stores.availabilities.update(tx, availability.id, { setup: offered, quotedTotal: repriced.total.retail });
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
  const existing = await ctx.loaders.stores.bookings.onAvailability(tx, availability.id);
  const live = existing.find((b) => b.status === "ON_HOLD" && now < b.holdExpiresAt);
  if (live) {
    if (live.resellerRef === input.resellerRef) return { booking: live };
    return { refusal: bookingRefusal("AVAILABILITY_USED", `Availability ${availability.id} is held by booking ${live.id} under another resellerRef`) };
  }
  const went = (...statuses: BookingRow["status"][]) => existing.find((b) => statuses.includes(b.status));
  const confirmed = went("PENDING_CONFIRM", "CONFIRMED", "REDEEMED");
  if (confirmed) return { refusal: bookingRefusal("BOOKING_ALREADY_CONFIRMED", `Booking ${confirmed.id} on this availability is already confirmed`) };
  const lapsed = went("ON_HOLD");
  if (lapsed) await expireHold(ctx.loaders.stores, tx, lapsed, now);
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
  const { stores } = ctx.loaders;
  const id = randomUUID();
  const until = new Date(now.getTime() + BOOKING_HOLD_MS);
  const held = await viaEngine(
    upstream.hold({ bookingId: id, product: ready.product, setup: ready.offered, slot: ready.slot, selections: ready.availability.selections, quantities: ready.availability.quantities, resellerRef: input.resellerRef, until, now }),
  );
  const holdExpiresAt = held.expiresAt < until ? held.expiresAt : until;
  const outcome = await ctx.database.db.transaction(async (tx): Promise<Outcome> => {
    const availability = await stores.availabilities.forUpdate(tx, input.availabilityId);
    const earlier = availability && (await earlierBooking(ctx, tx, availability, input, now));
    if (earlier) return earlier;
    const booking = await stores.bookings.insert(tx, newBooking(ctx, owner, input, ready, id, holdExpiresAt, now));
    await stores.announce(tx, booking);
    return { booking };
  });
  if ("booking" in outcome && outcome.booking.id === id) return outcome.booking;
  await upstream.release({ id, engineName: ready.product.bookingEngineName }, "Another booking of the availability was made first");
  if ("refusal" in outcome) throw outcome.refusal;
  return outcome.booking;
}

/** When the booked activity ends: its start plus the product's duration, unknown without one. */
function endOf(startsAt: Date, duration: string | null): Date | null {
  const ms = isoDurationMs(duration);
  return ms === null ? null : new Date(startsAt.getTime() + ms);
}
