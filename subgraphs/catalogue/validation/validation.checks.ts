import { isCalendarDate } from "../../../core/calendar-date.js";
import { isEmailAddress, isPhoneNumber, isWebUrl } from "../../../core/contact-details.js";
import type { FieldProblem } from "../../../core/errors.js";
import { isCountryCode, isCurrencyCode, isLanguageCode, isSupportedCurrency } from "../../../core/iso-codes.js";

/**
 * Collects every problem of an input, each naming the field (in the REST body's spelling, e.g.
 * `geoLocation.latitude`, `categories[2].code`) and the rule it breaks.
 */
export class Problems {
  readonly list: FieldProblem[] = [];
  add(field: string, rule: string, message: string): void {
    this.list.push({ field, rule, message });
  }
  get empty(): boolean {
    return this.list.length === 0;
  }
}

const present = (value: unknown): boolean => value !== undefined && value !== null;

export function requireValue(p: Problems, field: string, value: unknown): boolean {
  if (!present(value) || (typeof value === "string" && value.trim() === "")) {
    p.add(field, "required", `${field} is required`);
    return false;
  }
  return true;
}

export function string(p: Problems, field: string, value: unknown, rule: { max: number; required?: boolean; min?: number }): void {
  if (!present(value)) {
    if (rule.required) requireValue(p, field, value);
    return;
  }
  if (typeof value !== "string") return p.add(field, "type", `${field} must be a string`);
  if (rule.required && value.trim() === "") return p.add(field, "required", `${field} is required`);
  if (value.length > rule.max) p.add(field, "maxLength", `${field} must be at most ${rule.max} characters`);
  if (rule.min !== undefined && value.length < rule.min) p.add(field, "minLength", `${field} must be at least ${rule.min} characters`);
}

export function oneOf(p: Problems, field: string, value: unknown, values: readonly string[]): void {
  if (!present(value)) return;
  if (typeof value !== "string" || !values.includes(value)) p.add(field, "enum", `${field} must be one of ${values.join(", ")}`);
}

export function number(p: Problems, field: string, value: unknown, rule: { min?: number; max?: number; integer?: boolean } = {}): void {
  if (!present(value)) return;
  if (typeof value !== "number" || !Number.isFinite(value)) return p.add(field, "type", `${field} must be a number`);
  if (rule.integer && !Number.isInteger(value)) return p.add(field, "integer", `${field} must be a whole number`);
  if (rule.min !== undefined && value < rule.min) p.add(field, "minimum", `${field} must be at least ${rule.min}`);
  if (rule.max !== undefined && value > rule.max) p.add(field, "maximum", `${field} must be at most ${rule.max}`);
}

export function country(p: Problems, field: string, value: unknown, required = false): void {
  if (!present(value)) {
    if (required) requireValue(p, field, value);
    return;
  }
  if (typeof value !== "string" || !isCountryCode(value)) p.add(field, "iso3166", `${field} must be an ISO 3166-1 alpha-2 country code (e.g. FR)`);
}

export function currency(p: Problems, field: string, value: unknown): void {
  if (!present(value)) return;
  if (typeof value !== "string" || !isCurrencyCode(value)) return p.add(field, "iso4217", `${field} must be an ISO 4217 currency code (e.g. EUR)`);
  if (!isSupportedCurrency(value)) p.add(field, "supportedCurrency", `${field} ${value} is not a currency activities can be priced in`);
}

/** A language object: keys are ISO 639-1 codes, values strings of at most `max` characters (links, with `url`). */
export function languageObject(p: Problems, field: string, value: unknown, rule: { required?: boolean; max?: number; url?: boolean } = {}): void {
  if (!present(value)) {
    if (rule.required) requireValue(p, field, value);
    return;
  }
  if (typeof value !== "object" || Array.isArray(value)) {
    return p.add(field, "languageObject", `${field} must be an object keyed by ISO 639-1 language codes`);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (rule.required && entries.length === 0) return p.add(field, "required", `${field} needs at least one language`);
  for (const [language, text] of entries) {
    if (!isLanguageCode(language)) p.add(`${field}.${language}`, "iso639-1", `${language} is not an ISO 639-1 language code`);
    else if (typeof text !== "string") p.add(`${field}.${language}`, "type", `${field}.${language} must be a string`);
    else if (rule.required && text.trim() === "") p.add(`${field}.${language}`, "required", `${field}.${language} must not be empty`);
    else if (rule.max !== undefined && text.length > rule.max) p.add(`${field}.${language}`, "maxLength", `${field}.${language} must be at most ${rule.max} characters`);
    else if (rule.url && !isWebUrl(text)) p.add(`${field}.${language}`, "url", `${field}.${language} must be an absolute http or https URL`);
  }
}

const ISO_DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;
export function duration(p: Problems, field: string, value: unknown): void {
  if (!present(value)) return;
  if (typeof value !== "string" || !ISO_DURATION.test(value)) p.add(field, "iso8601Duration", `${field} must be an ISO 8601 duration (e.g. PT2H30M)`);
}

export const isDate = isCalendarDate;

export function dateValue(p: Problems, field: string, value: unknown): void {
  if (!present(value)) return;
  if (!isDate(value)) p.add(field, "date", `${field} must be a date YYYY-MM-DD`);
}

export function localDateTime(p: Problems, field: string, value: unknown): void {
  const match = typeof value === "string" ? value.match(/^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/) : null;
  if (!match || !isDate(match[1])) p.add(field, "localDateTime", `${field} must be a local date-time YYYY-MM-DDTHH:MM[:SS] without offset`);
}

export function array(p: Problems, field: string, value: unknown, each: (item: unknown, path: string) => void, rule: { max?: number } = {}): void {
  if (!present(value)) return;
  if (!Array.isArray(value)) return p.add(field, "type", `${field} must be an array`);
  if (rule.max !== undefined && value.length > rule.max) return p.add(field, "maxItems", `${field} must have at most ${rule.max} items`);
  value.forEach((item, index) => each(item, `${field}[${index}]`));
}

export function object(p: Problems, field: string, value: unknown): value is Record<string, unknown> {
  if (!present(value)) return false;
  if (typeof value !== "object" || Array.isArray(value)) {
    p.add(field, "type", `${field} must be an object`);
    return false;
  }
  return true;
}

export function booleanValue(p: Problems, field: string, value: unknown): void {
  if (present(value) && typeof value !== "boolean") p.add(field, "type", `${field} must be true or false`);
}

/** Latitude, longitude and geohash of a location object. */
export function geoLocation(p: Problems, field: string, value: unknown): void {
  if (!object(p, field, value)) return;
  const { latitude, longitude, geoHash } = value;
  number(p, `${field}.latitude`, latitude, { min: -90, max: 90 });
  number(p, `${field}.longitude`, longitude, { min: -180, max: 180 });
  if ((latitude === undefined || latitude === null) !== (longitude === undefined || longitude === null)) {
    p.add(field, "pair", `${field}.latitude and ${field}.longitude go together`);
  }
  if (geoHash !== undefined && geoHash !== null && (typeof geoHash !== "string" || !/^[0123456789bcdefghjkmnpqrstuvwxyz]{1,12}$/.test(geoHash))) {
    p.add(`${field}.geoHash`, "geohash", `${field}.geoHash must be a base-32 geohash of 1 to 12 characters`);
  }
}

export function email(p: Problems, field: string, value: unknown, max: number): void {
  shaped(p, field, value, { max }, isEmailAddress, "email", "an e-mail address");
}

/** A link a consumer can follow: an absolute http or https URL (core/contact-details.ts). */
export function webUrl(p: Problems, field: string, value: unknown, rule: { max: number; required?: boolean }): void {
  shaped(p, field, value, rule, isWebUrl, "url", "an absolute http or https URL");
}

export function phoneNumber(p: Problems, field: string, value: unknown, max: number): void {
  shaped(p, field, value, { max }, isPhoneNumber, "phoneNumber", "a telephone number: an optional leading +, 5 to 15 digits, spaces, hyphens, dots, slashes or parentheses, and an optional extension");
}

/** A string of a given shape (an empty one is none): one problem a field, the string's own first. */
function shaped(p: Problems, field: string, value: unknown, rule: { max: number; required?: boolean }, accepts: (value: string) => boolean, name: string, what: string): void {
  const before = p.list.length;
  string(p, field, value, rule);
  if (p.list.length === before && typeof value === "string" && !accepts(value)) p.add(field, name, `${field} must be ${what}`);
}
