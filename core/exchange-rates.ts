/**
 * Reference rates (units of each currency per euro) used to compare prices across currencies in
 * recommendations. This machine reaches no rates service, so they are reference values of
 * November 2026, kept here with their date; docs/spec-decisions.md says how they are used.
 */
export const RATES_DATE = "2026-11-20";
const perEuro: Record<string, number> = {
  EUR: 1, USD: 1.08, GBP: 0.85, CHF: 0.95, JPY: 160, CNY: 7.8, AUD: 1.65, CAD: 1.48, NZD: 1.8, SEK: 11.4, NOK: 11.7, DKK: 7.46,
  PLN: 4.3, CZK: 25.1, HUF: 395, RON: 4.97, BGN: 1.96, TRY: 37, ISK: 150, MXN: 19.5, BRL: 5.9, ARS: 1050, CLP: 1010, COP: 4500,
  PEN: 4.05, ZAR: 20, MAD: 10.8, EGP: 52, AED: 3.97, SAR: 4.05, QAR: 3.93, ILS: 4.0, INR: 91, THB: 38, SGD: 1.45, HKD: 8.4,
  FJD: 2.45, NAD: 20, NPR: 145, KRW: 1480, TWD: 34.5, MYR: 4.8, IDR: 17200, PHP: 62, VND: 27300, KES: 140, TZS: 2900,
};

/** Own properties only: `constructor` or `__proto__` is no currency. */
export const isConvertible = (currency: string): boolean => Object.hasOwn(perEuro, currency);

/** The amount in another currency, or null when a rate is missing. */
export function convert(amount: number, from: string, to: string): number | null {
  const fromRate = isConvertible(from) ? perEuro[from] : undefined;
  const toRate = isConvertible(to) ? perEuro[to] : undefined;
  if (!fromRate || !toRate) return null;
  return Math.round((amount / fromRate) * toRate * 100) / 100;
}
