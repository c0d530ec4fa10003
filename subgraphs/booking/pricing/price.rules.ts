import type { FieldProblem } from "../../../core/errors.js";
import { applyConversion, conversion, type Conversion } from "../../../core/exchange-rates.js";
import { localized, type BookingSetup, type UnitSetup } from "../engines/inventory/booking-setup.schema.js";

/**
 * The pricing step of the booking flow (spec 2, "3a. Get prices" and "3b. Set prices"): the unit
 * options of an availability priced for the chosen quantities, and the rules a PUT prices call
 * must satisfy. Pure: no database, no clock; the caller loads the setup, the current quantities
 * and the slot's remaining capacity, and stores what applyQuantities returns.
 */

/** The currencies 3a/3b accept for currencyCode (spec 2, "3a. Get prices"). */
export const ACCEPTED_CURRENCIES = [
  "AED", "AUD", "BRL", "CAD", "CHF", "DKK", "EGP", "EUR", "FJD", "GBP", "INR", "MXN",
  "NAD", "NOK", "NPR", "NZD", "PEN", "QAR", "SAR", "SEK", "SGD", "THB", "USD", "ZAR",
] as const;
export type AcceptedCurrency = (typeof ACCEPTED_CURRENCIES)[number];

export const isAcceptedCurrency = (code: string): code is AcceptedCurrency =>
  (ACCEPTED_CURRENCIES as readonly string[]).includes(code);

/** Unit key -> chosen quantity (absolute); a unit that is absent has quantity 0. */
export type Quantities = Record<string, number>;

export interface UnitOptionView {
  /** The unit key. */
  id: string;
  label: string;
  description?: string;
  /** `accompagniedBy` is spelled so by the contract; its elements are unit ids (keys). */
  restrictions: { minQuantity: number; maxQuantity: number; accompagniedBy: string[] };
  price: { retail: number; currency: string };
  unitQuantity: number;
  minAge: number;
  maxAge?: number;
  unitPriceType: "PER_PERSON" | "GROUP";
}

/** Why the quantities are not (yet) bookable. */
export interface PricingIssue {
  unitId?: string;
  rule: string;
  message: string;
}

export interface PricedAvailability {
  units: UnitOptionView[];
  total: { retail: number; currency: string };
  participants: number;
  isPricingStepCompleted: boolean;
  issues: PricingIssue[];
  /** The rates the amounts were converted at. */
  conversion: Conversion;
}

/**
 * Prices every unit for the chosen quantities in `currency`.
 *
 * Every amount is converted from the setup's currency component by component (unit price, group
 * price, fixed fee), each rounded to cents by convert(), and then added up in integer cents, so
 * the total is exactly the sum of the converted components shown and carries no float drift.
 *
 * At the rates in force, or at the given ones (a booking keeps those of its creation). Throws
 * when a rate is missing: callers validate `currency` first (isAcceptedCurrency), and setups are
 * accepted only in currencies with a rate.
 */
export function priceUnits(
  setup: BookingSetup,
  quantities: Quantities,
  currency: string,
  language: string,
  rates: Conversion | undefined = conversion(setup.currency, currency),
): PricedAvailability {
  if (!rates || rates.from !== setup.currency || rates.to !== currency) throw new Error(`No exchange rate from ${setup.currency} to ${currency}`);
  const toCurrencyCents = (amount: number): number => Math.round(applyConversion(amount, rates) * 100);
  // Keys of units no longer in the setup (the setup changed since the last PUT) are ignored.
  const quantity = (unit: UnitSetup): number => quantityOf(quantities, unit.key);
  const participants = countParticipants(setup, (key) => quantityOf(quantities, key));
  const fixedFeeCents = toCurrencyCents(setup.fixedFee);

  // The fixed fee is paid once per booking, so it is part of the total only when someone books.
  let totalCents = participants > 0 ? fixedFeeCents : 0;
  const units = setup.units.map((unit): UnitOptionView => {
    const priceCents = toCurrencyCents(unit.price);
    const q = quantity(unit);
    let retailCents = priceCents;
    if (unit.unitPriceType === "PER_PERSON") {
      totalCents += priceCents * q;
      // Fixed plus variable pricing makes the per-person price non-linear in the participant
      // count (spec 2, "3b. Set prices"): each participant's share of the fixed fee is added. The
      // share is rounded to cents, so this retail is indicative only; the total is exact and is
      // what the client pays. With nobody chosen yet the whole fee is shown, the price of
      // booking alone, so the first price a buyer sees is never below what one person pays.
      if (fixedFeeCents > 0) retailCents += participants > 0 ? Math.round(fixedFeeCents / participants) : fixedFeeCents;
    } else if (q > 0) {
      // A GROUP price is for the whole group whatever its size, paid once when the group is chosen.
      totalCents += priceCents;
    }
    const view: UnitOptionView = {
      id: unit.key,
      label: localized(unit.label, language) ?? unit.key,
      restrictions: { minQuantity: unit.minQuantity, maxQuantity: unit.maxQuantity, accompagniedBy: [...unit.accompaniedBy] },
      price: { retail: retailCents / 100, currency },
      unitQuantity: q,
      minAge: unit.minAge,
      unitPriceType: unit.unitPriceType,
    };
    const description = localized(unit.description, language);
    if (description !== undefined) view.description = description;
    if (unit.maxAge !== undefined) view.maxAge = unit.maxAge;
    return view;
  });

  const issues = pricingIssues(setup, (key) => quantityOf(quantities, key), participants);
  return {
    units,
    total: { retail: totalCents / 100, currency },
    participants,
    isPricingStepCompleted: issues.length === 0,
    issues,
    conversion: rates,
  };
}

/**
 * Applies PUT prices entries (absolute quantities) in order; hard violations are refused as
 * problems and nothing is applied when any exists.
 *
 * Only states that can never become bookable by further changes are refused here; rules that a
 * later entry or call can satisfy (minimums, companions) are soft and reported by priceUnits,
 * because the spec asks clients to update values one at a time ("a change can alter the rules for
 * other options"), e.g. children before adults.
 *
 * `remainingCapacity` is the number of places of the slot this availability may still take
 * (the caller leaves this availability's own hold, if any, out of the places taken).
 *
 * On success the returned quantities hold every unit of the setup (0 when not chosen) and drop
 * keys of units no longer in the setup; on refusal they are a copy of `current`.
 */
export function applyQuantities(
  setup: BookingSetup,
  current: Quantities,
  changes: { unitId: string; value: number }[],
  remainingCapacity: number,
): { quantities: Quantities; problems: FieldProblem[] } {
  const entries = entryProblems(setup, current, changes);
  // Aggregate rules are checked on the state after all entries, not after each: the entries of
  // one call are applied together, so a call that lowers one unit and raises another within the
  // limits is accepted whatever its order.
  const problems = changes.length > 0 ? [...entries.problems, ...aggregateProblems(setup, entries, changes.length - 1, remainingCapacity)] : entries.problems;
  if (problems.length > 0) return { quantities: { ...current }, problems };
  // Object.fromEntries defines own properties, so even a unit keyed "__proto__" is kept as data.
  return { quantities: Object.fromEntries(entries.next), problems };
}

/**
 * Each entry judged alone, and the quantities after the valid ones. The entries aggregate problems
 * are attributed to: the last one that raised a quantity, and the last one that chose a group.
 */
function entryProblems(setup: BookingSetup, current: Quantities, changes: { unitId: string; value: number }[]) {
  // A Map, not an object lookup: unit keys such as "constructor" must not hit Object.prototype.
  const unitsByKey = new Map(setup.units.map((unit) => [unit.key, unit] as const));
  const next = new Map(setup.units.map((unit) => [unit.key, quantityOf(current, unit.key)] as const));
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  let lastRaise = -1;
  let lastGroupChoice = -1;
  changes.forEach(({ unitId, value }, index) => {
    const unit = typeof unitId === "string" ? unitsByKey.get(unitId) : undefined;
    const found = problems.length;
    if (unit === undefined) {
      // Only units of the product's setup can be booked.
      problems.push({ field: `[${index}].unitId`, rule: "unknownUnit", message: `No unit option "${String(unitId)}" on this availability` });
    } else if (seen.has(unit.key)) {
      // With absolute values two entries for one unit contradict each other; refusing avoids
      // silently keeping whichever came last.
      problems.push({ field: `[${index}].unitId`, rule: "duplicateUnit", message: `Unit option "${unit.key}" is given more than once` });
    }
    if (unit !== undefined) seen.add(unit.key);
    const valueProblem = quantityProblem(unit, value, index);
    if (valueProblem) problems.push(valueProblem);
    if (problems.length > found || unit === undefined) return;
    if (value > (next.get(unit.key) ?? 0)) lastRaise = index;
    if (unit.unitPriceType === "GROUP" && value > 0) lastGroupChoice = index;
    next.set(unit.key, value);
  });
  return { next, problems, lastRaise, lastGroupChoice };
}

function quantityProblem(unit: UnitSetup | undefined, value: number, index: number): FieldProblem | undefined {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    // The value is the absolute quantity of the unit (decided: not a change), so it is a count.
    return { field: `[${index}].value`, rule: "nonNegativeInteger", message: "A quantity is an integer of at least 0" };
  }
  if (unit !== undefined && value > unit.maxQuantity) {
    // No later change can make a quantity above the unit's maximum bookable (spec 2, Limits).
    return { field: `[${index}].value`, rule: "maxQuantity", message: `At most ${unit.maxQuantity} of unit option "${unit.key}" can be booked` };
  }
  return undefined;
}

/** The rules of the whole party: participants, tickets, places left, one group. */
function aggregateProblems(setup: BookingSetup, entries: ReturnType<typeof entryProblems>, last: number, remainingCapacity: number): FieldProblem[] {
  const { next, lastRaise, lastGroupChoice } = entries;
  const problems: FieldProblem[] = [];
  const participants = countParticipants(setup, (key) => next.get(key) ?? 0);
  const raiseField = `[${lastRaise >= 0 ? lastRaise : last}].value`;
  if (participants > setup.maxParticipants) {
    // Adding participants can only make it worse (spec 2, Limits: maxParticipants overall).
    problems.push({ field: raiseField, rule: "maxParticipants", message: `At most ${setup.maxParticipants} participants can book together; ${participants} chosen` });
  }
  const tickets = countTickets(setup, (key) => next.get(key) ?? 0);
  if (setup.ticketLimits?.max !== undefined && tickets > setup.ticketLimits.max) {
    // A supplier's limit of tickets (unit items) per booking, of the option or of the departure.
    problems.push({ field: raiseField, rule: "maxUnits", message: `At most ${setup.ticketLimits.max} tickets can be booked together here; ${tickets} chosen` });
  }
  if (participants > remainingCapacity) {
    // Places another booking holds cannot be sold twice.
    problems.push({ field: raiseField, rule: "capacity", message: `Only ${Math.max(0, remainingCapacity)} places are left on this date; ${participants} chosen` });
  }
  const groups = setup.units.filter((unit) => unit.unitPriceType === "GROUP" && (next.get(unit.key) ?? 0) > 0);
  if (groups.length > 1) {
    // A booking is a single group (spec 2, "3b. Set prices").
    problems.push({
      field: `[${lastGroupChoice >= 0 ? lastGroupChoice : last}].value`,
      rule: "singleGroup",
      message: `A booking is a single group; ${groups.map((unit) => `"${unit.key}"`).join(" and ")} are both chosen`,
    });
  }
  return problems;
}

/** Own properties only: a unit keyed "constructor" or "toString" must not read Object.prototype. */
function quantityOf(quantities: Quantities, key: string): number {
  return Object.hasOwn(quantities, key) ? quantities[key] : 0;
}

/** A GROUP unit's quantity is the number of people in the group, so every quantity is people. */
function countParticipants(setup: BookingSetup, quantity: (key: string) => number): number {
  return setup.units.reduce((sum, unit) => sum + quantity(unit.key) * (unit.paxCount ?? 1), 0);
}

/** Tickets chosen: a supplier counts each one a unit item, whatever the people it admits. */
function countTickets(setup: BookingSetup, quantity: (key: string) => number): number {
  return setup.units.reduce((sum, unit) => sum + quantity(unit.key), 0);
}

/** The soft rules: what must still change before the quantities are bookable. */
function pricingIssues(setup: BookingSetup, quantity: (key: string) => number, participants: number): PricingIssue[] {
  const issues: PricingIssue[] = [];
  if (participants === 0) {
    // Nothing to book yet; minParticipants (always at least 1) would only repeat this.
    issues.push({ rule: "noParticipants", message: "Choose at least one participant" });
  } else if (participants < setup.minParticipants) {
    // Spec 2 enforces minimum participants; soft because more can still be added.
    issues.push({ rule: "minParticipants", message: `At least ${setup.minParticipants} participants are required; ${participants} chosen` });
  }
  // Hard rules again, for quantities stored before the setup changed (setProductBookingSetup can
  // run mid-flow): applyQuantities refuses them, but stale ones must not be reported bookable.
  if (participants > setup.maxParticipants) {
    issues.push({ rule: "maxParticipants", message: `At most ${setup.maxParticipants} participants can book together; ${participants} chosen` });
  }
  const tickets = countTickets(setup, quantity);
  if (participants > 0 && setup.ticketLimits?.min !== undefined && tickets < setup.ticketLimits.min) {
    issues.push({ rule: "minUnits", message: `At least ${setup.ticketLimits.min} tickets are required; ${tickets} chosen` });
  }
  if (setup.ticketLimits?.max !== undefined && tickets > setup.ticketLimits.max) {
    issues.push({ rule: "maxUnits", message: `At most ${setup.ticketLimits.max} tickets can be booked together here; ${tickets} chosen` });
  }
  const chosenGroups = setup.units.filter((unit) => unit.unitPriceType === "GROUP" && quantity(unit.key) > 0);
  if (chosenGroups.length > 1) issues.push({ rule: "singleGroup", message: "A booking is a single group; choose one group option" });

  for (const unit of setup.units) {
    const q = quantity(unit.key);
    // PER_PERSON: the minimum always applies, so an "Adult, min 1" unit makes an adult required.
    // GROUP: minQuantity and maxQuantity are the group's size limits, which apply only once that
    // group is chosen (spec 2, "3b. Set prices").
    const minimumApplies = unit.unitPriceType === "PER_PERSON" || q > 0;
    if (minimumApplies && q < unit.minQuantity) {
      issues.push({ unitId: unit.key, rule: "minQuantity", message: `At least ${unit.minQuantity} of unit option "${unit.key}" are required; ${q} chosen` });
    }
    if (q > unit.maxQuantity) {
      issues.push({ unitId: unit.key, rule: "maxQuantity", message: `At most ${unit.maxQuantity} of unit option "${unit.key}" can be booked; ${q} chosen` });
    }
    // Ratios between ticket types (spec 2): a unit that must be accompanied needs at least one
    // participant of the accompanying units, and at most maxPerCompanion of it per companion.
    // Soft, so a client may set children before adults.
    if (q > 0 && unit.accompaniedBy.length > 0) {
      const companions = unit.accompaniedBy.reduce((sum, key) => sum + quantity(key), 0);
      const names = unit.accompaniedBy.map((key) => `"${key}"`).join(" or ");
      if (companions < 1) {
        issues.push({ unitId: unit.key, rule: "accompaniedBy", message: `Unit option "${unit.key}" must be accompanied by ${names}` });
      } else if (unit.maxPerCompanion !== undefined && q > companions * unit.maxPerCompanion) {
        issues.push({
          unitId: unit.key,
          rule: "accompaniedBy",
          message: `At most ${unit.maxPerCompanion} of unit option "${unit.key}" per participant of ${names}; ${q} for ${companions}`,
        });
      }
    }
  }
  return issues;
}
