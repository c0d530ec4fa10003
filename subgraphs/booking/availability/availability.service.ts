import { isCalendarDate } from "../../../core/calendar-date.js";
import { isUuid } from "../../../core/uuid.js";
import { randomUUID } from "node:crypto";
import { badInput, notFound } from "../../../core/errors.js";
import type { Database, Executor } from "../../../drizzle/database.js";
import type { Caller } from "../../../core/caller.js";
import type { FieldProblem } from "../../../core/errors.js";
import { bookingAccess, owns } from "../booking.access.js";
import { bookingRefusal, viaEngine } from "../booking.errors.js";
import type { BookingEngineAdapter, Slot } from "../engines/booking.engine.js";
import type { BookingSetup } from "../engines/inventory/booking-setup.schema.js";
import { addDays, endOfMonth, instantOf, localDate } from "../../../core/local-time.js";
import type { BookingContext } from "../booking.loaders.js";
import { applyQuantities, isAcceptedCurrency, ACCEPTED_CURRENCIES } from "../pricing/price.rules.js";
import type { ProductFacts } from "../catalogue.facts.js";
import { availabilityRepository, type AvailabilityRow } from "./availability.repository.js";
import type { Availability, OptionDataType, UnitPriceType } from "./availability.type.js";
import { moneyOf } from "../../common/money.type.js";
import { toGlobalId } from "../../../core/global-id.js";
import {
  applyOption,
  availabilityView,
  chosenStartTime,
  isOptionStepCompleted,
  slotPriceKey,
  unitsShown,
  type AvailabilitySetup,
  type AvailabilityState,
  type AvailabilityView,
} from "./availability.view.js";

/** Spec 2, Limits: an availability can be worked on for up to one hour. */
export const AVAILABILITY_LIFETIME_MS = 3600 * 1000;
/** The widest range of one dates call; a year covers the next-availability look-ahead. */
const MAX_RANGE_DAYS = 366;
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

function checkCurrency(currencyCode: string | null | undefined): string {
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
async function workOn(ctx: BookingContext, tx: Executor, productId: number | null, availabilityId: string): Promise<AvailabilityRow> {
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

export const availabilityService = {
  /** The availability when the caller owns it, else null: `node(id)` and federation references. */
  async visible(ctx: BookingContext, availabilityId: string): Promise<Availability | null> {
    const row = isUuid(availabilityId) ? await ctx.loaders.stores.availabilities.byId(ctx.database.db, availabilityId) : undefined;
    if (!row || !owns(ctx.caller, { organisationId: row.organisationId, accountId: row.accountId })) return null;
    return toAvailability(availabilityView(stateOf(row)));
  },

  /** Which of these availabilities the caller owns (the node subgraph's check). */
  async ownedKeys(database: Database, caller: Caller, keys: readonly string[]): Promise<Set<string>> {
    const rows = await availabilityRepository.byIds(database.db, keys.filter(isUuid));
    return new Set(rows.filter((row) => owns(caller, { organisationId: row.organisationId, accountId: row.accountId })).map((row) => row.id));
  },

  /** Step 1: dates with places in a range; defaults to the 31 days from today. */
  async dates(ctx: BookingContext, productId: number, startDate: string | null, endDate: string | null): Promise<string[]> {
    bookingAccess(ctx.caller);
    const { product, engine, setup } = await sellable(ctx, productId);
    const today = localDate(ctx.clock.now(), setup.timeZone);
    const refusal = dateRangeRefusal(startDate, endDate);
    if (refusal) throw refusal;
    const from = startDate ?? today;
    const to = endDate ?? addDays(from, 30);
    if (to < from) throw bookingRefusal("INVALID_DATE_RANGE", "endDate is before startDate", [{ field: "endDate", rule: "notBeforeStartDate", message: "endDate must not be before startDate" }]);
    if (to > addDays(from, MAX_RANGE_DAYS)) {
      throw bookingRefusal("INVALID_DATE_RANGE", `A range covers at most ${MAX_RANGE_DAYS} days`, [{ field: "endDate", rule: "maxRange", message: `at most ${MAX_RANGE_DAYS} days after startDate` }]);
    }
    return viaEngine(engine.availableDates(ctx.database.db, product, setup, from, to, ctx.clock.now()));
  },

  /** Step 1 alternative: the first month with dates within a year, from its first date to its end. */
  async nextDates(ctx: BookingContext, productId: number): Promise<string[]> {
    bookingAccess(ctx.caller);
    const { product, engine, setup } = await sellable(ctx, productId);
    const today = localDate(ctx.clock.now(), setup.timeZone);
    const lastDay = addDays(today, 365);
    // Month by month, so that a product sold daily costs one month's look-up, not a year's. The
    // first date must fall within the year; its month is then listed to its last day (spec 2,
    // Limits: "1 year, to the end of the first month with dates").
    for (let from = today; from <= lastDay; from = addDays(endOfMonth(from), 1)) {
      const dates = await viaEngine(engine.availableDates(ctx.database.db, product, setup, from, endOfMonth(from), ctx.clock.now()));
      if (dates.length && dates[0] <= lastDay) return dates;
    }
    return [];
  },

  /** Step 2a: makes the availability of a date and offers its first option. */
  async create(ctx: BookingContext, productId: number, date: string): Promise<Availability> {
    const owner = bookingAccess(ctx.caller);
    const refusal = dateRefusal(date);
    if (refusal) throw refusal;
    const { product, engine, setup } = await sellable(ctx, productId);
    const now = ctx.clock.now();
    const slots = (await viaEngine(engine.slots(ctx.database.db, product, setup, date, now))).filter((slot) => slot.remaining >= setup.minParticipants);
    if (!slots.length) throw bookingRefusal("DATE_NOT_AVAILABLE", `Product ${productId} has no places on ${date}`);
    const row = await ctx.loaders.stores.availabilities.insert(ctx.database.db, {
      id: randomUUID(),
      productId,
      organisationId: owner.organisationId,
      accountId: owner.accountId,
      engineName: product.bookingEngineName,
      availabilityDate: date,
      language: flowLanguage(ctx),
      setup: offerOf(setup, slots),
      createdAt: now,
      expiresAt: new Date(now.getTime() + AVAILABILITY_LIFETIME_MS),
    });
    return toAvailability(availabilityView(stateOf(row)));
  },

  /** Step 2b: sets one option; the next level, if any, comes back. */
  async setOption(ctx: BookingContext, productId: number | null, availabilityId: string, optionId: string, value: string): Promise<Availability> {
    bookingAccess(ctx.caller);
    return ctx.database.db.transaction(async (tx) => {
      const row = await workOn(ctx, tx, productId, availabilityId);
      const result = applyOption(stateOf(row), optionId, value);
      if ("problem" in result) throw bookingRefusal("INVALID_OPTION", result.problem.message, [result.problem]);
      const updated = await ctx.loaders.stores.availabilities.update(tx, row.id, { selections: result.selections });
      return toAvailability(availabilityView(stateOf(updated)));
    });
  },

  /** Step 3a: the tickets in a currency, which then holds to the end of the flow. */
  async prices(ctx: BookingContext, productId: number | null, availabilityId: string, currencyCode: string | null): Promise<Availability> {
    bookingAccess(ctx.caller);
    const currency = checkCurrency(currencyCode);
    return ctx.database.db.transaction(async (tx) => {
      const row = await workOn(ctx, tx, productId, availabilityId);
      const state = stateOf(row);
      if (!isOptionStepCompleted(state.setup, state.selections)) throw bookingRefusal("OPTIONS_INCOMPLETE", "Set every option before asking for prices");
      if (row.currency && row.currency !== currency) {
        throw bookingRefusal("CURRENCY_CHANGE", `This flow runs in ${row.currency}; start a new availability for another currency`);
      }
      const view = availabilityView(stateOf({ ...row, currency }));
      // The currency (first GET) and the quoted total (when prices have moved) in one statement.
      const changes: Partial<Pick<typeof row, "currency" | "quotedTotal">> = {};
      if (!row.currency) changes.currency = currency;
      if (view.priced && row.quotedTotal !== view.priced.total.retail) changes.quotedTotal = view.priced.total.retail;
      if (Object.keys(changes).length) await ctx.loaders.stores.availabilities.update(tx, row.id, changes);
      return toAvailability(view);
    });
  },

  /** Step 3b: quantities, checked against the unit rules and the places left in the slot. */
  async setQuantities(
    ctx: BookingContext,
    expectedProductId: number | null,
    availabilityId: string,
    currencyCode: string | null,
    changes: { unitId: string; value: number }[],
  ): Promise<Availability> {
    bookingAccess(ctx.caller);
    const currency = checkCurrency(currencyCode);
    const found = isUuid(availabilityId) ? await ctx.loaders.stores.availabilities.byId(ctx.database.db, availabilityId) : undefined;
    if (!found || (expectedProductId !== null && found.productId !== expectedProductId)) throw notFound("No availability has this id");
    const productId = found.productId;
    const { product, engine, setup: currentSetup } = await sellable(ctx, productId);
    // A supplier's system is asked before the transaction (a network call must not hold one); a
    // date's slots cover whatever start time the selections hold by then.
    const unlocked = engine.upstream ? found : undefined;
    const upstreamSlots = unlocked ? await viaEngine(engine.slots(ctx.database.db, product, currentSetup, unlocked.availabilityDate, ctx.clock.now())) : undefined;
    return ctx.database.db.transaction(async (tx) => {
      const row = await workOn(ctx, tx, productId, availabilityId);
      const state = stateOf(row);
      if (!isOptionStepCompleted(state.setup, state.selections)) throw bookingRefusal("OPTIONS_INCOMPLETE", "Set every option before choosing quantities");
      if (!row.currency) throw bookingRefusal("PRICING_INCOMPLETE", "GET prices first: it fixes the currency of the flow");
      if (row.currency !== currency) throw bookingRefusal("CURRENCY_CHANGE", `This flow runs in ${row.currency}; start a new availability for another currency`);
      const slots = upstreamSlots ?? (await engine.slots(tx, product, currentSetup, row.availabilityDate, ctx.clock.now()));
      const slot = chosenSlot({ ...state.setup, timeZone: currentSetup.timeZone }, state.selections, row.availabilityDate, slots);
      const { quantities, problems } = applyQuantities(unitsShown(state.setup, state.selections), state.quantities, changes, slot?.remaining ?? 0);
      if (problems.length) throw bookingRefusal("INVALID_QUANTITIES", problems.map((p) => p.message).join("; "), problems);
      const view = availabilityView({ ...state, quantities });
      await ctx.loaders.stores.availabilities.update(tx, row.id, { quantities, quotedTotal: view.priced?.total.retail ?? null });
      return toAvailability(view);
    });
  },
};
