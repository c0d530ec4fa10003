import { isConvertible } from "../../../core/exchange-rates.js";
import { askable, type ProductWithQuestions } from "./octo-questions.js";

/**
 * The one rule for whether the booking flow can sell an OCTO product: it has options, a time
 * zone, a retail price for every unit in a currency we can convert, and no required question the
 * flow cannot ask (`octo/questions`). The booking engine builds its setup under it, and the
 * content import marks the product bookable online by it, so the catalogue never shows a product
 * bookable that the flow would refuse. Answers the currency.
 */
export function octoSaleCurrency(product: ProductWithQuestions): string | undefined {
  const currency = product.defaultCurrency ?? product.options[0]?.units[0]?.pricingFrom?.[0]?.currency;
  if (!product.options.length || !currency || !isConvertible(currency) || !product.timeZone || !askable(product)) return undefined;
  const priced = product.options.every((option) => option.units.length > 0 && option.units.every((unit) => (unit.pricingFrom ?? unit.pricing)?.some((price) => price.currency === currency)));
  return priced ? currency : undefined;
}
