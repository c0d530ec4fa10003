import { GraphQLScalarType } from "graphql";
import { GraphQLDateTimeISO, GraphQLUUID } from "graphql-scalars";
import { isCalendarDate } from "../../core/calendar-date.js";
import { isCountryCode, isCurrencyCode } from "../../core/iso-codes.js";

/**
 * The graph's scalars (docs/graph-design.md, "Scalars, dates and money"). Each keeps the value the
 * service holds: an instant is written as RFC 3339 in UTC, a URL exactly as it was registered
 * (graphql-scalars' URL would rewrite it, `https://A.example` to `https://a.example/`).
 */
export const DateTimeScalar = new GraphQLScalarType({
  ...GraphQLDateTimeISO.toConfig(),
  name: "DateTime",
  description: "An instant, as RFC 3339 in UTC with milliseconds: 2026-11-28T13:42:00.000Z",
  specifiedByURL: "https://datatracker.ietf.org/doc/html/rfc3339#section-5.6",
});

export const UrlScalar = new GraphQLScalarType({
  name: "URL",
  description: "An absolute http or https URL",
  specifiedByURL: "https://url.spec.whatwg.org/",
  serialize: (value) => String(value),
  parseValue: (value) => parseUrl(value),
  parseLiteral: (ast) => parseUrl("value" in ast ? ast.value : undefined),
});

function parseUrl(value: unknown): string {
  if (typeof value === "string" && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)) return value;
  throw new TypeError("URL must be an absolute http or https URL");
}

export const UuidScalar = new GraphQLScalarType({ ...GraphQLUUID.toConfig(), description: "A UUID in its canonical 8-4-4-4-12 form" });

export const CountryCodeScalar = new GraphQLScalarType({
  name: "CountryCode",
  description: "An ISO 3166-1 alpha-2 country code, in upper case: CH",
  specifiedByURL: "https://www.iso.org/iso-3166-country-codes.html",
  serialize: (value) => String(value),
  parseValue: (value) => parseCountryCode(value),
  parseLiteral: (ast) => parseCountryCode("value" in ast ? ast.value : undefined),
});

function parseCountryCode(value: unknown): string {
  if (typeof value === "string" && isCountryCode(value)) return value;
  throw new TypeError("CountryCode must be an ISO 3166-1 alpha-2 code in upper case");
}

export const DateScalar = new GraphQLScalarType({
  name: "Date",
  description: "A calendar date, YYYY-MM-DD, in the activity's own time zone: 2026-11-28",
  specifiedByURL: "https://datatracker.ietf.org/doc/html/rfc3339#section-5.6",
  serialize: (value) => String(value),
  parseValue: (value) => parseDate(value),
  parseLiteral: (ast) => parseDate("value" in ast ? ast.value : undefined),
});

function parseDate(value: unknown): string {
  if (isCalendarDate(value)) return value;
  throw new TypeError("Date must be a calendar date YYYY-MM-DD");
}

/**
 * An exact amount, written as a string so that no client reads it into a binary float: "49.90".
 * Answers only: amounts the service is given are typed by people and checked by the service.
 */
export const DecimalScalar = new GraphQLScalarType({
  name: "Decimal",
  description: 'An exact decimal number, as a string: "49.90". Never a binary float',
  serialize: (value) => String(value),
  parseValue: (value) => parseDecimal(value),
  parseLiteral: (ast) => parseDecimal("value" in ast ? ast.value : undefined),
});

function parseDecimal(value: unknown): string {
  if (typeof value === "string" && /^-?\d{1,15}(\.\d{1,10})?$/.test(value)) return value;
  throw new TypeError('Decimal must be a decimal number written as a string: "49.90"');
}

export const CurrencyCodeScalar = new GraphQLScalarType({
  name: "CurrencyCode",
  description: "An ISO 4217 currency code: EUR",
  specifiedByURL: "https://www.iso.org/iso-4217-currency-codes.html",
  serialize: (value) => String(value),
  parseValue: (value) => parseCurrencyCode(value),
  parseLiteral: (ast) => parseCurrencyCode("value" in ast ? ast.value : undefined),
});

function parseCurrencyCode(value: unknown): string {
  if (typeof value === "string" && isCurrencyCode(value)) return value;
  throw new TypeError("CurrencyCode must be an ISO 4217 code in upper case");
}
