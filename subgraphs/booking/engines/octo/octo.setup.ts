import type { Option, Pricing } from "@octocloud/types";
import { MAX_QUESTION_TEXT, type OctoInputType, type OctoQuestion, type ProductWithQuestions } from "../../../../core/octo-questions.js";
import { optionLimits, pricedPerBooking } from "../../../common/octo/octo.fields.js";
import { octoSaleCurrency } from "../../../common/octo/octo.sellable.js";
import type { BookingLimits, BookingSetup, QuestionSetup, RemoteQuestion, UnitSetup } from "../inventory/booking-setup.schema.js";

/** The option of a setup whose choices are the supplier's options, when a product has several. */
export const SUPPLIER_OPTION_KEY = "option";

/** A slot of an OCTO engine has no capacity of ours: the supplier's vacancies count, or this many for free sale. */
export const FREESALE_PLACES = 100_000;

/** OCTO contact fields our customer questions ask, with how they are asked. */
const CONTACT_QUESTIONS: Record<string, QuestionSetup> = {
  firstName: { key: "firstName", question: { en: "First name", fr: "Prénom", de: "Vorname" }, dataType: "TEXT" },
  lastName: { key: "lastName", question: { en: "Last name", fr: "Nom", de: "Nachname" }, dataType: "TEXT" },
  emailAddress: { key: "emailAddress", question: { en: "Email address", fr: "Adresse e-mail", de: "E-Mail-Adresse" }, dataType: "TEXT", dataFormat: "EMAIL_ADDRESS" },
  phoneNumber: { key: "phoneNumber", question: { en: "Phone number", fr: "Numéro de téléphone", de: "Telefonnummer" }, dataType: "TEXT", dataFormat: "PHONE_NUMBER" },
  postalCode: { key: "postalCode", question: { en: "Postal code", fr: "Code postal", de: "Postleitzahl" }, dataType: "TEXT" },
  country: { key: "country", question: { en: "Country", fr: "Pays", de: "Land" }, dataType: "TEXT" },
};
/** The lead traveller is always asked for: the supplier confirms a booking with a contact. */
const ALWAYS_ASKED = ["firstName", "lastName", "emailAddress"];

const CUTOFF_UNIT = { minute: "M", hour: "H", day: "D" } as const;

/** The retail price of a unit in the currency, in major units; undefined when the supplier gives none in it. */
function retailIn(prices: Pricing[] | undefined, currency: string): number | undefined {
  const price = prices?.find((p) => p.currency === currency);
  return price && price.retail / 10 ** price.currencyPrecision;
}

/** The cancellation policy of an option as one tier: a full refund until the supplier's cutoff before the start. */
function cancellationTier(option: Option): BookingSetup["cancellationTiers"] {
  const amount = option.cancellationCutoffAmount;
  const unit = CUTOFF_UNIT[option.cancellationCutoffUnit];
  const duration = amount > 0 && unit ? (unit === "D" ? `P${amount}D` : `PT${amount}${unit}`) : undefined;
  return [{ label: { en: "Free cancellation", fr: "Annulation gratuite", de: "Kostenlose Stornierung" }, ...(duration ? { duration } : {}), refundPercentage: 100 }];
}

/** How the flow asks each OCTO input type; `file` is never asked (askable() keeps such products out of the flow). */
const INPUT_TYPES: Record<Exclude<OctoInputType, "file">, Pick<QuestionSetup, "dataType" | "dataFormat">> = {
  date: { dataType: "DATE" },
  "datetime-local": { dataType: "DATE_AND_TIME" },
  email: { dataType: "TEXT", dataFormat: "EMAIL_ADDRESS" },
  number: { dataType: "DOUBLE" },
  tel: { dataType: "TEXT", dataFormat: "PHONE_NUMBER" },
  text: { dataType: "TEXT" },
  time: { dataType: "TIME" },
  url: { dataType: "TEXT" },
  select: { dataType: "OPTIONS" },
  textarea: { dataType: "LONG_TEXT" },
};
const CHOICE_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** A supplier's text within a booking setup's bound: it is shown on every read of the booking. */
const shortened = (text: string) => (text.length > MAX_QUESTION_TEXT ? `${text.slice(0, MAX_QUESTION_TEXT - 1)}…` : text);

/**
 * The supplier's required questions (`octo/questions`) as the flow's: the product's and each
 * option's are booking questions (an option's shown only once it is chosen), each option's unit
 * questions participant questions asked of the holders of those units' tickets. Keys are ours
 * (`q1`, `q2`, …; the supplier's ids need not fit a key), and `remote` maps them back to the
 * supplier's ids and each choice to the supplier's value.
 */
function supplierQuestions(product: ProductWithQuestions, several: boolean): { booking: QuestionSetup[]; participant: QuestionSetup[]; remote: Record<string, RemoteQuestion> } {
  const booking: QuestionSetup[] = [];
  const participant: QuestionSetup[] = [];
  const remote: Record<string, RemoteQuestion> = {};
  const add = (list: QuestionSetup[], question: OctoQuestion, where: Pick<QuestionSetup, "shownWhen" | "units">) => {
    if (!question.required || question.inputType === "file") return;
    const key = `q${Object.keys(remote).length + 1}`;
    const shape = INPUT_TYPES[question.inputType];
    const options = question.inputType === "select" ? (question.selectOptions ?? []) : undefined;
    const keys = options?.map((option, index) => (CHOICE_KEY.test(option.value) ? option.value : `c${index + 1}`));
    // Values that fit a key are the key; a clash (or an unfit value) falls back to the position.
    const choiceKeys = keys?.map((choice, index) => (keys.indexOf(choice) === index ? choice : `c${index + 1}`));
    remote[key] = { id: question.id, ...(options ? { values: Object.fromEntries(options.map((option, index) => [choiceKeys![index], option.value])) } : {}) };
    list.push({
      key,
      question: shortened(question.title || question.id),
      ...shape,
      ...(options ? { choices: options.map((option, index) => ({ key: choiceKeys![index], label: shortened(option.label || option.value) })) } : {}),
      ...(shape.dataType === "DOUBLE" || shape.dataType === "TIME" ? { nullAllowed: false } : {}),
      ...where,
    });
  };
  const productIds = new Set((product.questions ?? []).map((question) => question.id));
  for (const question of product.questions ?? []) add(booking, question, {});
  for (const option of product.options) {
    const shownWhen = several ? { shownWhen: { option: SUPPLIER_OPTION_KEY, equals: option.id } } : {};
    for (const question of option.questions ?? []) if (!productIds.has(question.id)) add(booking, question, shownWhen);
    // A question several units ask is asked once of each holder of any of them.
    const byId = new Map<string, { question: OctoQuestion; units: string[] }>();
    for (const unit of option.units) {
      for (const question of unit.questions ?? []) {
        const entry = byId.get(question.id) ?? { question, units: [] };
        entry.units.push(unit.id);
        byId.set(question.id, entry);
      }
    }
    for (const { question, units } of byId.values()) add(participant, question, { ...shownWhen, units });
  }
  return { booking, participant, remote };
}

/**
 * An OCTO product (read with `octo/pricing`) as the flow's setup (docs/octo-engine.md, "Booking
 * through OCTO"): the supplier's options as one OPTIONS option when there are several, each
 * option's units as tickets shown for that option at its `pricingFrom` retail price (departures'
 * own prices replace it, octo-engine), the contact fields the options require as customer
 * questions, the supplier's required questions, and the strictest cutoff as the one
 * cancellation tier. Undefined when the product cannot be sold through the flow: no options, no
 * prices in its currency, a currency we have no exchange rate for, or a required question the flow
 * cannot ask (octoSaleCurrency).
 */
export function setupOfOctoProduct(product: ProductWithQuestions): BookingSetup | undefined {
  const options = product.options;
  const currency = octoSaleCurrency(product);
  if (!currency || !product.timeZone) return undefined;
  const several = options.length > 1;
  const perBooking = pricedPerBooking(product);
  const priced = pricedUnits(options, currency, perBooking, several);
  if (!priced) return undefined;
  const { units, bookingPrices, limits } = priced;
  // OCTO bounds tickets and people per option; the flow counts people, and a ticket may admit
  // several. Product-wide: the loosest option's bounds; the chosen option's apply once it is chosen.
  const mostPax = Math.max(1, ...units.map((unit) => unit.paxCount ?? 1));
  const minUnits = Math.min(...options.map((o) => Math.max(limits[o.id].minUnits ?? 1, limits[o.id].minPax ?? 0)));
  const maxUnits = Math.max(...options.map((o) => Math.min((limits[o.id].maxUnits ?? 1000) * mostPax, limits[o.id].maxPax ?? 1000)));
  const asked = supplierQuestions(product, several);
  const contactFields = new Set([...ALWAYS_ASKED, ...options.flatMap((o) => [...o.requiredContactFields, ...o.units.flatMap((u) => u.requiredContactFields)])]);
  const strictest = options.reduce((a, b) => (cutoffMinutes(b) > cutoffMinutes(a) ? b : a));
  return {
    timeZone: product.timeZone,
    capacityPerSlot: FREESALE_PLACES,
    minParticipants: Math.max(1, minUnits),
    maxParticipants: Math.min(1000, Math.max(1, maxUnits)),
    currency,
    // Per booking: the first option's price until one is chosen (unitsShown takes the chosen one's, or its departure's).
    fixedFee: perBooking ? bookingPrices[options[0].id] : 0,
    options: several
      ? [{ key: SUPPLIER_OPTION_KEY, label: { en: "Option", fr: "Option", de: "Option" }, dataType: "OPTIONS", choices: options.map((o) => ({ key: o.id, label: o.title ?? o.internalName })) }]
      : [],
    units,
    questions: { customer: Object.keys(CONTACT_QUESTIONS).filter((field) => contactFields.has(field)).map((field) => CONTACT_QUESTIONS[field]), booking: asked.booking, participant: asked.participant },
    cancellationTiers: cancellationTier(strictest),
    leadTravellerName: ["firstName", "lastName"],
    // The supplier is asked as soon as the payment is acknowledged.
    confirmationDelaySeconds: 0,
    bookingHorizonDays: 365,
    remote: {
      productId: product.id,
      optionIds: options.map((o) => o.id),
      ...(several ? { optionKey: SUPPLIER_OPTION_KEY } : {}),
      ...(perBooking ? { bookingPrices } : {}),
      limits,
      ...(Object.keys(asked.remote).length ? { questions: asked.remote } : {}),
    },
  };
}

/**
 * Every option's units as the setup's, with each option's limits and, priced per booking, its
 * price; undefined when a price is missing in the sale currency.
 */
function pricedUnits(options: Option[], currency: string, perBooking: boolean, several: boolean) {
  const bookingPrices: Record<string, number> = {};
  const limits: Record<string, BookingLimits> = {};
  const units: UnitSetup[] = [];
  for (const option of options) {
    limits[option.id] = optionLimits(option);
    if (perBooking) {
      // The option's price is the booking's; its units (the people the supplier counts) cost nothing apart.
      const price = retailIn(option.pricingFrom ?? option.pricing, currency);
      if (price === undefined) return undefined;
      bookingPrices[option.id] = price;
    }
    for (const unit of option.units) {
      const price = perBooking ? 0 : retailIn(unit.pricingFrom ?? unit.pricing, currency);
      if (price === undefined) return undefined;
      units.push(unitSetupOf(unit, option, price, limits[option.id], several));
    }
  }
  return { units, bookingPrices, limits };
}

function unitSetupOf(unit: Option["units"][number], option: Option, price: number, limits: BookingLimits, several: boolean): UnitSetup {
  const { minAge, maxAge, minQuantity, maxQuantity, accompaniedBy } = unit.restrictions;
  return {
    key: unit.id,
    label: unit.title ?? unit.internalName,
    minAge: Math.max(0, minAge ?? 0),
    ...(maxAge !== undefined && maxAge !== null && maxAge >= (minAge ?? 0) ? { maxAge } : {}),
    unitPriceType: "PER_PERSON",
    price,
    minQuantity: minQuantity ?? 0,
    maxQuantity: Math.max(1, maxQuantity ?? limits.maxUnits ?? 1000),
    accompaniedBy: accompaniedBy ?? [],
    ...(unit.restrictions.paxCount > 1 ? { paxCount: unit.restrictions.paxCount } : {}),
    ...(several ? { shownWhen: { option: SUPPLIER_OPTION_KEY, equals: option.id } } : {}),
  };
}

function cutoffMinutes(option: Option): number {
  const perUnit = { minute: 1, hour: 60, day: 1440 }[option.cancellationCutoffUnit] ?? 0;
  return option.cancellationCutoffAmount * perUnit;
}

/** The supplier's option a booking's selections chose. */
export function chosenOctoOption(setup: BookingSetup, selections: Record<string, string>): string {
  const remote = setup.remote!;
  return remote.optionKey ? selections[remote.optionKey] : remote.optionIds[0];
}
