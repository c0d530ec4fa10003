import { GraphQLScalarType } from "graphql";
import { GraphQLDateTimeISO, GraphQLUUID } from "graphql-scalars";
import { isCalendarDate } from "../../core/calendar-date.js";
import { isEmailAddress, isPhoneNumber, isWebUrl } from "../../core/contact-details.js";
import { isCountryCode, isCurrencyCode, isLanguageCode } from "../../core/iso-codes.js";

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

export const UuidScalar = new GraphQLScalarType({ ...GraphQLUUID.toConfig(), description: "A UUID in its canonical 8-4-4-4-12 form" });

/** A scalar written as a string the service keeps as it is, and accepts only when `accepts` holds. */
function checkedString(config: { name: string; description: string; specifiedByURL?: string; accepts: (value: string) => boolean; refusal: string }): GraphQLScalarType {
  const parse = (value: unknown): string => {
    if (typeof value === "string" && config.accepts(value)) return value;
    throw new TypeError(config.refusal);
  };
  return new GraphQLScalarType({
    name: config.name,
    description: config.description,
    specifiedByURL: config.specifiedByURL,
    serialize: (value) => String(value),
    parseValue: parse,
    parseLiteral: (ast) => parse("value" in ast ? ast.value : undefined),
  });
}

export const UrlScalar = checkedString({
  name: "URL",
  description: "An absolute http or https URL with a host, as it was given: https://museum.example/tickets",
  specifiedByURL: "https://url.spec.whatwg.org/",
  accepts: isWebUrl,
  refusal: "URL must be an absolute http or https URL with a host, without white space",
});

export const EmailAddressScalar = checkedString({
  name: "EmailAddress",
  description: "An e-mail address, as it was given: hello@museum.example",
  specifiedByURL: "https://datatracker.ietf.org/doc/html/rfc5322#section-3.4.1",
  accepts: isEmailAddress,
  refusal: "EmailAddress must be an e-mail address: a local part, @ and a domain with a dot",
});

export const PhoneNumberScalar = checkedString({
  name: "PhoneNumber",
  description:
    "A telephone number as it was given: an optional leading +, 5 to 15 digits grouped by spaces, hyphens, dots, slashes or parentheses, and an optional extension: +41 44 123 45 67, (555) 123-4567 ext. 12",
  specifiedByURL: "https://www.itu.int/rec/T-REC-E.123",
  accepts: isPhoneNumber,
  refusal: "PhoneNumber must be a telephone number: an optional leading +, 5 to 15 digits, spaces, hyphens, dots, slashes or parentheses, and an optional extension",
});

export const CountryCodeScalar = checkedString({
  name: "CountryCode",
  description: "An ISO 3166-1 alpha-2 country code, in upper case: CH",
  specifiedByURL: "https://www.iso.org/iso-3166-country-codes.html",
  accepts: isCountryCode,
  refusal: "CountryCode must be an ISO 3166-1 alpha-2 code in upper case",
});

export const LanguageCodeScalar = checkedString({
  name: "LanguageCode",
  description: "An ISO 639-1 language code, in lower case: de",
  specifiedByURL: "https://www.iso.org/iso-639-language-code",
  accepts: isLanguageCode,
  refusal: "LanguageCode must be an ISO 639-1 code in lower case",
});

export const DateScalar = checkedString({
  name: "Date",
  description: "A calendar date, YYYY-MM-DD, in the activity's own time zone: 2026-11-28",
  specifiedByURL: "https://datatracker.ietf.org/doc/html/rfc3339#section-5.6",
  accepts: isCalendarDate,
  refusal: "Date must be a calendar date YYYY-MM-DD",
});

/**
 * An exact amount, written as a string so that no client reads it into a binary float: "49.90".
 * Accepted as input in the same form, at most 15 digits before the point and 10 after; what an
 * amount may be (not negative, at most a price's maximum) is the service's rule, named by field.
 */
export const DecimalScalar = checkedString({
  name: "Decimal",
  description: 'An exact decimal number, as a string: "49.90". Never a binary float',
  accepts: (value) => /^-?\d{1,15}(\.\d{1,10})?$/.test(value),
  refusal: 'Decimal must be a decimal number written as a string: "49.90"',
});

export const CurrencyCodeScalar = checkedString({
  name: "CurrencyCode",
  description: "An ISO 4217 currency code: EUR",
  specifiedByURL: "https://www.iso.org/iso-4217-currency-codes.html",
  accepts: isCurrencyCode,
  refusal: "CurrencyCode must be an ISO 4217 code in upper case",
});
