import type { Availability, Pricing } from "@octocloud/types";
import type { OptionWithQuestions, ProductWithQuestions } from "../../../core/octo-questions.js";

/**
 * Fields of the OCTO specification that suppliers send and `@octocloud/types` 2.x leaves out of
 * its types: durations as an amount and a unit (`durationAmount`, `durationUnit`, as Ventrata and
 * the 1.x content capability write them), an option's limits of people (`minPaxCount`,
 * `maxPaxCount`) and a departure's (`maxPaxCount`). The client hands answers on as the supplier
 * wrote them, so these are read here, leniently: a value that is not a sound number is no limit
 * and no duration, never an error, since the fields are optional in every version of the standard.
 */

/** The largest count or duration taken from a supplier; beyond it the value is nonsense, and ignored. */
const MAX_COUNT = 100_000;
const MINUTES_PER = { minute: 1, hour: 60, day: 1440 } as const;

/** A whole number from 0 to MAX_COUNT, as a number or a numeric string ("2"); undefined otherwise. */
function count(value: unknown): number | undefined {
  const number = typeof value === "number" ? value : typeof value === "string" && /^\s*\d{1,6}(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
  return Number.isFinite(number) && number >= 0 && number <= MAX_COUNT ? number : undefined;
}

/** Minutes of `durationAmount` and `durationUnit` (minute, hour or day), when both are sound and above zero. */
function amountAndUnit(source: object): number | undefined {
  const { durationAmount, durationUnit } = source as { durationAmount?: unknown; durationUnit?: unknown };
  const amount = count(durationAmount);
  // Own keys only: a unit named "__proto__" or "constructor" must not read Object.prototype.
  const unit = typeof durationUnit === "string" ? durationUnit.toLowerCase() : undefined;
  const perUnit = unit !== undefined && Object.hasOwn(MINUTES_PER, unit) ? MINUTES_PER[unit as keyof typeof MINUTES_PER] : undefined;
  return amount && perUnit ? Math.round(amount * perUnit) : undefined;
}

/** Whole minutes above zero from `durationMinutesFrom`. */
function minutesFrom(source: object): number | undefined {
  const minutes = count((source as { durationMinutesFrom?: unknown }).durationMinutesFrom);
  return minutes ? Math.round(minutes) : undefined;
}

/**
 * How long the product lasts, in minutes: `durationMinutesFrom` of the product, else of its default
 * option; else `durationAmount` and `durationUnit` of the product, else of its default option.
 * Undefined when the supplier states none (zero counts as none: suppliers send "0 hours" for
 * products without a fixed length).
 */
export function octoDurationMinutes(product: ProductWithQuestions): number | undefined {
  const option = product.options.find((candidate) => candidate.default) ?? product.options[0];
  return minutesFrom(product) ?? (option && minutesFrom(option)) ?? amountAndUnit(product) ?? (option && amountAndUnit(option));
}

/** An option's limits of one booking: tickets (`minUnits`, `maxUnits`) and people (`minPaxCount`, `maxPaxCount`). */
export function optionLimits(option: OptionWithQuestions): { minUnits?: number; maxUnits?: number; minPax?: number; maxPax?: number } {
  const restrictions = option.restrictions as { minUnits?: unknown; maxUnits?: unknown; minPaxCount?: unknown; maxPaxCount?: unknown };
  const whole = (value: unknown) => {
    const number = count(value);
    return number === undefined ? undefined : Math.floor(number);
  };
  const limits = { minUnits: whole(restrictions.minUnits), maxUnits: whole(restrictions.maxUnits), minPax: whole(restrictions.minPaxCount), maxPax: whole(restrictions.maxPaxCount) };
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}

/** A departure's own limits of one booking: `maxUnits` (tickets) and `maxPaxCount` (people). */
export function availabilityLimits(availability: Availability): { maxUnits?: number; maxPax?: number } {
  const maxUnits = count(availability.maxUnits);
  const maxPax = count((availability as { maxPaxCount?: unknown }).maxPaxCount);
  return { ...(maxUnits !== undefined ? { maxUnits: Math.floor(maxUnits) } : {}), ...(maxPax !== undefined ? { maxPax: Math.floor(maxPax) } : {}) };
}

/** OCTO `pricingPer: BOOKING`: the price is the option's (`pricingFrom`) and the departure's (`pricing`), whatever the number of units. */
export const pricedPerBooking = (product: ProductWithQuestions): boolean => product.pricingPer === "BOOKING";

/** The "from" prices that carry a product's price: each option's when it is priced per booking, else each unit's. */
export function fromPrices(product: ProductWithQuestions): Pricing[] {
  return pricedPerBooking(product)
    ? product.options.flatMap((option) => option.pricingFrom ?? option.pricing ?? [])
    : product.options.flatMap((option) => option.units.flatMap((unit) => unit.pricingFrom ?? unit.pricing ?? []));
}
