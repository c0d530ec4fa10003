import { readFile } from "node:fs/promises";
import { unwatchFile, watchFile } from "node:fs";
import { isCalendarDate } from "./calendar-date.js";
import type { Logger } from "./logger.js";

/** Where a rate came from and the day it was fixed: every converted price says which it used. */
export interface RatesUsed {
  date: string;
  source: string;
}

interface Rate extends RatesUsed {
  /** Units of the currency per euro. */
  perEuro: number;
}

export const BUNDLED_SOURCE = "bundled reference rates";

/**
 * Reference rates of 2026-11-20, shipped with the service: the table in force until a rates file
 * is configured (EXCHANGE_RATES_FILE), and afterwards for the currencies that file lacks (the ECB
 * publishes about 30; the contract accepts AED, SAR, NPR and others it does not).
 */
const BUNDLED_DATE = "2026-11-20";
const bundledPerEuro: Record<string, number> = {
  EUR: 1, USD: 1.08, GBP: 0.85, CHF: 0.95, JPY: 160, CNY: 7.8, AUD: 1.65, CAD: 1.48, NZD: 1.8, SEK: 11.4, NOK: 11.7, DKK: 7.46,
  PLN: 4.3, CZK: 25.1, HUF: 395, RON: 4.97, BGN: 1.96, TRY: 37, ISK: 150, MXN: 19.5, BRL: 5.9, ARS: 1050, CLP: 1010, COP: 4500,
  PEN: 4.05, ZAR: 20, MAD: 10.8, EGP: 52, AED: 3.97, SAR: 4.05, QAR: 3.93, ILS: 4.0, INR: 91, THB: 38, SGD: 1.45, HKD: 8.4,
  FJD: 2.45, NAD: 20, NPR: 145, KRW: 1480, TWD: 34.5, MYR: 4.8, IDR: 17200, PHP: 62, VND: 27300, KES: 140, TZS: 2900,
};
const bundled: ReadonlyMap<string, Rate> = new Map(
  Object.entries(bundledPerEuro).map(([currency, perEuro]) => [currency, { perEuro, date: BUNDLED_DATE, source: BUNDLED_SOURCE }]),
);

/** The table in force in this process; a rates file replaces it whole, so a reader never sees half of one. */
let current: ReadonlyMap<string, Rate> = bundled;

/** A Map, not an object: `constructor` or `__proto__` is no currency. */
export const isConvertible = (currency: string): boolean => current.has(currency);

/**
 * One currency pair at the rates in force: what a price answer shows (`date`, `source`) and what a
 * booking keeps, so that it is priced at the rates of its creation for ever after.
 */
export interface Conversion extends RatesUsed {
  from: string;
  to: string;
  fromPerEuro: number;
  toPerEuro: number;
}

/**
 * The pair at the rates in force, or undefined when a rate is missing. Its date is the older of
 * the two rates' (the euro needs none, so it takes the other's).
 */
export function conversion(from: string, to: string): Conversion | undefined {
  const a = current.get(from);
  const b = current.get(to);
  if (!a || !b) return undefined;
  const dated = [a, b].filter((_, i) => [from, to][i] !== "EUR");
  const older = dated.length === 0 ? a : dated.reduce((x, y) => (y.date < x.date ? y : x));
  return { from, to, fromPerEuro: a.perEuro, toPerEuro: b.perEuro, date: older.date, source: older.source };
}

/** The amount converted and rounded to cents. */
export const applyConversion = (amount: number, pair: Conversion): number =>
  pair.from === pair.to ? amount : Math.round((amount / pair.fromPerEuro) * pair.toPerEuro * 100) / 100;

/** The amount in another currency at the rates in force, or null when a rate is missing. */
export function convert(amount: number, from: string, to: string): number | null {
  const pair = conversion(from, to);
  return pair ? applyConversion(amount, pair) : null;
}

export class RatesFileError extends Error {}

/**
 * Parses the ECB's daily reference rates (eurofxref-daily.xml; the 90-day and historical files
 * too, of which the newest day is taken): `<Cube time='YYYY-MM-DD'>` holding
 * `<Cube currency='USD' rate='1.0921'/>` entries, units per euro.
 */
export function parseEcbRates(xml: string, source: string): Map<string, Rate> {
  // A day's entries are self-closing, so its own closing tag is the first one after it.
  const days = [...xml.matchAll(/<Cube\s+time=["'](\d{4}-\d{2}-\d{2})["']\s*>([\s\S]*?)<\/Cube>/g)];
  if (days.length === 0) throw new RatesFileError("no <Cube time='YYYY-MM-DD'> element: not the ECB reference rates format");
  const [, date, body] = days.reduce((newest, day) => (day[1] > newest[1] ? day : newest));
  if (!isCalendarDate(date)) throw new RatesFileError(`time='${date}' is not a calendar date`);
  const rates = new Map<string, Rate>([["EUR", { perEuro: 1, date, source }]]);
  for (const [, currency, rate] of body.matchAll(/<Cube\s+currency=["']([^"']*)["']\s+rate=["']([^"']*)["']\s*\/>/g)) {
    const perEuro = Number(rate);
    if (!/^[A-Z]{3}$/.test(currency)) throw new RatesFileError(`currency='${currency}' is not an ISO 4217 code`);
    if (!/^\d+(\.\d+)?$/.test(rate) || !(perEuro > 0)) throw new RatesFileError(`rate='${rate}' of ${currency} is not a positive number`);
    rates.set(currency, { perEuro, date, source });
  }
  if (rates.size === 1) throw new RatesFileError(`the day ${date} holds no <Cube currency='…' rate='…'/> entries`);
  return rates;
}

/** The file's rates over the bundled table: currencies the file lacks keep their bundled rate and date. */
async function readRatesFile(file: string): Promise<Map<string, Rate>> {
  const fromFile = parseEcbRates(await readFile(file, "utf8"), `ECB reference rates (${file})`);
  return new Map([...bundled, ...fromFile]);
}

/**
 * Loads EXCHANGE_RATES_FILE and reloads it when it changes (polled, so a file replaced by rename, as
 * a daily download does, is seen too). A file that cannot be read or parsed refuses start-up; a
 * later bad version is logged and the rates in force stay. Returns a stop function.
 */
export async function useRatesFile(file: string, logger: Logger, pollMs = 2000): Promise<() => void> {
  try {
    current = await readRatesFile(file);
  } catch (error) {
    throw new RatesFileError(`EXCHANGE_RATES_FILE=${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  logger.info({ file, date: current.get("EUR")!.date, currencies: current.size }, "exchange rates loaded");
  const reload = () => {
    readRatesFile(file).then(
      (rates) => {
        current = rates;
        logger.info({ file, date: rates.get("EUR")!.date }, "exchange rates reloaded");
      },
      (error) => logger.warn({ file, err: error }, "exchange rates file not reloaded; the rates in force stay"),
    );
  };
  watchFile(file, { interval: pollMs, persistent: false }, (now, before) => {
    if (now.mtimeMs !== before.mtimeMs || now.size !== before.size) reload();
  });
  return () => {
    unwatchFile(file);
    current = bundled;
  };
}
