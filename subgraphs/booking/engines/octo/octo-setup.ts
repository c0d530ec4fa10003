import type { Option, Pricing, Product } from "@octocloud/types";
import { octoSaleCurrency } from "../../../common/octo/octo-sellable.js";
import type { BookingSetup, QuestionSetup, UnitSetup } from "../inventory/booking-setup.js";

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

/**
 * An OCTO product (read with `octo/pricing`) as the flow's setup (docs/octo-engine.md, "Booking
 * through OCTO"): the supplier's options as one OPTIONS option when there are several, each
 * option's units as tickets shown for that option at its `pricingFrom` retail price, the contact
 * fields the options require as customer questions, and the strictest cutoff as the one
 * cancellation tier. Undefined when the product cannot be sold through the flow: no options, no
 * prices in its currency, or a currency we have no exchange rate for.
 */
export function setupOfOctoProduct(product: Product): BookingSetup | undefined {
  const options = product.options;
  const currency = octoSaleCurrency(product);
  if (!currency || !product.timeZone) return undefined;
  const several = options.length > 1;
  const units: UnitSetup[] = [];
  for (const option of options) {
    for (const unit of option.units) {
      const price = retailIn(unit.pricingFrom ?? unit.pricing, currency);
      if (price === undefined) return undefined;
      const { minAge, maxAge, minQuantity, maxQuantity, accompaniedBy } = unit.restrictions;
      units.push({
        key: unit.id,
        label: unit.title ?? unit.internalName,
        minAge: Math.max(0, minAge ?? 0),
        ...(maxAge !== undefined && maxAge !== null && maxAge >= (minAge ?? 0) ? { maxAge } : {}),
        unitPriceType: "PER_PERSON",
        price,
        minQuantity: minQuantity ?? 0,
        maxQuantity: Math.max(1, maxQuantity ?? option.restrictions.maxUnits ?? 1000),
        accompaniedBy: accompaniedBy ?? [],
        ...(several ? { shownWhen: { option: SUPPLIER_OPTION_KEY, equals: option.id } } : {}),
      });
    }
  }
  const minUnits = Math.min(...options.map((o) => o.restrictions.minUnits ?? 1));
  const maxUnits = Math.max(...options.map((o) => o.restrictions.maxUnits ?? 1000));
  const contactFields = new Set([...ALWAYS_ASKED, ...options.flatMap((o) => [...o.requiredContactFields, ...o.units.flatMap((u) => u.requiredContactFields)])]);
  const strictest = options.reduce((a, b) => (cutoffMinutes(b) > cutoffMinutes(a) ? b : a));
  return {
    timeZone: product.timeZone,
    capacityPerSlot: FREESALE_PLACES,
    minParticipants: Math.max(1, minUnits),
    maxParticipants: Math.min(1000, Math.max(1, maxUnits)),
    currency,
    fixedFee: 0,
    options: several
      ? [{ key: SUPPLIER_OPTION_KEY, label: { en: "Option", fr: "Option", de: "Option" }, dataType: "OPTIONS", choices: options.map((o) => ({ key: o.id, label: o.title ?? o.internalName })) }]
      : [],
    units,
    questions: { customer: Object.keys(CONTACT_QUESTIONS).filter((field) => contactFields.has(field)).map((field) => CONTACT_QUESTIONS[field]), booking: [], participant: [] },
    cancellationTiers: cancellationTier(strictest),
    leadTravellerName: ["firstName", "lastName"],
    // The supplier is asked as soon as the payment is acknowledged.
    confirmationDelaySeconds: 0,
    bookingHorizonDays: 365,
    remote: { productId: product.id, optionIds: options.map((o) => o.id), ...(several ? { optionKey: SUPPLIER_OPTION_KEY } : {}) },
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
