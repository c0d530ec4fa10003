import { GraphQLScalarType } from "graphql";
import { GraphQLDateTimeISO, GraphQLUUID } from "graphql-scalars";
import { isCountryCode } from "../../core/iso-codes.js";

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
