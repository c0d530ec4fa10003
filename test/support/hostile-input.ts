import fc from "fast-check";

/**
 * Generators of hostile input for the fuzz harness (test/security/input-fuzz.test.ts): the inputs
 * integrators and attackers actually send — NUL, lone surrogates, huge and empty strings,
 * prototype names, numbers out of range, impossible dates, ids of the right length that are not
 * UUIDs, wrong JSON types, bad percent-encoding — rather than uniformly random noise.
 */

export const HUGE = "x".repeat(100_000);
/** Past the service's 1 MiB body limit. */
const OVERSIZED = `"${"a".repeat(1_100_000)}"`;

export const prototypeNames = ["__proto__", "constructor", "toString", "prototype", "valueOf", "hasOwnProperty", "__defineGetter__"];

const impossibleDates = [
  "2027-02-30",
  "2026-02-29",
  "2027-13-01",
  "2027-00-10",
  "2027-04-31",
  "0000-01-01",
  "9999-12-31",
  "275760-09-13",
  "+275760-09-13",
  "-000001-01-01",
  "2027-1-1",
  "20270310",
  "2027-03-10T25:00:00Z",
  "2027-03-10T10:00:00.000Z",
  "2027-03-10T10:00:00.000",
  "2027-03-10 10:00",
  "1970-01-01T00:00:00.000+99:00",
  "yesterday",
];

const notUuids = [
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF",
  "g0000000-0000-4000-8000-000000000000",
  "000000000000000000000000000000000000",
  "------------------------------------",
  "0000000-00000-4000-8000-000000000000",
  "00000000000040008000000000000000",
  "{00000000-0000-4000-8000-000000000000}",
  "00000000-0000-4000-8000-00000000000\u0000",
];

const numbersAsText = ["NaN", "Infinity", "-Infinity", "-1", "0", "-0", "1.5", "1e999", "1e-400", "2147483648", "-2147483649", "9007199254740993", "99999999999999999999999999", "0x10", "1_000", " 1", "1 "];

const specials = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udc00x",
  "x\ud83d",
  "\ufeff",
  "\u202e",
  "\r\n",
  "\t",
  ...prototypeNames,
  ...numbersAsText,
  ...impossibleDates,
  ...notUuids,
  "null",
  "undefined",
  "true",
  "' OR '1'='1",
  "'; drop table bookings; --",
  "%",
  "%%",
  "%zz",
  "\\",
  '"',
  "'",
  "*",
  "?",
  "#",
  "&",
  "=",
  "/",
  "../..",
  ":",
  "title:",
  "title:x AND",
  "title~*",
  "title^(",
  "AND OR",
  "(((((((",
  "a".repeat(256),
  "é".repeat(300),
  "😀",
  "<script>alert(1)</script>",
  "${jndi:ldap://x}",
  "{{7*7}}",
  "$where",
  // Search expressions and currency codes that look valid to a parser but are not.
  "__proto__:x",
  "constructor:1",
  "toString~a",
  "title:\u0000",
  "XXX",
  "BTC",
  "JPY",
  "usd",
];

/** Any UTF-16 code unit, lone surrogates included. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

const textWith = (huge: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...specials) },
    { weight: 2, arbitrary: fc.string({ unit: anyCodeUnit, maxLength: 24 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 24 }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 36, maxLength: 36 }) },
    { weight: 1, arbitrary: fc.constant(huge) },
  );

/** Hostile text: the special cases above, random UTF-16 (lone surrogates and NUL included), and a huge string. */
export const hostileText: fc.Arbitrary<string> = textWith(HUGE);

/** Numbers an integer or float field should refuse or bound: out of range, negative, fractional, huge. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(-1, 0, -0, 1.5, -2.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1e308, 5e-324, 91, -181, 6, 1001),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A JSON text fragment to put where a valid value was: wrong types, bad numbers, hostile strings, prototype objects. */
export const hostileJson: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: hostileText.map((text) => JSON.stringify(text)) },
  { weight: 3, arbitrary: hostileNumber.map((n) => JSON.stringify(n)) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "1e999",
      "-1e999",
      "1e-400",
      "-0",
      "123456789012345678901234567890",
      "true",
      "false",
      "null",
      "[]",
      "{}",
      "[null]",
      "[[]]",
      '[""]',
      '{"":""}',
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '"\\u0000"',
      '"\\ud800"',
      '"\\udfff\\ud800"',
      `${"[".repeat(3000)}${"]".repeat(3000)}`,
      `${'{"a":'.repeat(2000)}1${"}".repeat(2000)}`,
      `[${Array.from({ length: 5000 }, () => "0").join(",")}]`,
    ),
  },
  { weight: 1, arbitrary: fc.constant(OVERSIZED) },
);

/** Whole bodies that are not JSON at all, or not the JSON they claim to be. */
export const brokenBody: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.constantFrom<string | Uint8Array>(
    "",
    "{",
    '{"a":',
    "nul",
    "\u0000",
    "undefined",
    "NaN",
    "{'a':1}",
    '{"a":1}{"b":2}',
    "\ufeff{}",
    "[1,]",
    '{"a":1,}',
    "a=1&b=2",
    "<xml/>",
    Buffer.from('{"externalId":"\xff\xfe\x00"}', "latin1"),
    Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
    Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80]),
  ),
  fc.string({ unit: anyCodeUnit, maxLength: 30 }),
);

export const hostileContentType = fc.constantFrom<string | undefined>(
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/xml",
  "multipart/form-data; boundary=x",
  undefined,
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "application/merge-patch+json",
  "APPLICATION/JSON",
  "application/json, text/plain",
  "*/*",
  "application/octet-stream",
  "",
);

/**
 * Percent-encodes any JavaScript string for a URL, lone surrogates included (as the bytes a
 * careless encoder would send for them, which are not valid UTF-8).
 */
export function percentEncode(text: string): string {
  let out = "";
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join("");
    } else {
      out += encodeURIComponent(character);
    }
  }
  return out;
}

/** Encoded text that is not valid percent-encoding, or decodes to something a router may mishandle. */
const badEncodings = ["%", "%zz", "%E0%A4%A", "%C0%AF", "%FF", "%FE%FF", "%00", "%2F", "a%2Fb", "%2e%2e", "%25", "%%30%30", "%u0000", "%ED%A0%80", "+", "%20"];

/** One path segment or query value as sent on the wire. */
export const hostileEncoded: fc.Arbitrary<string> = fc.oneof(
  // Long rather than huge: a URL past Node's 16 KiB head limit never reaches a route.
  { weight: 4, arbitrary: textWith("x".repeat(1500)).map(percentEncode) },
  { weight: 1, arbitrary: fc.constantFrom(...badEncodings) },
);

/** Header values fetch can send (no NUL, CR or LF): empty, huge, Latin-1, prototype names. */
export const hostileHeaderValue = fc.constantFrom(
  "",
  " ",
  "__proto__",
  "constructor",
  "a".repeat(256),
  "a".repeat(8000),
  "\u00e9\u00ff",
  "*",
  "en;q=NaN",
  "xx-!!,;q=2",
  "1e999",
  "-1",
  "<script>",
  "' OR 1=1 --",
);

/** Builds a query string from already-encoded pairs. */
export const queryString = (pairs: [string, string][], tail = "") => {
  const text = pairs.map(([key, value]) => `${key}=${value}`).join("&") + tail;
  return text ? `?${text}` : "";
};
