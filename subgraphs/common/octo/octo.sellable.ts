import { isConvertible } from "../../../core/exchange-rates.js";
import { fromPrices, pricedPerBooking } from "./octo.fields.js";
import { askable, type ProductWithQuestions } from "../../../core/octo-questions.js";

/**
 * The one rule for whether the booking flow can sell an OCTO product: it has options, a time
 * zone, a retail price in a currency we can convert for every unit (for every option when it is
 * priced per booking), and no required question the
 * flow cannot ask (`octo/questions`). The booking engine builds its setup under it, and the
 * content import marks the product bookable online by it, so the catalogue never shows a product
 * bookable that the flow would refuse. Answers the currency.
 */
export function octoSaleCurrency(product: ProductWithQuestions): string | undefined {
  const currency = product.defaultCurrency ?? fromPrices(product)[0]?.currency;
  if (!product.options.length || !currency || !isConvertible(currency) || !product.timeZone || !askable(product)) return undefined;
  const inCurrency = (prices: { currency: string }[] | undefined) => prices?.some((price) => price.currency === currency) ?? false;
  // Priced per booking, the option carries the price and its units none (OCTO's pricing capability).
  const priced = product.options.every(
    (option) => option.units.length > 0 && (pricedPerBooking(product) ? inCurrency(option.pricingFrom ?? option.pricing) : option.units.every((unit) => inCurrency(unit.pricingFrom ?? unit.pricing))),
  );
  return priced ? currency : undefined;
}
