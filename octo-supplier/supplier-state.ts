import { randomUUID } from "node:crypto";
import type { Clock } from "../core/clock.js";
import { addDays, instantOf, localDate, zonedText } from "../core/local-time.js";
import { SUPPLIER_PRODUCTS, SUPPLIER_TIME_ZONE, type SupplierOption, type SupplierProduct, type SupplierQuestion, type SupplierUnit } from "./supplier-catalogue.js";

/** An OCTO error: its `error` code, message, HTTP status and the id it names (productId, uuid, …). */
export class OctoError extends Error {
  constructor(
    readonly error: string,
    message: string,
    readonly status = 400,
    readonly detail: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** OCTO's local date-time: "2026-12-01T09:00:00+01:00", in the supplier's zone. */
export const octoLocalDateTime = (instant: Date): string => zonedText(instant, SUPPLIER_TIME_ZONE).replace(/\[[^\]]+\]$/, "");

/** How far ahead the supplier sells. */
export const SALES_HORIZON_DAYS = 365;
/** Holds last this long unless the reseller asks for less; longer requests are capped here. */
export const DEFAULT_HOLD_MINUTES = 30;
export const MAX_HOLD_MINUTES = 60;

export interface Departure {
  product: SupplierProduct;
  option: SupplierOption;
  /** OCTO's availability id: the local start with its offset, "2026-12-01T09:00:00+01:00". */
  id: string;
  date: string;
  time: string;
  start: Date;
  end: Date;
  /** After this no sale: the start of a timed departure, closing time of an opening-hours day. */
  cutoff: Date;
  capacity: number;
  vacancies: number;
  /** Unit id to retail price in cents at this departure. */
  prices: Record<string, number>;
}

/** An answer to one of the supplier's questions (`octo/questions`). */
export interface QuestionAnswer {
  questionId: string;
  value: string | null;
}

export interface HeldUnit {
  uuid: string;
  unitId: string;
  resellerReference: string | null;
  contact: ContactDetails;
  /** The departure's price of the unit when it was held, in cents. */
  retail: number;
  questionAnswers: QuestionAnswer[];
}

export interface ContactDetails {
  fullName: string | null;
  firstName: string | null;
  lastName: string | null;
  emailAddress: string | null;
  phoneNumber: string | null;
  locales: string[];
  postalCode: string | null;
  country: string | null;
  notes: string | null;
}

export type SupplierBookingStatus = "ON_HOLD" | "CONFIRMED" | "EXPIRED" | "CANCELLED";

export interface SupplierBooking {
  uuid: string;
  /** The supplier's own booking id. */
  id: string;
  supplierReference: string;
  resellerReference: string | null;
  status: SupplierBookingStatus;
  productId: string;
  optionId: string;
  availabilityId: string;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date | null;
  confirmedAt: Date | null;
  cancellation: { refund: "FULL"; reason: string | null; cancelledAt: Date } | null;
  notes: string | null;
  contact: ContactDetails;
  unitItems: HeldUnit[];
  /** People the booking takes from the departure's capacity. */
  pax: number;
  /** A product priced per booking: the booking's price when it was held, in cents. */
  bookingRetail: number | null;
  /** Answers to the product's and the option's questions. */
  questionAnswers: QuestionAnswer[];
}

export const emptyContact = (): ContactDetails => ({ fullName: null, firstName: null, lastName: null, emailAddress: null, phoneNumber: null, locales: [], postalCode: null, country: null, notes: null });

export interface ReserveRequest {
  uuid?: string;
  productId: string;
  optionId: string;
  availabilityId?: string;
  expirationMinutes?: number;
  notes?: string | null;
  resellerReference?: string;
  unitItems: UnitItemRequest[];
  contact?: Partial<ContactDetails>;
  questionAnswers?: QuestionAnswer[];
}

export interface UnitItemRequest {
  uuid?: string;
  unitId: string;
  resellerReference?: string;
  contact?: Partial<ContactDetails>;
  questionAnswers?: QuestionAnswer[];
}

export interface UpdateRequest {
  resellerReference?: string;
  productId?: string;
  optionId?: string;
  availabilityId?: string;
  expirationMinutes?: number;
  notes?: string | null;
  unitItems?: UnitItemRequest[];
  contact?: Partial<ContactDetails>;
}

export interface ConfirmRequest {
  resellerReference?: string;
  contact: Partial<ContactDetails>;
  unitItems?: UnitItemRequest[];
  questionAnswers?: QuestionAnswer[];
}

const contactOf = (given: Partial<ContactDetails> | undefined): ContactDetails => ({ ...emptyContact(), ...Object.fromEntries(Object.entries(given ?? {}).filter(([, value]) => value !== undefined)) });

/**
 * The supplier's sales in memory: departures with their capacity, and bookings by uuid. Holds
 * expire by the supplier's clock, so a test can move time instead of waiting. Every change is
 * idempotent by uuid, as OCTO asks, so a reseller may retry any call it is unsure of.
 */
export class SupplierState {
  private readonly bookings = new Map<string, SupplierBooking>();
  private sequence = 0;

  /** This supplier's own copy of the catalogue: tests change or withdraw a product here. */
  readonly products: SupplierProduct[] = structuredClone(SUPPLIER_PRODUCTS);

  constructor(private readonly clock: Clock) {}

  product(productId: string): SupplierProduct {
    const product = this.products.find((candidate) => candidate.id === productId);
    if (!product) throw new OctoError("INVALID_PRODUCT_ID", `Product ${productId} does not exist`, 400, { productId });
    return product;
  }

  option(product: SupplierProduct, optionId: string): SupplierOption {
    const option = product.options.find((candidate) => candidate.id === optionId);
    if (!option) throw new OctoError("INVALID_OPTION_ID", `Option ${optionId} does not exist on product ${product.id}`, 400, { optionId });
    return option;
  }

  unit(option: SupplierOption, unitId: string): SupplierUnit {
    const unit = option.units.find((candidate) => candidate.id === unitId);
    if (!unit) throw new OctoError("INVALID_UNIT_ID", `Unit ${unitId} does not exist on option ${option.id}`, 400, { unitId });
    return unit;
  }

  /** Departures from `from` to `to` (local dates, inclusive) that have not reached their cutoff. */
  departures(product: SupplierProduct, option: SupplierOption, from: string, to: string): Departure[] {
    const now = this.clock.now();
    const today = localDate(now, SUPPLIER_TIME_ZONE);
    const last = addDays(today, SALES_HORIZON_DAYS);
    const first = from < today ? today : from;
    const end = to > last ? last : to;
    const result: Departure[] = [];
    for (let date = first; date <= end; date = addDays(date, 1)) {
      for (const time of option.startTimes) {
        const departure = this.departureAt(product, option, date, time);
        if (departure.cutoff > now) result.push(departure);
      }
    }
    return result;
  }

  /** The departure an availability id names, or INVALID_AVAILABILITY_ID. */
  departure(product: SupplierProduct, option: SupplierOption, availabilityId: string): Departure {
    const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}):00[+-]\d{2}:\d{2}$/.exec(availabilityId);
    const departure = match && option.startTimes.includes(match[2]) ? this.departureAt(product, option, match[1], match[2]) : undefined;
    if (!departure || departure.id !== availabilityId) throw new OctoError("INVALID_AVAILABILITY_ID", `Availability ${availabilityId} does not exist`, 400, { availabilityId });
    const today = localDate(this.clock.now(), SUPPLIER_TIME_ZONE);
    if (departure.cutoff <= this.clock.now() || departure.date > addDays(today, SALES_HORIZON_DAYS)) {
      throw new OctoError("INVALID_AVAILABILITY_ID", `Availability ${availabilityId} is no longer on sale`, 400, { availabilityId });
    }
    return departure;
  }

  private departureAt(product: SupplierProduct, option: SupplierOption, date: string, time: string): Departure {
    const allDay = product.availabilityType === "OPENING_HOURS";
    const start = instantOf(date, time, SUPPLIER_TIME_ZONE);
    const end = allDay ? instantOf(addDays(date, 1), "00:00", SUPPLIER_TIME_ZONE) : new Date(start.getTime() + option.durationMinutes * 60_000);
    const cutoff = allDay ? instantOf(date, option.openingHours.at(-1)!.to, SUPPLIER_TIME_ZONE) : start;
    const id = octoLocalDateTime(start);
    const capacity = option.soldOutTimes.includes(time) ? 0 : option.capacity;
    const taken = this.paxHeld(product.id, option.id, id);
    const prices = Object.fromEntries(option.units.map((unit) => [unit.id, option.departurePrices?.[time]?.[unit.id] ?? unit.retail]));
    return { product, option, id, date, time, start, end, cutoff, capacity, vacancies: Math.max(0, capacity - taken), prices };
  }

  private paxHeld(productId: string, optionId: string, availabilityId: string): number {
    let pax = 0;
    for (const booking of this.bookings.values()) {
      this.expireIfDue(booking);
      if (booking.productId !== productId || booking.optionId !== optionId || booking.availabilityId !== availabilityId) continue;
      if (booking.status === "ON_HOLD" || booking.status === "CONFIRMED") pax += booking.pax;
    }
    return pax;
  }

  /** POST /bookings: holds places; the same uuid again answers the booking it already made. Answers given are checked, not yet required. */
  reserve(request: ReserveRequest, asked = false): SupplierBooking {
    if (request.uuid) {
      const existing = this.bookings.get(request.uuid);
      if (existing) {
        const same = existing.productId === request.productId && existing.optionId === request.optionId && existing.availabilityId === request.availabilityId;
        if (!same) throw new OctoError("UNPROCESSABLE_ENTITY", `Booking ${request.uuid} already exists for another availability`);
        return this.get(request.uuid);
      }
    }
    const product = this.product(request.productId);
    const option = this.option(product, request.optionId);
    if (!request.availabilityId) throw new OctoError("BAD_REQUEST", "availabilityId is required: this product needs availability");
    const departure = this.departure(product, option, request.availabilityId);
    if (request.unitItems.length === 0) throw new OctoError("BAD_REQUEST", "unitItems must name at least one unit");
    const units = request.unitItems.map((item) => this.unit(option, item.unitId));
    const pax = checkLimits(option, units);
    const bookingAnswers = asked ? checkAnswers(bookingQuestions(product, option), request.questionAnswers ?? [], false) : [];
    const unitAnswers = units.map((unit, index) => (asked ? checkAnswers(unit.questions ?? [], request.unitItems[index].questionAnswers ?? [], false) : []));
    checkPlaces(departure, pax);
    const now = this.clock.now();
    const minutes = Math.min(Math.max(1, request.expirationMinutes ?? DEFAULT_HOLD_MINUTES), MAX_HOLD_MINUTES);
    this.sequence += 1;
    const booking: SupplierBooking = {
      uuid: request.uuid ?? randomUUID(),
      id: randomUUID(),
      supplierReference: `PD-${String(this.sequence).padStart(6, "0")}`,
      resellerReference: request.resellerReference ?? null,
      status: "ON_HOLD",
      productId: product.id,
      optionId: option.id,
      availabilityId: departure.id,
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + minutes * 60_000),
      confirmedAt: null,
      cancellation: null,
      notes: request.notes ?? null,
      contact: contactOf(request.contact),
      unitItems: request.unitItems.map((item, index) => ({
        uuid: item.uuid ?? randomUUID(),
        unitId: item.unitId,
        resellerReference: item.resellerReference ?? null,
        contact: contactOf(item.contact),
        retail: departure.prices[item.unitId],
        questionAnswers: unitAnswers[index],
      })),
      pax,
      bookingRetail: option.bookingPrice ?? null,
      questionAnswers: bookingAnswers,
    };
    this.bookings.set(booking.uuid, booking);
    return booking;
  }

  /**
   * PATCH /bookings/{uuid}: moves a booking on hold or confirmed to another departure, option or
   * product, changes its units, contact, references, notes or (on hold) its expiry. Everything is
   * checked before anything changes, against the new departure's places less the booking's own.
   */
  update(uuid: string, request: UpdateRequest): SupplierBooking {
    const booking = this.get(uuid);
    if (booking.status !== "ON_HOLD" && booking.status !== "CONFIRMED") throw new OctoError("UNPROCESSABLE_ENTITY", `Booking ${uuid} is ${booking.status} and can no longer be changed`);
    const product = this.product(request.productId ?? booking.productId);
    const option = this.option(product, request.optionId ?? (product.id === booking.productId ? booking.optionId : (product.options[0]?.id ?? "")));
    const moved = request.productId !== undefined || request.optionId !== undefined || request.availabilityId !== undefined;
    const availabilityId = request.availabilityId ?? booking.availabilityId;
    const departure = moved ? this.departure(product, option, availabilityId) : this.departureAt(product, option, availabilityId.slice(0, 10), availabilityId.slice(11, 16));
    const items: UnitItemRequest[] = request.unitItems ?? booking.unitItems.map((item) => ({ uuid: item.uuid, unitId: item.unitId, resellerReference: item.resellerReference ?? undefined }));
    if (items.length === 0) throw new OctoError("UNPROCESSABLE_ENTITY", "unitItems must name at least one unit");
    const units = items.map((item) => this.unit(option, item.unitId));
    const pax = checkLimits(option, units);
    // The booking's own places are free to it on its own departure.
    const own = departure.id === booking.availabilityId && product.id === booking.productId && option.id === booking.optionId ? booking.pax : 0;
    checkPlaces({ ...departure, vacancies: departure.vacancies + own }, pax);
    const now = this.clock.now();
    const keptAnswers = (index: number, unitId: string) => (booking.unitItems[index]?.unitId === unitId ? booking.unitItems[index].questionAnswers : []);
    booking.productId = product.id;
    booking.optionId = option.id;
    booking.availabilityId = departure.id;
    booking.unitItems = items.map((item, index) => ({
      uuid: item.uuid ?? booking.unitItems[index]?.uuid ?? randomUUID(),
      unitId: item.unitId,
      resellerReference: item.resellerReference ?? null,
      contact: contactOf(item.contact),
      retail: departure.prices[item.unitId],
      questionAnswers: keptAnswers(index, item.unitId),
    }));
    booking.pax = pax;
    booking.bookingRetail = option.bookingPrice ?? null;
    if (request.contact) booking.contact = contactOf({ ...booking.contact, ...request.contact });
    if (request.resellerReference !== undefined) booking.resellerReference = request.resellerReference;
    if (request.notes !== undefined) booking.notes = request.notes;
    if (booking.status === "ON_HOLD" && request.expirationMinutes !== undefined) {
      booking.expiresAt = new Date(now.getTime() + Math.min(Math.max(1, request.expirationMinutes), MAX_HOLD_MINUTES) * 60_000);
    }
    booking.updatedAt = now;
    return booking;
  }

  /** GET /bookings/{uuid}; a hold past its expiry reads EXPIRED. */
  get(uuid: string): SupplierBooking {
    const booking = this.bookings.get(uuid);
    if (!booking) throw new OctoError("INVALID_BOOKING_UUID", `Booking ${uuid} does not exist`, 400, { uuid });
    this.expireIfDue(booking);
    return booking;
  }

  /** A confirmed booking by the supplier's own id (the address of its ticket). */
  confirmedById(id: string): SupplierBooking | undefined {
    for (const booking of this.bookings.values()) if (booking.id === id && booking.status === "CONFIRMED") return booking;
    return undefined;
  }

  find(filter: { resellerReference?: string; supplierReference?: string }): SupplierBooking[] {
    return [...this.bookings.values()]
      .filter((booking) => (!filter.resellerReference || booking.resellerReference === filter.resellerReference) && (!filter.supplierReference || booking.supplierReference === filter.supplierReference))
      .map((booking) => this.get(booking.uuid));
  }

  extend(uuid: string, expirationMinutes: number | undefined): SupplierBooking {
    const booking = this.get(uuid);
    if (booking.status !== "ON_HOLD") throw new OctoError("UNPROCESSABLE_ENTITY", `Booking ${uuid} is ${booking.status}: only a booking on hold can be extended`);
    const now = this.clock.now();
    const minutes = Math.min(Math.max(1, expirationMinutes ?? DEFAULT_HOLD_MINUTES), MAX_HOLD_MINUTES);
    booking.expiresAt = new Date(now.getTime() + minutes * 60_000);
    booking.updatedAt = now;
    return booking;
  }

  /**
   * POST /bookings/{uuid}/confirm: a confirmed booking confirmed again answers as it is. With
   * `octo/questions` (`asked`) every required question must be answered by now, here or at the hold.
   */
  confirm(uuid: string, request: ConfirmRequest, asked = false): SupplierBooking {
    const booking = this.get(uuid);
    if (booking.status === "CONFIRMED") return booking;
    if (booking.status === "EXPIRED") throw new OctoError("UNPROCESSABLE_ENTITY", `Booking ${uuid} expired at ${booking.expiresAt!.toISOString()}: reserve again`);
    if (booking.status === "CANCELLED") throw new OctoError("UNPROCESSABLE_ENTITY", `Booking ${uuid} is cancelled`);
    const product = this.product(booking.productId);
    const option = this.option(product, booking.optionId);
    const items: UnitItemRequest[] = request.unitItems ?? booking.unitItems.map((item) => ({ uuid: item.uuid, unitId: item.unitId }));
    if (items.length === 0) throw new OctoError("UNPROCESSABLE_ENTITY", "unitItems must name at least one unit");
    const units = items.map((item) => this.unit(option, item.unitId));
    // OCTO lets a confirmation change the units held: the option's limits and the places apply again.
    const pax = checkLimits(option, units);
    const departure = this.departureAt(product, option, booking.availabilityId.slice(0, 10), booking.availabilityId.slice(11, 16));
    checkPlaces({ ...departure, vacancies: departure.vacancies + booking.pax }, pax);
    // Everything is checked before anything changes: a refused confirmation leaves the hold as it was.
    const bookingAnswers = asked ? checkAnswers(bookingQuestions(product, option), merged(booking.questionAnswers, request.questionAnswers), true) : booking.questionAnswers;
    const unitAnswers = units.map((unit, index) => {
      const held = booking.unitItems[index];
      const earlier = held && held.unitId === unit.id ? held.questionAnswers : [];
      return asked ? checkAnswers(unit.questions ?? [], merged(earlier, items[index].questionAnswers), true, index) : earlier;
    });
    if (request.unitItems) {
      booking.unitItems = request.unitItems.map((item, index) => ({
        uuid: item.uuid ?? booking.unitItems[index]?.uuid ?? randomUUID(),
        unitId: item.unitId,
        resellerReference: item.resellerReference ?? booking.unitItems[index]?.resellerReference ?? null,
        contact: contactOf(item.contact),
        retail: booking.unitItems[index]?.unitId === item.unitId ? booking.unitItems[index].retail : departure.prices[item.unitId],
        questionAnswers: unitAnswers[index],
      }));
      booking.pax = pax;
    } else {
      booking.unitItems.forEach((item, index) => (item.questionAnswers = unitAnswers[index]));
    }
    booking.questionAnswers = bookingAnswers;
    const now = this.clock.now();
    booking.contact = contactOf(request.contact);
    booking.resellerReference = request.resellerReference ?? booking.resellerReference;
    booking.status = "CONFIRMED";
    booking.expiresAt = null;
    booking.confirmedAt = now;
    booking.updatedAt = now;
    return booking;
  }

  /** POST /bookings/{uuid}/cancel: within the cutoff only when forced, as a supplier's own staff would. */
  cancel(uuid: string, request: { reason?: string | null; force?: boolean }): SupplierBooking {
    const booking = this.get(uuid);
    if (booking.status === "CANCELLED") return booking;
    if (booking.status === "EXPIRED") throw new OctoError("UNPROCESSABLE_ENTITY", `Booking ${uuid} expired and holds nothing to cancel`);
    const product = this.product(booking.productId);
    const departure = this.departureAt(product, this.option(product, booking.optionId), booking.availabilityId.slice(0, 10), booking.availabilityId.slice(11, 16));
    const now = this.clock.now();
    const cutoff = new Date(departure.start.getTime() - product.cancellationCutoffHours * 3_600_000);
    if (booking.status === "CONFIRMED" && now >= cutoff && !request.force) {
      throw new OctoError("UNPROCESSABLE_ENTITY", `Booking ${uuid} can no longer be cancelled: the cutoff was ${cutoff.toISOString()}`);
    }
    booking.status = "CANCELLED";
    booking.cancellation = { refund: "FULL", reason: request.reason ?? null, cancelledAt: now };
    booking.expiresAt = null;
    booking.updatedAt = now;
    return booking;
  }

  cancellable(booking: SupplierBooking): boolean {
    if (booking.status === "ON_HOLD") return true;
    if (booking.status !== "CONFIRMED") return false;
    const product = this.product(booking.productId);
    const start = instantOf(booking.availabilityId.slice(0, 10), booking.availabilityId.slice(11, 16), SUPPLIER_TIME_ZONE);
    return this.clock.now().getTime() < start.getTime() - product.cancellationCutoffHours * 3_600_000;
  }

  private expireIfDue(booking: SupplierBooking): void {
    if (booking.status === "ON_HOLD" && booking.expiresAt && booking.expiresAt <= this.clock.now()) {
      booking.status = "EXPIRED";
      booking.updatedAt = booking.expiresAt;
    }
  }
}

/**
 * A booking's units against its option's limits: tickets (`minUnits`, `maxUnits`, and the
 * departure's own `maxUnits`), each unit's quantity, and people (`minPaxCount`, `maxPaxCount`).
 * Answers the people the units admit.
 */
function checkLimits(option: SupplierOption, units: SupplierUnit[]): number {
  const refuse = (message: string) => new OctoError("UNPROCESSABLE_ENTITY", message);
  const maxUnits = Math.min(option.maxUnits, option.departureMaxUnits ?? option.maxUnits);
  if (units.length < option.minUnits || units.length > maxUnits) throw refuse(`Option ${option.id} takes ${option.minUnits} to ${maxUnits} units a booking; ${units.length} were asked`);
  for (const unit of option.units) {
    const quantity = units.filter((candidate) => candidate.id === unit.id).length;
    if (unit.maxQuantity !== undefined && quantity > unit.maxQuantity) throw refuse(`Unit ${unit.id} takes at most ${unit.maxQuantity} a booking; ${quantity} were asked`);
    if (unit.minQuantity !== undefined && quantity > 0 && quantity < unit.minQuantity) throw refuse(`Unit ${unit.id} takes at least ${unit.minQuantity} a booking; ${quantity} were asked`);
  }
  const pax = units.reduce((sum, unit) => sum + unit.paxCount, 0);
  if ((option.minPaxCount !== undefined && pax < option.minPaxCount) || (option.maxPaxCount !== undefined && pax > option.maxPaxCount)) {
    throw refuse(`Option ${option.id} takes ${option.minPaxCount ?? 0} to ${option.maxPaxCount ?? "any number of"} people a booking; ${pax} were asked`);
  }
  return pax;
}

function checkPlaces(departure: Pick<Departure, "id" | "vacancies">, pax: number): void {
  if (pax > departure.vacancies) {
    throw new OctoError("UNPROCESSABLE_ENTITY", departure.vacancies === 0 ? `Availability ${departure.id} is sold out` : `Availability ${departure.id} has ${departure.vacancies} places left; ${pax} were asked`);
  }
}

/** The questions asked once per booking: the product's, then the option's. */
export function bookingQuestions(product: SupplierProduct, option: SupplierOption): SupplierQuestion[] {
  return [...(product.questions ?? []), ...(option.questions ?? [])];
}

/** Earlier answers with the new ones in their place. */
function merged(earlier: QuestionAnswer[], given: QuestionAnswer[] | undefined): QuestionAnswer[] {
  const byId = new Map(earlier.map((answer) => [answer.questionId, answer]));
  for (const answer of given ?? []) byId.set(answer.questionId, answer);
  return [...byId.values()];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The answers to these questions, checked: known ids, values of their input type, and (when `complete`) every required one. */
function checkAnswers(questions: SupplierQuestion[], answers: QuestionAnswer[], complete: boolean, unitItem?: number): QuestionAnswer[] {
  const where = unitItem === undefined ? "" : ` of unit item ${unitItem + 1}`;
  const refuse = (questionId: string, message: string) => new OctoError("BAD_REQUEST", `Question ${questionId}${where}: ${message}`, 400, { questionId });
  for (const answer of answers) {
    const question = questions.find((candidate) => candidate.id === answer.questionId);
    if (!question) throw refuse(answer.questionId, "is not asked here");
    const value = answer.value?.trim() ?? "";
    if (value === "") continue;
    if (value.length > 2000) throw refuse(question.id, "the answer is longer than 2000 characters");
    if (question.inputType === "date" && !DATE.test(value)) throw refuse(question.id, "expected a date YYYY-MM-DD");
    if (question.inputType === "select" && !question.selectOptions!.some((option) => option.value === value)) {
      throw refuse(question.id, `expected one of ${question.selectOptions!.map((option) => option.value).join(", ")}`);
    }
    if (question.inputType === "number" && !Number.isFinite(Number(value))) throw refuse(question.id, "expected a number");
    if (question.inputType === "email" && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) throw refuse(question.id, "expected an email address");
  }
  if (complete) {
    const missing = questions.find((question) => question.required && !answers.some((answer) => answer.questionId === question.id && (answer.value?.trim() ?? "") !== ""));
    if (missing) throw refuse(missing.id, "is required");
  }
  return answers.map((answer) => ({ questionId: answer.questionId, value: answer.value?.trim() || null }));
}
