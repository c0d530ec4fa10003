import type { Availability, AvailabilityCalendar, Booking, Option, Pricing, Product, Supplier, Unit, UnitItem } from "@octocloud/types";
import type { OctoQuestion } from "../core/octo-questions.js";
import { bookingQuestions, octoLocalDateTime as localText, type Departure, type QuestionAnswer, type SupplierBooking, type SupplierState } from "./supplier-state.js";
import { SUPPLIER, SUPPLIER_CURRENCY, SUPPLIER_TIME_ZONE, type SupplierLanguage, type SupplierOption, type SupplierProduct, type SupplierQuestion, type SupplierUnit } from "./supplier-catalogue.js";

/** What one request asked for: its language (octo/content) and capabilities. */
export interface RenderContext {
  language: SupplierLanguage;
  content: boolean;
  pricing: boolean;
  /** octo/questions: products carry their questions, bookings their answers. */
  questions: boolean;
  /** Where the supplier serves ticket PDFs ("<base>/tickets"). */
  ticketsUrl: string;
}

/** A voucher for the booking and a ticket for each unit item, as most suppliers deliver. */
const DELIVERY_METHODS = ["VOUCHER", "TICKET"] as Booking["deliveryMethods"];

/** The supplier keeps a fifth of the retail price as its net rate to resellers. */
const NET_SHARE = 0.8;

export function price(retailCents: number, quantity = 1): Pricing {
  const retail = retailCents * quantity;
  return { original: retail, retail, net: Math.round(retail * NET_SHARE), currency: SUPPLIER_CURRENCY, currencyPrecision: 2, includedTaxes: [] };
}

const sum = (prices: Pricing[]): Pricing => {
  const total = price(0);
  for (const p of prices) {
    total.original += p.original;
    total.retail += p.retail;
    total.net = (total.net ?? 0) + (p.net ?? 0);
  }
  return total;
};

export function renderSupplier(context: RenderContext, endpoint: string): Supplier {
  return {
    id: SUPPLIER.id,
    name: SUPPLIER.name,
    endpoint,
    contact: { website: SUPPLIER.website, email: SUPPLIER.email, telephone: SUPPLIER.telephone, address: SUPPLIER.address },
    ...(context.content ? { shortDescription: SUPPLIER.shortDescription[context.language], media: [] } : {}),
  };
}

/** A question as OCTO writes it, in the request's language (the texts need no octo/content: a reseller must show them). */
function renderQuestion(question: SupplierQuestion, context: RenderContext): OctoQuestion {
  return {
    id: question.id,
    title: question.title[context.language],
    shortDescription: null,
    required: question.required,
    inputType: question.inputType,
    selectOptions: (question.selectOptions ?? []).map((option) => ({ value: option.value, label: option.label[context.language] })),
    coverImageUrl: null,
  };
}

const questionsOf = (questions: SupplierQuestion[] | undefined, context: RenderContext) => (context.questions ? { questions: (questions ?? []).map((question) => renderQuestion(question, context)) } : {});

/** Every question asked, each with its answer (null while unanswered), as a booking carries them. */
function answersOf(questions: SupplierQuestion[], answers: QuestionAnswer[], context: RenderContext) {
  if (!context.questions) return {};
  return {
    questionAnswers: questions.map((question) => ({
      questionId: question.id,
      question: renderQuestion(question, context),
      value: answers.find((answer) => answer.questionId === question.id)?.value ?? null,
    })),
  };
}

/** The lowest price of a unit at any departure of its option. */
const lowestRetail = (option: SupplierOption, unit: SupplierUnit) => Math.min(unit.retail, ...Object.values(option.departurePrices ?? {}).map((prices) => prices[unit.id] ?? unit.retail));

/** OCTO's `pricingPer`: a product priced per booking carries its price on each option, not on its units. */
const perBooking = (product: SupplierProduct) => product.pricingPer === "BOOKING";

function renderUnit(unit: SupplierUnit, context: RenderContext, option: SupplierOption, product: SupplierProduct): Unit {
  return {
    id: unit.id,
    internalName: unit.title.en,
    reference: unit.id.toUpperCase(),
    type: unit.type as Unit["type"],
    restrictions: {
      minAge: unit.minAge,
      maxAge: unit.maxAge,
      idRequired: false,
      minQuantity: unit.minQuantity ?? null,
      maxQuantity: unit.maxQuantity ?? null,
      paxCount: unit.paxCount,
      accompaniedBy: unit.type === "CHILD" ? ["adult"] : [],
    },
    requiredContactFields: [],
    ...(context.pricing && !perBooking(product) ? { pricingFrom: [price(lowestRetail(option, unit))] } : {}),
    ...(context.content ? { title: unit.title[context.language], shortDescription: "", features: [] } : {}),
    ...questionsOf(unit.questions, context),
  };
}

/** A length as OCTO's content writes it: minutes (`durationMinutesFrom`, `To`), or an amount and a unit as 1.x content and Ventrata do. */
function durationFields(product: SupplierProduct, minutes: number) {
  if (product.durationStyle !== "AMOUNT_AND_UNIT") return { durationMinutesFrom: minutes, durationMinutesTo: minutes };
  const [amount, unit] = minutes % 1440 === 0 ? [minutes / 1440, "day"] : minutes % 60 === 0 ? [minutes / 60, "hour"] : [minutes, "minute"];
  return { duration: `${amount} ${unit}${amount === 1 ? "" : "s"}`, durationAmount: String(amount), durationUnit: unit };
}

function renderOption(product: SupplierProduct, option: SupplierOption, index: number, context: RenderContext): Option {
  const cheapest = perBooking(product) ? option.bookingPrice! : Math.min(...option.units.map((unit) => lowestRetail(option, unit)));
  return {
    id: option.id,
    default: index === 0,
    internalName: option.title.en,
    reference: null,
    availabilityLocalStartTimes: option.startTimes,
    cancellationCutoff: product.cancellationCutoffHours === 0 ? "0 hours" : `${product.cancellationCutoffHours} hours`,
    cancellationCutoffAmount: product.cancellationCutoffHours,
    cancellationCutoffUnit: "hour" as Option["cancellationCutoffUnit"],
    requiredContactFields: ["firstName", "lastName", "emailAddress"] as Option["requiredContactFields"],
    restrictions: {
      minUnits: option.minUnits,
      maxUnits: option.maxUnits,
      ...(option.minPaxCount !== undefined ? { minPaxCount: option.minPaxCount } : {}),
      ...(option.maxPaxCount !== undefined ? { maxPaxCount: option.maxPaxCount } : {}),
    } as Option["restrictions"],
    units: option.units.map((unit) => renderUnit(unit, context, option, product)),
    ...questionsOf(option.questions, context),
    ...(context.pricing ? { pricingFrom: [price(cheapest)] } : {}),
    ...(context.content
      ? { title: option.title[context.language], shortDescription: null, description: null, features: [], faqs: [], media: [], locations: [], categoryLabels: [], ...durationFields(product, option.durationMinutes), commentary: [] }
      : {}),
  };
}

export function renderProduct(product: SupplierProduct, context: RenderContext): Product {
  const durations = product.options.map((option) => option.durationMinutes);
  return {
    id: product.id,
    internalName: product.internalName,
    reference: null,
    locale: context.language,
    timeZone: SUPPLIER_TIME_ZONE,
    allowFreesale: false,
    instantConfirmation: true,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: product.availabilityType as Product["availabilityType"],
    deliveryFormats: product.deliveryFormats as Product["deliveryFormats"],
    deliveryMethods: DELIVERY_METHODS,
    redemptionMethod: "DIGITAL" as Product["redemptionMethod"],
    options: product.options.map((option, index) => renderOption(product, option, index, context)),
    ...questionsOf(product.questions, context),
    ...(context.pricing ? { defaultCurrency: SUPPLIER_CURRENCY, availableCurrencies: [SUPPLIER_CURRENCY], pricingPer: (product.pricingPer ?? "UNIT") as Product["pricingPer"] } : {}),
    ...(context.content
      ? {
          title: product.title[context.language],
          shortDescription: product.shortDescription[context.language],
          description: product.description[context.language],
          features: [],
          faqs: [],
          media: [{ src: product.image, type: "image/jpeg", rel: "COVER", title: null, caption: null, copyright: null }] as Product["media"],
          locations: [
            {
              title: product.place.street,
              shortDescription: null,
              types: ["START"],
              minutesTo: null,
              minutesAt: null,
              place: {
                latitude: product.place.latitude,
                longitude: product.place.longitude,
                postalAddress: { streetAddress: product.place.street, addressLocality: product.place.city, addressRegion: null, postalCode: product.place.postalCode, addressCountry: "FR", postOfficeBoxNumber: null },
                identifiers: { googlePlaceId: null, applePlaceId: null, tripadvisorLocationId: null, yelpPlaceId: null, facebookPlaceId: null, foursquarePlaceId: null, baiduPlaceId: null, amapPlaceId: null },
                sameAs: [],
              },
            },
          ] as Product["locations"],
          categoryLabels: (product.availabilityType === "START_TIME" ? ["guided-tours", "museums"] : ["boat-tours", "hop-on-hop-off"]) as Product["categoryLabels"],
          // Written with amount and unit, the length is the options' (as 1.x content has it).
          ...(product.durationStyle === "AMOUNT_AND_UNIT" ? {} : { durationMinutesFrom: Math.min(...durations), durationMinutesTo: Math.max(...durations) }),
          commentary: [],
        }
      : {}),
  };
}

const statusOf = (departure: Departure): Availability["status"] =>
  (departure.vacancies === 0 ? "SOLD_OUT" : departure.vacancies < departure.capacity / 4 ? "LIMITED" : "AVAILABLE") as Availability["status"];

/** Prices of the units asked for, or of one of each unit when none were, at these prices per unit. */
function unitPricing(option: SupplierOption, prices: Record<string, number>, units: { id: string; quantity: number }[] | undefined) {
  const asked = units?.length ? units : option.units.map((unit) => ({ id: unit.id, quantity: 1 }));
  return asked.map(({ id, quantity }) => ({ ...price(prices[id], quantity), unitId: id }));
}

export function renderAvailability(departure: Departure, context: RenderContext, units?: { id: string; quantity: number }[]): Availability {
  const allDay = departure.product.availabilityType === "OPENING_HOURS";
  const perUnit = unitPricing(departure.option, departure.prices, units);
  const { option } = departure;
  // Priced per booking, a departure's `pricing` is the booking's price whatever the units.
  const pricing = perBooking(departure.product) ? { pricing: price(option.bookingPrice!) } : { unitPricing: perUnit, ...(units?.length ? { pricing: sum(perUnit) } : {}) };
  return {
    id: departure.id,
    localDateTimeStart: localText(departure.start),
    localDateTimeEnd: localText(departure.end),
    utcCutoffAt: departure.cutoff.toISOString().replace(/\.\d{3}Z$/, "Z"),
    allDay,
    available: departure.vacancies > 0,
    status: statusOf(departure),
    vacancies: departure.vacancies,
    capacity: departure.capacity,
    maxUnits: Math.min(option.maxUnits, option.departureMaxUnits ?? option.maxUnits),
    ...(option.maxPaxCount !== undefined ? { maxPaxCount: option.maxPaxCount } : {}),
    openingHours: allDay ? option.openingHours : [],
    ...(context.pricing ? pricing : {}),
    ...(context.content ? { title: null, shortDescription: "" } : {}),
  };
}

/** One calendar day: the best of its departures. */
export function renderCalendarDay(date: string, departures: Departure[], option: SupplierOption, context: RenderContext, units?: { id: string; quantity: number }[]): AvailabilityCalendar {
  const vacancies = departures.reduce((total, departure) => total + departure.vacancies, 0);
  const capacity = departures.reduce((total, departure) => total + departure.capacity, 0);
  const status = (departures.length === 0 ? "CLOSED" : vacancies === 0 ? "SOLD_OUT" : vacancies < capacity / 4 ? "LIMITED" : "AVAILABLE") as AvailabilityCalendar["status"];
  // From the day's cheapest departure for each unit.
  const from = Object.fromEntries(option.units.map((unit) => [unit.id, Math.min(...(departures.length ? departures.map((departure) => departure.prices[unit.id]) : [unit.retail]))]));
  const perUnit = unitPricing(option, from, units);
  const product = departures[0]?.product;
  const pricing = option.bookingPrice !== undefined && (!product || perBooking(product)) ? { pricingFrom: price(option.bookingPrice) } : { unitPricingFrom: perUnit, ...(units?.length ? { pricingFrom: sum(perUnit) } : {}) };
  return {
    localDate: date,
    available: vacancies > 0,
    status,
    vacancies,
    capacity,
    openingHours: option.openingHours,
    ...(context.pricing ? pricing : {}),
  };
}

const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString().replace(/\.\d{3}Z$/, "Z") : null);

/**
 * A voucher or ticket. With VOUCHER and TICKET delivery the voucher and every unit item's ticket
 * are always there (the validator of OCTO checks so); their codes come once the booking is confirmed.
 */
function renderTicket(product: SupplierProduct, confirmed: boolean, code: string, pdf?: string): UnitItem["ticket"] {
  return {
    redemptionMethod: "DIGITAL",
    utcRedeemedAt: null,
    deliveryOptions: confirmed
      ? [{ deliveryFormat: "QRCODE", deliveryValue: code }, ...(pdf && product.deliveryFormats.includes("PDF_URL") ? [{ deliveryFormat: "PDF_URL", deliveryValue: pdf }] : [])]
      : [],
  } as UnitItem["ticket"];
}

/** The price of each unit item (undefined when it carries none) and the price the booking states. */
function bookingPrices(booking: SupplierBooking, product: SupplierProduct): { unitPrices: (Pricing | undefined)[]; stated: Pricing } {
  const statesItems = product.bookingPricing === "UNIT_ITEMS_ONLY";
  // Per booking the booking carries the price and its unit items none; per unit each item is priced.
  const unitPrices = booking.unitItems.map((item) => (perBooking(product) ? (statesItems ? price(0) : undefined) : price(item.retail)));
  const total = perBooking(product) ? price(booking.bookingRetail ?? 0) : sum(unitPrices.filter((p): p is Pricing => p !== undefined));
  // OCTO's mock writes that 0 at precision 0 whatever the currency's: a reader must take each amount's own precision.
  const stated = statesItems ? { ...price(0), net: null, currencyPrecision: 0 } : total;
  return { unitPrices, stated };
}

function renderUnitItems(booking: SupplierBooking, product: SupplierProduct, option: SupplierOption, unitPrices: (Pricing | undefined)[], context: RenderContext): UnitItem[] {
  const confirmed = booking.status === "CONFIRMED";
  return booking.unitItems.map((item, index) => ({
    uuid: item.uuid,
    resellerReference: item.resellerReference,
    supplierReference: `${booking.supplierReference}-${index + 1}`,
    unitId: item.unitId,
    unit: renderUnit(option.units.find((unit) => unit.id === item.unitId)!, context, option, product),
    status: booking.status as Booking["status"],
    utcRedeemedAt: null,
    contact: item.contact,
    ticket: renderTicket(product, confirmed, `${booking.supplierReference}-${index + 1}`),
    ...(context.pricing && unitPrices[index] ? { pricing: unitPrices[index] } : {}),
    ...answersOf(option.units.find((unit) => unit.id === item.unitId)!.questions ?? [], item.questionAnswers, context),
  }));
}

export function renderBooking(booking: SupplierBooking, state: SupplierState, context: RenderContext): Booking {
  const product = state.product(booking.productId);
  const option = state.option(product, booking.optionId);
  const { unitPrices, stated } = bookingPrices(booking, product);
  const departure = state.departures(product, option, booking.availabilityId.slice(0, 10), booking.availabilityId.slice(0, 10)).find((candidate) => candidate.id === booking.availabilityId);
  return {
    id: booking.id,
    uuid: booking.uuid,
    testMode: false,
    resellerReference: booking.resellerReference,
    supplierReference: booking.supplierReference,
    status: booking.status as Booking["status"],
    utcCreatedAt: iso(booking.createdAt)!,
    utcUpdatedAt: iso(booking.updatedAt)!,
    utcExpiresAt: iso(booking.expiresAt),
    utcRedeemedAt: null,
    utcConfirmedAt: iso(booking.confirmedAt),
    productId: product.id,
    product: renderProduct(product, context),
    optionId: option.id,
    option: renderOption(product, option, product.options.indexOf(option), context),
    cancellable: state.cancellable(booking),
    cancellation: booking.cancellation ? { refund: booking.cancellation.refund as NonNullable<Booking["cancellation"]>["refund"], reason: booking.cancellation.reason, utcCancelledAt: iso(booking.cancellation.cancelledAt)! } : null,
    freesale: false,
    availabilityId: booking.availabilityId,
    availability: departure ? renderAvailability(departure, context) : null,
    contact: booking.contact,
    notes: booking.notes,
    deliveryMethods: DELIVERY_METHODS,
    // The PDF's address is the supplier's own booking id: unguessable, unlike the reference.
    voucher: renderTicket(product, booking.status === "CONFIRMED", booking.supplierReference, `${context.ticketsUrl}/${booking.id}.pdf`),
    unitItems: renderUnitItems(booking, product, option, unitPrices, context),
    ...(context.pricing ? { pricing: stated } : {}),
    ...answersOf(bookingQuestions(product, option), booking.questionAnswers, context),
  };
}
