import { isCalendarDate } from "../../../core/calendar-date.js";
import { isUuid } from "../../../core/uuid.js";
import { badInput, notFound } from "../../../core/errors.js";
import type { Executor } from "../../../drizzle/database.js";
import type { FieldProblem } from "../../../core/errors.js";
import { owns } from "../booking.access.js";
import { bookingRefusal, viaEngine } from "../booking.errors.js";
import type { BookingEngineAdapter, Slot } from "../engines/booking.engine.js";
import type { BookingSetup } from "../engines/inventory/booking-setup.schema.js";
import { instantOf } from "../../../core/local-time.js";
import type { BookingContext } from "../booking.loaders.js";
import { isAcceptedCurrency, ACCEPTED_CURRENCIES } from "../pricing/price.rules.js";
import type { ProductFacts } from "../catalogue.facts.js";
import type { AvailabilityRow } from "./availability.repository.js";
import type { Availability, OptionDataType, UnitPriceType } from "./availability.type.js";
import { moneyOf } from "../../common/money.type.js";
import { toGlobalId } from "../../../core/global-id.js";
import { chosenStartTime, slotPriceKey, type AvailabilitySetup, type AvailabilityState, type AvailabilityView } from "./availability.view.js";

/*
 * What the availability steps share: the product and the engine that sell it, the offer of a
 * date, the caller's live availability under its lock, and the refusals of a currency and a date.
 * Each step is a file of its own (`*.step.ts`), gathered by availability.service.ts.
 */

/** Spec 2, Limits: an availability can be worked on for up to one hour. */
export const AVAILABILITY_LIFETIME_MS = 3600 * 1000;
export const DEFAULT_CURRENCY = "EUR";

export interface Sellable {
  product: ProductFacts;
  engine: BookingEngineAdapter;
  setup: BookingSetup;
}

/** The product and the engine that sells it; 404 for an unknown product, 400 when nothing sells it. */
export async function sellable(ctx: BookingContext, productId: number, db: Executor = ctx.database.db): Promise<Sellable> {
  const product = await ctx.loaders.catalogue.product.load(productId);
  if (!product) throw notFound(`Product ${productId} not found`);
  const engine = ctx.loaders.stores.engine(product.bookingEngineName, product.bookingEngineKind);
  const setup = await viaEngine(engine.setupOf(db, product, flowLanguage(ctx)));
  if (!setup || product.deprecated) throw bookingRefusal("PRODUCT_NOT_BOOKABLE", `Product ${productId} cannot be booked through the booking flow`);
  return { product, engine, setup };
}

/**
 * The setup an availability of a date offers: its start times, and, for a supplier's product whose
 * options run at different times, the options with a slot that date and the times of each.
 */
export function offerOf(setup: BookingSetup, slots: Slot[]): AvailabilitySetup {
  const offeredStartTimes = [...new Set(slots.map((slot) => slot.time))].sort();
  const optionKey = setup.remote?.optionKey;
  const slotPrices = slotPricesOf(slots);
  if (!optionKey) return { ...setup, offeredStartTimes, ...slotPrices };
  const startTimesByChoice: Record<string, string[]> = {};
  for (const slot of slots) {
    const times = (startTimesByChoice[slot.choice!] ??= []);
    if (!times.includes(slot.time)) times.push(slot.time);
  }
  for (const times of Object.values(startTimesByChoice)) times.sort();
  const options = setup.options.map((option) =>
    option.key === optionKey ? { ...option, choices: option.choices!.filter((choice) => Object.hasOwn(startTimesByChoice, choice.key)) } : option,
  );
  return { ...setup, options, offeredStartTimes, startTimesByChoice, ...slotPrices };
}

/** The prices and terms a supplier gives per departure, when it gives any. */
export function slotPricesOf(slots: Slot[]): Pick<AvailabilitySetup, "slotPrices" | "slotTerms"> {
  const priced = slots.filter((slot) => slot.unitPrices);
  const termed = slots.filter((slot) => slot.terms);
  return {
    ...(priced.length ? { slotPrices: Object.fromEntries(priced.map((slot) => [slotPriceKey(slot.choice, slot.time), slot.unitPrices!])) } : {}),
    ...(termed.length ? { slotTerms: Object.fromEntries(termed.map((slot) => [slotPriceKey(slot.choice, slot.time), slot.terms!])) } : {}),
  };
}

/**
 * The current setup with what the availability's date offered (a new setup keeps the date's
 * offer), priced at the departures' prices of now when a supplier's `slots` are given.
 */
export function withOffer(current: BookingSetup, offered: AvailabilitySetup, slots?: Slot[]): AvailabilitySetup {
  const prices = slots ? slotPricesOf(slots) : { ...(offered.slotPrices ? { slotPrices: offered.slotPrices } : {}), ...(offered.slotTerms ? { slotTerms: offered.slotTerms } : {}) };
  if (!offered.startTimesByChoice) return { ...current, offeredStartTimes: offered.offeredStartTimes, ...prices };
  return { ...current, options: offered.options, offeredStartTimes: offered.offeredStartTimes, startTimesByChoice: offered.startTimesByChoice, ...prices };
}

/** The slot the selections chose, among a date's slots. */
export function chosenSlot(setup: AvailabilitySetup, selections: Record<string, string>, date: string, slots: Slot[]): Slot | undefined {
  const time = chosenStartTime(setup, selections);
  if (time === undefined) return undefined;
  const startsAt = instantOf(date, time, setup.timeZone).getTime();
  const choice = setup.remote?.optionKey ? selections[setup.remote.optionKey] : undefined;
  return slots.find((slot) => slot.startsAt.getTime() === startsAt && (choice === undefined || slot.choice === choice));
}

/** The language the flow runs in: the caller's first choice (questions come in it to the end). */
export const flowLanguage = (ctx: BookingContext): string => ctx.languages[0] ?? "en";

/** The state of an availability row, or of the availability a booking was made from. */
export function stateOf(row: Pick<AvailabilityRow, "id" | "availabilityDate" | "language" | "currency" | "setup" | "selections" | "quantities" | "expiresAt">): AvailabilityState {
  return {
    id: row.id,
    availabilityDate: row.availabilityDate,
    language: row.language,
    currency: row.currency,
    setup: row.setup as AvailabilitySetup,
    selections: row.selections,
    quantities: row.quantities,
    expiresAt: row.expiresAt,
  };
}

/** The availability as the graph answers it. */
export function toAvailability(view: AvailabilityView): Availability {
  const priced = view.priced;
  return {
    id: toGlobalId("Availability", view.id),
    legacyResourceId: view.id,
    date: view.availabilityDate,
    options: view.availabilityOptions.map((option) => ({
      id: option.id,
      label: option.label,
      level: Number(option.level),
      dataType: option.dataType as OptionDataType,
      choices: option.optionChoices ? Object.entries(option.optionChoices).map(([key, label]) => ({ key, label })) : null,
      selectedValue: option.selectedOptionId ?? null,
      selectedLabel: option.selectedOptionValue ?? null,
    })),
    units: priced
      ? priced.units.map((unit) => ({
          id: unit.id,
          label: unit.label,
          description: unit.description ?? null,
          restrictions: { minQuantity: unit.restrictions.minQuantity, maxQuantity: unit.restrictions.maxQuantity, accompaniedBy: unit.restrictions.accompagniedBy },
          price: moneyOf(unit.price.retail, unit.price.currency),
          quantity: unit.unitQuantity,
          minAge: unit.minAge,
          maxAge: unit.maxAge ?? null,
          priceType: unit.unitPriceType as UnitPriceType,
        }))
      : null,
    maxParticipants: view.maxParticipants,
    minParticipants: view.minParticipants,
    isOptionStepCompleted: view.isOptionStepCompleted,
    isPricingStepCompleted: view.isPricingStepCompleted,
    totalPrice: priced ? moneyOf(priced.total.retail, priced.total.currency) : null,
    exchangeRates: priced ? { date: priced.conversion.date, source: priced.conversion.source } : null,
    participantCount: priced?.participants ?? null,
    pricingIssues: priced ? priced.issues.map((issue) => ({ unitId: issue.unitId ?? null, rule: issue.rule, message: issue.message })) : null,
    expiresAt: view.expiresAt,
  };
}

/** Why a flow may not run in a currency (null: it may), as steps 3a and 3b refuse it. */
export function currencyRefusal(currencyCode: string | null | undefined) {
  if (isAcceptedCurrency(currencyCode ?? DEFAULT_CURRENCY)) return null;
  return bookingRefusal("UNSUPPORTED_CURRENCY", `currencyCode must be one of ${ACCEPTED_CURRENCIES.join(", ")}`, [
    { field: "currencyCode", rule: "acceptedCurrency", message: `one of ${ACCEPTED_CURRENCIES.join(", ")}` },
  ]);
}

export function checkCurrency(currencyCode: string | null | undefined): string {
  const refusal = currencyRefusal(currencyCode);
  if (refusal) throw refusal;
  return currencyCode ?? DEFAULT_CURRENCY;
}

/** Why step 1's range is no range of dates (null: its dates are dates), before its order and length are judged. */
export function dateRangeRefusal(startDate: string | null, endDate: string | null) {
  const problems: FieldProblem[] = [];
  if (startDate !== null && !isCalendarDate(startDate)) problems.push({ field: "startDate", rule: "isoDate", message: "startDate must be a date YYYY-MM-DD" });
  if (endDate !== null && !isCalendarDate(endDate)) problems.push({ field: "endDate", rule: "isoDate", message: "endDate must be a date YYYY-MM-DD" });
  return problems.length ? badInput("Invalid date range", problems) : null;
}

/** Why step 2a's date is none (null: it is one). */
export const dateRefusal = (date: string) => (isCalendarDate(date) ? null : badInput("date must be a date YYYY-MM-DD", [{ field: "date", rule: "isoDate", message: "a date YYYY-MM-DD" }]));

/** Loads the caller's live availability of this product under a row lock. */
export async function workOn(ctx: BookingContext, tx: Executor, productId: number | null, availabilityId: string): Promise<AvailabilityRow> {
  const row = isUuid(availabilityId) ? await ctx.loaders.stores.availabilities.forUpdate(tx, availabilityId) : undefined;
  if (!row || (productId !== null && row.productId !== productId)) throw notFound("No availability has this id");
  if (!owns(ctx.caller, { organisationId: row.organisationId, accountId: row.accountId })) {
    throw bookingRefusal("FORBIDDEN", "This availability belongs to another organisation");
  }
  if (ctx.clock.now() >= row.expiresAt) {
    throw bookingRefusal("AVAILABILITY_EXPIRED", "This availability is more than an hour old: start again with GET options for a new one");
  }
  return row;
}
