import type { Availability, Booking, BookingContact, Pricing } from "@octocloud/types";
import { availabilityLimits } from "../../../common/octo/octo.fields.js";
import { OctoNonConforming, OctoOutcomeUnknown, OctoRejected, OctoUnavailable, type ConfirmationWithAnswers, type OctoClient } from "../../../common/octo/octo.client.js";
import type { OctoQuestionAnswer } from "../../../../core/octo-questions.js";
import { derivedUuid } from "../../booking.ids.js";
import { EngineSecretsUnavailable, type OctoEngines } from "../../../common/octo/octo.engines.js";
import type { ProductFacts } from "../../catalogue.facts.js";
import { ticketsOf, unitsShown, type AvailabilitySetup } from "../../availability/availability.view.js";
import { priceUnits } from "../../pricing/price.rules.js";
import {
  EngineRefusal,
  TransientEngineError,
  type BookingEngineAdapter,
  type ConfirmationOutcome,
  type EngineBooking,
  type EngineContact,
  type HoldRequest,
  type Slot,
  type UpstreamHolds,
} from "../booking.engine.js";
import type { Executor } from "../../../../drizzle/database.js";
import type { BookingSetup } from "../inventory/booking-setup.schema.js";
import { localDate, zonedText } from "../../../../core/local-time.js";
import { chosenOctoOption, FREESALE_PLACES, setupOfOctoProduct } from "./octo.setup.js";

/** The longest hold OCTO suppliers are asked for: our own hold is an hour. */
const MAX_HOLD_MINUTES = 60;

/**
 * The supplier refused the service's key (UNAUTHORIZED, FORBIDDEN): the engine's connection is at
 * fault, not the request, at whatever step it happens (docs/octo-engine.md, "Errors").
 */
function credentialRefusal(engineName: string, rejected: OctoRejected): EngineRefusal {
  return new EngineRefusal("ENGINE_REFUSED", `${refusedKey(engineName, rejected)}. Nothing was booked or changed; the engine's key must be registered again`);
}

const refusedKey = (engineName: string, rejected: OctoRejected) => `Supplier system ${engineName} refused the service's credentials (${rejected.error}: ${rejected.errorMessage})`;

/**
 * A failure of the supplier system as the flow sees it: an OCTO refusal the caller can act on, a
 * refused key (ENGINE_REFUSED), or a transient failure (unreachable, timed out, answered something
 * that is not OCTO) to retry.
 */
function engineFailure(engineName: string, error: unknown, refusal: (rejected: OctoRejected) => EngineRefusal): Error {
  if (error instanceof OctoRejected) return error.refusesCredentials ? credentialRefusal(engineName, error) : refusal(error);
  if (error instanceof OctoUnavailable || error instanceof OctoOutcomeUnknown) return new TransientEngineError(`Supplier system ${engineName} could not be reached: ${error.message}`);
  if (error instanceof OctoNonConforming) return new TransientEngineError(`Supplier system ${engineName} answered outside the OCTO standard: ${error.message}`);
  if (error instanceof EngineSecretsUnavailable) return new TransientEngineError(error.message);
  return error instanceof Error ? error : new Error(String(error));
}

/** OCTO's refusals of a reservation (docs/octo-engine.md, "Errors"). */
function holdRefusal(rejected: OctoRejected): EngineRefusal {
  const says = `The supplier refused: ${rejected.errorMessage}`;
  switch (rejected.error) {
    case "INVALID_PRODUCT_ID":
    case "INVALID_OPTION_ID":
    case "INVALID_AVAILABILITY_ID":
      return new EngineRefusal("INVALID_AVAILABILITY", says, [{ field: "availabilityId", rule: "supplierAvailability", message: says }]);
    case "INVALID_UNIT_ID":
      return new EngineRefusal("INVALID_QUANTITIES", says, [{ field: "unitId", rule: "supplierUnit", message: says }]);
    default:
      // Sold out, too few places, a hold the supplier cannot make (UNPROCESSABLE_ENTITY and the rest).
      return new EngineRefusal("NO_LONGER_AVAILABLE", says);
  }
}

function contactOf(contact: EngineContact): BookingContact {
  const fullName = [contact.firstName, contact.lastName].filter(Boolean).join(" ");
  return {
    ...(fullName ? { fullName } : {}),
    ...(contact.firstName ? { firstName: contact.firstName } : {}),
    ...(contact.lastName ? { lastName: contact.lastName } : {}),
    ...(contact.emailAddress ? { emailAddress: contact.emailAddress } : {}),
    ...(contact.phoneNumber ? { phoneNumber: contact.phoneNumber } : {}),
    ...(contact.postalCode ? { postalCode: contact.postalCode } : {}),
    ...(contact.country ? { country: contact.country } : {}),
  };
}

/** Codes a venue scans; a longer value is no ticket code. */
const SCANNED_FORMATS = new Set(["QRCODE", "CODE128", "AZTECCODE"]);
const MAX_CODE_LENGTH = 500;

/** The supplier's voucher: a PDF it serves over http(s), and the code its ticket is scanned by. */
export function supplierVoucher(ticket: Booking["voucher"]): { url?: string; code?: string } | undefined {
  const options = ticket?.deliveryOptions ?? [];
  const url = options.find((o) => o.deliveryFormat === "PDF_URL" && /^https?:\/\/\S+$/.test(o.deliveryValue) && o.deliveryValue.length <= 2048)?.deliveryValue;
  const code = options.find((o) => SCANNED_FORMATS.has(o.deliveryFormat) && o.deliveryValue.length > 0 && o.deliveryValue.length <= MAX_CODE_LENGTH)?.deliveryValue;
  return url || code ? { ...(url ? { url } : {}), ...(code ? { code } : {}) } : undefined;
}

/** The supplier's price of one of each unit at a departure, in the product's currency; undefined when it gives none. */
function departurePrices(unitPricing: Availability["unitPricing"], currency: string): Record<string, number> | undefined {
  const prices = (unitPricing ?? []).filter((price) => price.currency === currency);
  return prices.length ? Object.fromEntries(prices.map((price) => [price.unitId, price.retail / 10 ** price.currencyPrecision])) : undefined;
}

/** An amount in the currency's major unit: 6500 at precision 2 is 65. */
const major = (pricing: Pricing): number => pricing.retail / 10 ** pricing.currencyPrecision;

/**
 * The total a supplier holds a booking at, in the currency's major unit: the booking's `pricing`,
 * or, when that is absent or zero, the sum of its unit items' (suppliers such as OCTO's own mock
 * answer a booking-level total of 0 and price each unit item). Undefined when the supplier states
 * no price in the currency: none at all, or, for a product priced per booking, zero everywhere
 * (its unit items carry no price by the standard, so a zero total states nothing). The departure's
 * price read just before the hold (`POST /availability`) is then the price of record.
 */
export function heldTotal(booking: Booking, currency: string, perBooking: boolean): number | undefined {
  const stated = booking.pricing && booking.pricing.currency === currency ? booking.pricing : undefined;
  if (stated && stated.retail > 0) return major(stated);
  const items = booking.unitItems.map((item) => item.pricing).filter((pricing): pricing is Pricing => Boolean(pricing) && pricing!.currency === currency);
  const sum = items.reduce((total, pricing) => total + major(pricing), 0);
  if (sum > 0) return sum;
  if (perBooking || (!stated && !items.length)) return undefined;
  return 0;
}

/** A held ticket's uuid: the same at the hold and at the confirmation, so the supplier sees the same unit items. */
const unitItemUuid = (bookingId: string, index: number) => derivedUuid("unit-item", bookingId, String(index));

/** An answer as the supplier's input type writes it: a choice's own value, a local date-time without zone. */
function octoValue(setup: AvailabilitySetup, key: string, value: string): OctoQuestionAnswer {
  const remote = setup.remote!.questions![key];
  const question = [...setup.questions.booking, ...setup.questions.participant].find((candidate) => candidate.key === key);
  let written = value;
  if (remote.values) written = remote.values[value] ?? value;
  else if (question?.dataType === "DATE_AND_TIME") written = value.slice(0, 16);
  return { questionId: remote.id, value: written };
}

/** The answers of the supplier's questions, on the booking and on each held ticket (`octo/questions`). */
function confirmationItems(booking: EngineBooking): Pick<ConfirmationWithAnswers, "questionAnswers" | "unitItems"> {
  const asked = booking.setup.remote?.questions;
  if (!asked) return {};
  const answersOf = (answers: Record<string, string>) => Object.entries(answers).filter(([key]) => Object.hasOwn(asked, key)).map(([key, value]) => octoValue(booking.setup, key, value));
  return {
    questionAnswers: answersOf(booking.questionAnswers.booking),
    // Every held ticket again, with its uuid: OCTO reads the list as the booking's unit items.
    unitItems: booking.questionAnswers.tickets.map((ticket, index) => ({ uuid: unitItemUuid(booking.id, index), unitId: ticket.unit, questionAnswers: answersOf(ticket.answers) })),
  };
}

const confirmed = (booking: Booking): ConfirmationOutcome => {
  const voucher = supplierVoucher(booking.voucher);
  return { outcome: "CONFIRMED", bookingCode: booking.supplierReference ?? booking.id, bookingExternalId: booking.id, ...(voucher ? { voucher } : {}) };
};

/**
 * Books the products of OCTO engines in the supplier's system (issue 14, docs/octo-engine.md):
 * the setup from `GET /products/{id}`, dates from the calendar, slots from availability, the hold
 * as `POST /bookings` with our booking id as uuid, confirmation and cancellation by uuid. The
 * client times out, retries and reconciles every call; this maps OCTO answers onto the flow.
 */
export function octoEngine(octo: OctoEngines): BookingEngineAdapter {
  return new OctoEngineAdapter(new OctoClients(octo));
}

/** The client of each OCTO engine; an engine that cannot be reached is the flow's refusal. */
class OctoClients {
  constructor(private readonly octo: OctoEngines) {}

  async of(engineName: string): Promise<OctoClient> {
    const client = await this.octo.clientFor(engineName).catch((error: unknown) => {
      throw engineFailure(engineName, error, () => new EngineRefusal("PRODUCT_NOT_BOOKABLE", "The supplier system is not registered"));
    });
    if (!client) throw new EngineRefusal("PRODUCT_NOT_BOOKABLE", `Engine ${engineName} is not a registered OCTO engine`);
    return client;
  }

  /** The booking's engine: the product's facts are not needed to reach it once booked. */
  ofBooking(booking: Pick<EngineBooking, "engineName">): Promise<OctoClient> {
    return this.of(booking.engineName);
  }
}

/** Minutes of a hold from now to `until`, as OCTO's expirationMinutes takes them. */
const holdMinutes = (until: Date, now: Date) => Math.max(1, Math.min(MAX_HOLD_MINUTES, Math.ceil((until.getTime() - now.getTime()) / 60_000)));

class OctoEngineAdapter implements BookingEngineAdapter {
  readonly name = "OCTO";
  readonly upstream: OctoHolds;

  constructor(private readonly clients: OctoClients) {
    this.upstream = new OctoHolds(clients);
  }

  async setupOf(_db: Executor, product: ProductFacts, language?: string): Promise<BookingSetup | undefined> {
    if (product.bookingEngineKind !== "OCTO") return undefined;
    const client = await this.clients.of(product.bookingEngineName);
    try {
      // In the flow's language: the supplier's question texts come as it writes them.
      return setupOfOctoProduct((await client.product(product.externalId, language)).body);
    } catch (error) {
      // A product the supplier no longer has is simply not bookable; a refused key is the engine's failure.
      if (error instanceof OctoRejected && !error.refusesCredentials) return undefined;
      throw engineFailure(product.bookingEngineName, error, () => new EngineRefusal("PRODUCT_NOT_BOOKABLE", "The supplier refused"));
    }
  }

  async availableDates(_db: Executor, product: ProductFacts, setup: BookingSetup, from: string, to: string, now: Date): Promise<string[]> {
    const client = await this.clients.of(product.bookingEngineName);
    const today = localDate(now, setup.timeZone);
    const start = from > today ? from : today;
    if (start > to) return [];
    const dates = new Set<string>();
    for (const optionId of setup.remote!.optionIds) {
      const answer = await client.calendar({ productId: setup.remote!.productId, optionId, localDateStart: start, localDateEnd: to }).catch((error: unknown) => {
        throw engineFailure(product.bookingEngineName, error, (rejected) => new EngineRefusal("PRODUCT_NOT_BOOKABLE", `The supplier refused: ${rejected.errorMessage}`));
      });
      for (const day of answer.body) {
        if (day.available && (day.vacancies ?? FREESALE_PLACES) >= setup.minParticipants && day.localDate >= start && day.localDate <= to) dates.add(day.localDate);
      }
    }
    return [...dates].sort();
  }

  /** The supplier says which departures are still on sale (an opening-hours day is, after its midnight start). */
  async slots(_db: Executor, product: ProductFacts, setup: BookingSetup, date: string): Promise<Slot[]> {
    const client = await this.clients.of(product.bookingEngineName);
    const slots: Slot[] = [];
    for (const optionId of setup.remote!.optionIds) {
      const answer = await client
        .availability({ productId: setup.remote!.productId, optionId, localDateStart: date, localDateEnd: date })
        .catch((error: unknown) => {
          throw engineFailure(product.bookingEngineName, error, (rejected) => new EngineRefusal("NO_LONGER_AVAILABLE", `The supplier refused: ${rejected.errorMessage}`));
        });
      for (const availability of answer.body) {
        const slot = slotOf(availability, setup, optionId, date);
        if (slot) slots.push(slot);
      }
    }
    return slots.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  }

  // Places are held in the supplier's system by `upstream.hold`, never in our inventory.
  async reserve(): Promise<boolean> {
    return true;
  }
  async release(): Promise<void> {}

  async confirm(_db: Executor, booking: EngineBooking): Promise<ConfirmationOutcome> {
    const client = await this.clients.ofBooking(booking);
    try {
      const answer = await client.confirm(booking.id, { resellerReference: booking.resellerRef, contact: contactOf(booking.contact), ...confirmationItems(booking) });
      if (answer.body.status === "CONFIRMED") return confirmed(answer.body);
      return { outcome: "REJECTED", reason: `The supplier answered the confirmation with status ${answer.body.status}` };
    } catch (error) {
      if (!(error instanceof OctoRejected)) throw engineFailure(booking.engineName, error, () => new EngineRefusal("BOOKING_REJECTED", "refused"));
      // An OCTO refusal (an expired hold, a cancelled booking, a refused key) means the supplier did
      // not confirm: the hold is let go before the booking is refused, so no places stay held for it.
      await this.upstream.release(booking, "The confirmation was refused");
      if (error.refusesCredentials) return { outcome: "REJECTED", reason: `ENGINE_REFUSED: ${refusedKey(booking.engineName, error)}; its hold was let go` };
      return { outcome: "REJECTED", reason: `The supplier refused the confirmation: ${error.errorMessage}` };
    }
  }

  async cancel(_db: Executor, booking: EngineBooking, reason: string): Promise<void> {
    const client = await this.clients.ofBooking(booking);
    await client.cancel(booking.id, { reason }).catch((error: unknown) => {
      throw engineFailure(booking.engineName, error, (rejected) => new EngineRefusal("BOOKING_NOT_CANCELLABLE", `The supplier will not cancel booking ${booking.id}: ${rejected.errorMessage}`));
    });
  }
}

/** A departure the supplier answered for the date, as a slot; undefined for one not on that date. */
function slotOf(availability: Availability, setup: BookingSetup, optionId: string, date: string): Slot | undefined {
  const remote = setup.remote!;
  const startsAt = new Date(availability.localDateTimeStart);
  if (Number.isNaN(startsAt.getTime()) || availability.localDateTimeStart.slice(0, 10) !== date) return undefined;
  const unitPrices = departurePrices(availability.unitPricing, setup.currency);
  // Priced per booking, the departure's `pricing` is the booking's price there.
  const fee = remote.bookingPrices && availability.pricing?.currency === setup.currency ? major(availability.pricing) : undefined;
  const terms = { ...(fee !== undefined ? { fee } : {}), ...availabilityLimits(availability) };
  return {
    startsAt,
    time: availability.localDateTimeStart.slice(11, 16),
    local: zonedText(startsAt, setup.timeZone),
    remaining: availability.available ? (availability.vacancies ?? FREESALE_PLACES) : 0,
    ...(remote.optionKey ? { choice: optionId } : {}),
    ref: availability.id,
    ...(unitPrices ? { unitPrices } : {}),
    ...(Object.keys(terms).length ? { terms } : {}),
  };
}

/** Places held in the supplier's system: held before our booking is written, kept, let go, and settled. */
class OctoHolds implements UpstreamHolds {
  constructor(private readonly clients: OctoClients) {}

  async hold(request: HoldRequest): Promise<{ expiresAt: Date }> {
    const { product, setup, slot, quantities } = request;
    const client = await this.clients.of(product.bookingEngineName);
    const unitItems = ticketsOf(setup, request.selections, quantities).map((ticket, index) => ({ uuid: unitItemUuid(request.bookingId, index), unitId: ticket.unit }));
    let answer;
    try {
      answer = await client.reserve({
        uuid: request.bookingId,
        productId: setup.remote!.productId,
        optionId: chosenOctoOption(setup, request.selections),
        availabilityId: slot.ref,
        expirationMinutes: holdMinutes(request.until, request.now),
        resellerReference: request.resellerRef,
        unitItems,
      });
    } catch (error) {
      throw engineFailure(product.bookingEngineName, error, holdRefusal);
    }
    const held = answer.body;
    const release = (why: string) => this.release({ id: request.bookingId, engineName: product.bookingEngineName }, why);
    if (held.status !== "ON_HOLD" || !held.utcExpiresAt) {
      await release("not on hold");
      throw new EngineRefusal("NO_LONGER_AVAILABLE", `The supplier did not hold the places (status ${held.status})`);
    }
    // The price the supplier holds at must be the one the buyer saw (spec 2: 9573), in cents.
    const total = heldTotal(held, setup.currency, Boolean(setup.remote!.bookingPrices));
    if (total !== undefined) {
      const expected = priceUnits(unitsShown(setup, request.selections), quantities, setup.currency, "en").total.retail;
      if (Math.round(total * 100) !== Math.round(expected * 100)) {
        await release("price changed");
        throw new EngineRefusal("PRICES_CHANGED", `The supplier's price changed since the selection: ${total} ${setup.currency} for these tickets (was ${expected}). Start a new availability to see the new prices`);
      }
    }
    return { expiresAt: new Date(held.utcExpiresAt) };
  }

  async extend(booking: EngineBooking, until: Date, now: Date): Promise<{ expiresAt: Date }> {
    const client = await this.clients.ofBooking(booking);
    try {
      const answer = await client.extend(booking.id, holdMinutes(until, now));
      return { expiresAt: new Date(answer.body.utcExpiresAt ?? until) };
    } catch (error) {
      throw engineFailure(booking.engineName, error, (rejected) => new EngineRefusal("BOOKING_EXPIRED", `The supplier no longer holds booking ${booking.id}: ${rejected.errorMessage}`));
    }
  }

  async release(booking: Pick<EngineBooking, "id" | "engineName">, reason: string): Promise<void> {
    try {
      const client = await this.clients.ofBooking(booking);
      await client.cancel(booking.id, { reason });
    } catch {
      // A hold lapses by itself at its utcExpiresAt; the client has logged the failure.
    }
  }

  async settle(booking: EngineBooking): Promise<ConfirmationOutcome | undefined> {
    const client = await this.clients.ofBooking(booking);
    let current: Booking;
    try {
      current = (await client.booking(booking.id)).body;
    } catch (error) {
      // Never received: certainly not confirmed.
      if (error instanceof OctoRejected && error.error === "INVALID_BOOKING_UUID") return { outcome: "REJECTED", reason: "The supplier has no such booking" };
      return undefined;
    }
    if (current.status === "CONFIRMED" || current.status === "REDEEMED") return confirmed(current);
    if (current.status === "ON_HOLD" || current.status === "PENDING") {
      // Let the hold go before telling anyone the booking is refused, so it cannot be confirmed later.
      try {
        const cancelled = await client.cancel(booking.id, { reason: "The confirmation could not be completed" });
        if (cancelled.body.status !== "CANCELLED") return undefined;
      } catch {
        return undefined;
      }
    }
    return { outcome: "REJECTED", reason: `The supplier could not confirm the booking (it is ${current.status})` };
  }
}
