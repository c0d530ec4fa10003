import type { Conversion } from "../../../core/exchange-rates.js";
import type { FieldProblem } from "../../../core/errors.js";
import { derivedUuid } from "../booking.ids.js";
import { localized, type BookingSetup, type OptionSetup } from "../engines/inventory/booking-setup.schema.js";
import { priceUnits, type PricedAvailability } from "../pricing/price.rules.js";

/**
 * The setup an availability was made with, plus the start times its date offered: one list, or,
 * for a supplier's product whose options run at different times, a list per choice of the
 * option that picks them (`remote.optionKey`), offered once that option is set.
 */
export type AvailabilitySetup = BookingSetup & {
  offeredStartTimes: string[];
  startTimesByChoice?: Record<string, string[]>;
  /**
   * A supplier's prices per departure (OCTO prices each availability), by `slotPriceKey`: unit key
   * to price in the setup's currency. A unit absent here keeps its setup price.
   */
  slotPrices?: Record<string, Record<string, number>>;
  /** A supplier's terms per departure, by `slotPriceKey`: its price of a booking (per-booking pricing) and its own limits of one booking. */
  slotTerms?: Record<string, SlotTerms>;
};

export interface SlotTerms {
  fee?: number;
  maxUnits?: number;
  maxPax?: number;
}

/** The key of a departure's prices: the supplier option it belongs to (if the setup has several) and its start time. */
export const slotPriceKey = (choice: string | undefined, time: string) => `${choice ?? ""}@${time}`;

/** The key of the option a date with several start times offers first. */
export const START_TIME_OPTION = "__startTime";

const startTimeLabel: Record<string, string> = { en: "Start time", fr: "Heure de début", de: "Startzeit", es: "Hora de inicio", it: "Ora di inizio", nl: "Begintijd" };

export interface AvailabilityState {
  id: string;
  availabilityDate: string;
  language: string;
  currency: string | null;
  setup: AvailabilitySetup;
  selections: Record<string, string>;
  quantities: Record<string, number>;
  expiresAt: Date;
  /** A booking's availability is priced at the rates of the booking's creation; absent: the rates in force. */
  rates?: Conversion;
}

export interface OptionView {
  id: string;
  label: string;
  level: string;
  dataType: "OPTIONS" | "TEXT" | "BOOLEAN";
  optionChoices?: Record<string, string>;
  selectedOptionId?: string;
  selectedOptionValue?: string;
}

export interface AvailabilityView {
  id: string;
  availabilityDate: string;
  availabilityOptions: OptionView[];
  /** Absent until the prices step (no currency chosen yet). */
  priced?: PricedAvailability;
  minParticipants: number;
  maxParticipants: number;
  isOptionStepCompleted: boolean;
  isPricingStepCompleted: boolean;
  expiresAt: Date;
}

/** The start times offered given the choices so far (none yet when they depend on an option not set). */
function offeredTimes(setup: AvailabilitySetup, selections: Record<string, string>): string[] {
  const picker = setup.startTimesByChoice && setup.remote?.optionKey;
  if (!picker) return setup.offeredStartTimes;
  const choice = selections[picker];
  return choice === undefined ? [] : (setup.startTimesByChoice![choice] ?? []);
}

/**
 * Every option shown given the choices so far: the start time first when the date has several,
 * or right after the option that picks the start times; one whose `shownWhen` does not hold stays hidden.
 */
export function visibleOptions(setup: AvailabilitySetup, selections: Record<string, string>): OptionSetup[] {
  const times = offeredTimes(setup, selections);
  const startTime: OptionSetup[] =
    times.length > 1 ? [{ key: START_TIME_OPTION, label: startTimeLabel, dataType: "OPTIONS", choices: times.map((time) => ({ key: time, label: time })) }] : [];
  const all = setup.startTimesByChoice ? [...setup.options, ...startTime] : [...startTime, ...setup.options];
  return all.filter((option) => !option.shownWhen || selections[option.shownWhen.option] === option.shownWhen.equals);
}

/**
 * The setup the tickets are priced with: units shown only for another option's choice are left
 * out, a supplier's prices for the chosen departure replace the setup's, and a supplier's option
 * and departure bring their price of a booking and their limits of one booking.
 */
export function unitsShown(setup: AvailabilitySetup, selections: Record<string, string>): AvailabilitySetup {
  const remote = setup.remote;
  const choice = remote?.optionKey ? selections[remote.optionKey] : remote?.optionIds[0];
  const time = (setup.slotPrices || setup.slotTerms) && chosenStartTime(setup, selections);
  const key = time ? slotPriceKey(remote?.optionKey && selections[remote.optionKey], time) : undefined;
  const prices = key && setup.slotPrices ? setup.slotPrices[key] : undefined;
  const terms = key && setup.slotTerms && Object.hasOwn(setup.slotTerms, key) ? setup.slotTerms[key] : undefined;
  const limits = choice !== undefined && remote?.limits && Object.hasOwn(remote.limits, choice) ? remote.limits[choice] : undefined;
  const fee = terms?.fee ?? (choice !== undefined && remote?.bookingPrices && Object.hasOwn(remote.bookingPrices, choice) ? remote.bookingPrices[choice] : undefined);
  if (!prices && !terms && !limits && fee === undefined && !setup.units.some((unit) => unit.shownWhen)) return setup;
  const units = setup.units.filter((unit) => !unit.shownWhen || selections[unit.shownWhen.option] === unit.shownWhen.equals);
  const maxUnits = lowest(limits?.maxUnits, terms?.maxUnits);
  return {
    ...setup,
    units: prices ? units.map((unit) => (Object.hasOwn(prices, unit.key) ? { ...unit, price: prices[unit.key] } : unit)) : units,
    ...(fee !== undefined ? { fixedFee: fee } : {}),
    minParticipants: Math.max(setup.minParticipants, limits?.minPax ?? 0),
    maxParticipants: lowest(setup.maxParticipants, limits?.maxPax, terms?.maxPax)!,
    ...(limits?.minUnits !== undefined || maxUnits !== undefined ? { ticketLimits: { ...(limits?.minUnits !== undefined ? { min: limits.minUnits } : {}), ...(maxUnits !== undefined ? { max: maxUnits } : {}) } } : {}),
  };
}

/** The strictest of a few upper bounds, undefined when none is given. */
function lowest(...bounds: (number | undefined)[]): number | undefined {
  const given = bounds.filter((bound): bound is number => bound !== undefined);
  return given.length ? Math.min(...given) : undefined;
}

/**
 * The tickets chosen, in the order a supplier is sent them: each unit shown, as many as its
 * quantity, with the index of the participant holding it (the first of the people it admits).
 */
export function ticketsOf(setup: AvailabilitySetup, selections: Record<string, string>, quantities: Record<string, number>): { unit: string; participant: number }[] {
  const tickets: { unit: string; participant: number }[] = [];
  let participant = 0;
  for (const unit of unitsShown(setup, selections).units) {
    const count = Object.hasOwn(quantities, unit.key) ? quantities[unit.key] : 0;
    for (let i = 0; i < count; i++) {
      tickets.push({ unit: unit.key, participant });
      participant += unit.paxCount ?? 1;
    }
  }
  return tickets;
}

export const optionId = (availabilityId: string, key: string) => derivedUuid("option", availabilityId, key);

export function isOptionStepCompleted(setup: AvailabilitySetup, selections: Record<string, string>): boolean {
  return visibleOptions(setup, selections).every((option) => selections[option.key] !== undefined);
}

/** The local start time chosen (or the only one offered). */
export function chosenStartTime(setup: AvailabilitySetup, selections: Record<string, string>): string | undefined {
  const times = offeredTimes(setup, selections);
  return times.length === 1 ? times[0] : selections[START_TIME_OPTION];
}

/**
 * The availability as the client sees it: the options already set plus the next one to set
 * (spec 2, 2a/2b: one level at a time), and the tickets once a currency is chosen.
 */
export function availabilityView(state: AvailabilityState): AvailabilityView {
  const visible = visibleOptions(state.setup, state.selections);
  const set = visible.filter((o) => state.selections[o.key] !== undefined);
  const next = visible.find((o) => state.selections[o.key] === undefined);
  const shown = next ? [...set, next] : set;
  const availabilityOptions = shown.map((option, index): OptionView => {
    const selected = state.selections[option.key];
    const choices = option.choices?.map((c) => [c.key, localized(c.label, state.language) ?? c.key] as const);
    return {
      id: optionId(state.id, option.key),
      label: localized(option.label, state.language) ?? option.key,
      level: String(index),
      dataType: option.dataType,
      ...(choices ? { optionChoices: Object.fromEntries(choices) } : {}),
      ...(selected !== undefined
        ? { selectedOptionId: selected, selectedOptionValue: choices?.find(([key]) => key === selected)?.[1] ?? selected }
        : {}),
    };
  });
  const optionsDone = next === undefined;
  const pricedSetup = unitsShown(state.setup, state.selections);
  const priced = state.currency ? priceUnits(pricedSetup, state.quantities, state.currency, state.language, state.rates ?? undefined) : undefined;
  return {
    id: state.id,
    availabilityDate: state.availabilityDate,
    availabilityOptions,
    priced,
    // The chosen option's and departure's bounds once they are chosen (a supplier's limits differ per option).
    minParticipants: pricedSetup.minParticipants,
    maxParticipants: pricedSetup.maxParticipants,
    isOptionStepCompleted: optionsDone,
    isPricingStepCompleted: optionsDone && (priced?.isPricingStepCompleted ?? false),
    expiresAt: state.expiresAt,
  };
}

/**
 * Checks one PUT options call: the option must be one the client has been shown (the next
 * one or one already set), and the value must fit its type. Returns the new selections, with
 * choices of options that a changed answer hides again removed.
 */
export function applyOption(
  state: AvailabilityState,
  optionIdValue: string,
  value: string,
): { selections: Record<string, string> } | { problem: FieldProblem } {
  const visible = visibleOptions(state.setup, state.selections);
  const offered = visible.filter((o, i) => state.selections[o.key] !== undefined || i === visible.findIndex((v) => state.selections[v.key] === undefined));
  const option = offered.find((o) => optionId(state.id, o.key) === optionIdValue);
  if (!option) return { problem: { field: "optionId", rule: "offeredOption", message: "optionId is not an option this availability has offered (set options one level at a time)" } };
  let normalized: string;
  if (option.dataType === "OPTIONS") {
    if (!option.choices!.some((c) => c.key === value)) {
      return { problem: { field: "value", rule: "optionChoice", message: `value must be one of the choice keys: ${option.choices!.map((c) => c.key).join(", ")}` } };
    }
    normalized = value;
  } else if (option.dataType === "BOOLEAN") {
    const lowered = value.trim().toLowerCase();
    if (lowered !== "true" && lowered !== "false") return { problem: { field: "value", rule: "boolean", message: "value must be true or false" } };
    normalized = lowered;
  } else {
    normalized = value.trim();
    if (normalized.length < 1 || normalized.length > 255) return { problem: { field: "value", rule: "length", message: "value must be 1 to 255 characters" } };
  }
  let selections = { ...state.selections, [option.key]: normalized };
  // A changed choice can hide options further down, or change their choices (start times per
  // supplier option); their old answers no longer apply.
  for (;;) {
    const shown = new Map(visibleOptions(state.setup, selections).map((o) => [o.key, o]));
    const stillValid = ([key, value]: [string, string]) => {
      const visible = shown.get(key);
      return visible !== undefined && (visible.dataType !== "OPTIONS" || visible.choices!.some((c) => c.key === value));
    };
    const kept = Object.fromEntries(Object.entries(selections).filter(stillValid));
    if (Object.keys(kept).length === Object.keys(selections).length) break;
    selections = kept;
  }
  return { selections };
}
