import currencyCodes from "currency-codes";
import countries from "i18n-iso-countries";
import languages from "iso-639-1";

/** ISO lists come from maintained packages, never from tables typed here. */
export const isCountryCode = (value: string): boolean => /^[A-Z]{2}$/.test(value) && countries.isValid(value);
export const isCurrencyCode = (value: string): boolean => /^[A-Z]{3}$/.test(value) && currencyCodes.code(value) !== undefined;

/**
 * ISO 4217 also lists codes that are no money to price an activity in: funds, precious metals,
 * units of account, the testing and no-currency codes. Those are "unsupported currencies".
 */
const NOT_RETAIL_MONEY = /fund|unidad|unidades|mvdol|^wir |bond markets|special drawing|\bsdr\b|testing|no currency|^sucre$|adb unit|^gold$|^silver$|^platinum$|^palladium$/i;
export const isSupportedCurrency = (value: string): boolean => {
  const entry = /^[A-Z]{3}$/.test(value) ? currencyCodes.code(value) : undefined;
  return entry !== undefined && !NOT_RETAIL_MONEY.test(entry.currency);
};
export const isLanguageCode = (value: string): boolean => /^[a-z]{2}$/.test(value) && languages.validate(value);

/** The country's name as a language object, in the languages the package knows among those asked for. */
export function countryNames(code: string, languageCodes: readonly string[]): Record<string, string> {
  const names: Record<string, string> = {};
  for (const language of languageCodes) {
    const name = countryName(code, language);
    if (name) names[language] = name;
  }
  if (!names.en) {
    const english = countryName(code, "en");
    if (english) names.en = english;
  }
  return names;
}

/**
 * countryNames, the same frozen object for the same code and languages: every product of a page
 * names its country, and most pages name a few. Bounded like the names it is made of.
 */
export function sharedCountryNames(code: string, languageCodes: readonly string[]): Readonly<Record<string, string>> {
  const key = `${code}:${languageCodes.join(",")}`;
  let names = knownNameSets.get(key);
  if (!names) {
    if (knownNameSets.size >= 10_000) knownNameSets.clear();
    knownNameSets.set(key, (names = Object.freeze(countryNames(code, languageCodes))));
  }
  return names;
}

const knownNameSets = new Map<string, Readonly<Record<string, string>>>();

/**
 * Names already looked up: a page of records names the same few countries a hundred times, and
 * the package's lookup was a visible part of a search page's CPU. Bounded, since the languages
 * come from callers' headers.
 */
const knownCountryNames = new Map<string, string | undefined>();

function countryName(code: string, language: string): string | undefined {
  const key = `${code}:${language}`;
  if (knownCountryNames.has(key)) return knownCountryNames.get(key);
  const name = countries.getName(code, language);
  if (knownCountryNames.size >= 10_000) knownCountryNames.clear();
  knownCountryNames.set(key, name);
  return name;
}

/** Languages i18n-iso-countries ships names for, registered once. */
export const countryNameLanguages = ["en", "de", "fr", "es", "it", "nl", "pt"] as const;

/** How many digits follow the decimal point in the currency's amounts (2 for EUR, 0 for JPY); 2 for a code the list lacks. */
export const minorUnitDigits = (code: string): number => currencyCodes.code(code)?.digits ?? 2;
