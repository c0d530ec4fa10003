import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { sql } from "drizzle-orm";
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
} from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../drizzle/database.js";
import { CONSOLE_PREFIX } from "../../rest-compat/rest-compat.plugin.js";
import { bookableAvailability, bookableProduct, consumer, newRef } from "../support/booking.js";
import { productRequest, supplierRequest } from "../support/catalogue.js";
import {
  brokenBody,
  hostileContentType,
  hostileEncoded,
  hostileHeaderValue,
  hostileJson,
  hostileNumber,
  hostileText,
  percentEncode,
  prototypeNames,
  queryString,
} from "../support/hostile-input.js";
import { useStack } from "../support/stack.js";

/**
 * Issue 11, item 3: every documented REST path (spec README, all 31, all methods) and every
 * GraphQL argument gets generated hostile input, against one stack with a realistic fixture.
 * For every request: no 5xx unless the contract documents it for a real condition (9563); every
 * 4xx carries the one REST error body (docs/spec-decisions.md, "REST error body") and every
 * GraphQL error an extensions.code; and a refused request leaves the database as it found it.
 * Runs are random (no fixed seed) but bounded; a failure prints the request and the answer.
 */

// Background jobs would change the tables between the two digests of a refused request.
const t = useStack({ env: { WORKER_LOOPS: "false" }, ownDatabase: true });

type Caller = "partner" | "consumer" | "platform" | "operator";

interface Fixture {
  tokens: Record<Caller, string>;
  supplierId: number;
  /** A supplier of the same partner that the DELETE path may remove. */
  spareSupplierId: number;
  productId: number;
  engineName: string;
  date: string;
  /** Options set and priced, never booked: PUT options and prices work on it. */
  availabilityId: string;
  optionId: string;
  /** Priced and never booked: POST bookings may book it. */
  bookableAvailabilityId: string;
  /** ON_HOLD, questions unanswered: confirm is refused, questions can be answered. */
  bookingId: string;
  questionId: string;
  /** ON_HOLD: the DELETE path may cancel it. */
  cancellableBookingId: string;
  tokenAccount: { username: string; password: string };
  refreshToken: string;
}
let fx: Fixture;

beforeAll(async () => {
  const stack = t.stack;
  const { productId, supplierId, partner } = await bookableProduct(stack);
  const spare = await partner.rest.post("/api/supplier", supplierRequest());
  const buyer = await consumer(stack);
  const date = "2027-03-10";
  const availability = await bookableAvailability(buyer.rest, productId, date, { time: "14:00", adults: 2 });
  const bookable = await bookableAvailability(buyer.rest, productId, "2027-03-11", { adults: 1 });
  const booked = await bookableAvailability(buyer.rest, productId, "2027-03-12", { adults: 2 });
  const booking = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: booked.id, resellerRef: newRef() });
  const cancellable = await bookableAvailability(buyer.rest, productId, "2027-03-13", { adults: 1 });
  const toCancel = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: cancellable.id, resellerRef: newRef() });
  expect([spare.status, booking.status, toCancel.status]).toEqual([201, 201, 201]);
  const tokenAccount = await stack.createAccount("CONSUMER");
  const signedIn = await stack.login(tokenAccount.username, tokenAccount.password);
  fx = {
    tokens: {
      partner: partner.token,
      consumer: buyer.token,
      platform: await stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT"),
      operator: await stack.tokenFor("OPERATOR"),
    },
    supplierId,
    spareSupplierId: spare.body.id,
    productId,
    engineName: partner.engineName,
    date,
    availabilityId: availability.id,
    optionId: availability.availabilityOptions[0].id,
    bookableAvailabilityId: bookable.id,
    bookingId: booking.body.id,
    questionId: booking.body.questions.customer[0].id,
    cancellableBookingId: toCancel.body.id,
    tokenAccount,
    refreshToken: signedIn.refresh_token,
  };
  domainTables = (
    await rows<{ table_name: string }>(t.database.db, sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`)
  )
    .map((row) => row.table_name)
    // Sign-in failures are the one thing a refused sign-in must record (throttling counts them);
    // service secrets are made once, on first use (drizzle/service-secret.ts), refused or not;
    // a refused request still counts against its account's request rate (account_limits).
    .filter((name) => name !== "sign_in_failures" && name !== "service_secrets" && name !== "account_limits");
});

// ---------------------------------------------------------------------------------------------
// The database digest: one md5 per table, in one round trip.

let domainTables: string[] = [];

/** The last digest, and the snapshot it was taken at. */
let known: { snapshot: string; digest: Record<string, string> } | undefined;

/**
 * The tables' digest, taken again only when a transaction has written since the last one: a
 * write is given a transaction id, which moves the current snapshot (its xmax, or its list of
 * transactions in progress), while a read does not. Most refused requests write nothing, and the
 * full digest was half the file's time.
 */
async function digest(): Promise<Record<string, string>> {
  const [{ snapshot }] = await rows<{ snapshot: string }>(t.database.db, sql`select pg_current_snapshot()::text as snapshot`);
  if (known?.snapshot === snapshot) return known.digest;
  // A write that lands between the two statements moves the snapshot again: the next call digests anew.
  known = { snapshot, digest: await fullDigest() };
  return known.digest;
}

async function fullDigest(): Promise<Record<string, string>> {
  const columns = domainTables.map((name) => `(select coalesce(md5(string_agg(x::text, ',' order by x::text)), '') from "${name}" x) as "${name}"`);
  const [row] = await rows<Record<string, string>>(t.database.db, sql.raw(`select ${columns.join(", ")}`));
  return row;
}

const changedTables = (before: Record<string, string>, after: Record<string, string>) => Object.keys(before).filter((name) => before[name] !== after[name]);

// ---------------------------------------------------------------------------------------------
// Sending a request and judging the answer.

interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

interface WireAnswer {
  status: number;
  headers: Headers;
  text: string;
  json?: any;
}

async function send(request: WireRequest): Promise<WireAnswer> {
  const response = await fetch(`${t.stack.url}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const clip = (value: unknown, max = 400) => {
  const text = typeof value === "string" ? value : value instanceof Uint8Array ? `<bytes ${Buffer.from(value).toString("hex").slice(0, max)}>` : JSON.stringify(value);
  return text && text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
};

const describeExchange = (request: WireRequest, answer: WireAnswer) =>
  `${request.method} ${clip(request.path)}\n  headers: ${clip({ ...request.headers, authorization: request.headers.authorization ? "<token>" : undefined })}\n  body: ${clip(request.body ?? "")}\n  → ${answer.status} ${clip(answer.text, 800)}`;

const ERROR_BODY_KEYS = new Set(["status", "code", "message", "errorCode", "details", "requestId"]);
/**
 * What an answer must never show: the REST layer's GraphQL variables and coercion messages,
 * Fastify's own error codes, stack frames. (Echoing the caller's own input is fine.)
 */
const INTERNALS = /Variable "\$|got invalid value|FST_ERR|\bat \S+\.(?:ts|js):\d+|node_modules/;

/** The one REST error body; returns what is wrong with it, or nothing. */
function errorBodyProblems(answer: WireAnswer): string[] {
  const body = answer.json;
  if (!body || typeof body !== "object" || Array.isArray(body)) return ["not a JSON object"];
  const problems: string[] = [];
  for (const key of Object.keys(body)) if (!ERROR_BODY_KEYS.has(key)) problems.push(`unexpected member ${key}`);
  if (body.status !== answer.status) problems.push("status differs from the HTTP status");
  if (typeof body.code !== "string" || !/^[A-Z][A-Z0-9_]*$/.test(body.code)) problems.push("code is not an upper-case identifier");
  if (typeof body.message !== "string" || body.message === "") problems.push("no message");
  if (typeof body.requestId !== "string" || body.requestId !== answer.headers.get("x-request-id")) problems.push("requestId differs from X-Request-Id");
  if (body.errorCode !== undefined && !Number.isInteger(body.errorCode)) problems.push("errorCode is not an integer");
  if (body.details !== undefined) {
    const valid =
      Array.isArray(body.details) &&
      body.details.every((d: any) => d && typeof d.field === "string" && typeof d.rule === "string" && typeof d.message === "string" && Object.keys(d).length === 3);
    if (!valid) problems.push("details are not {field, rule, message} items");
  }
  if (!(answer.headers.get("content-type") ?? "").startsWith("application/json")) problems.push("not application/json");
  if (INTERNALS.test(answer.text)) problems.push("shows internals (GraphQL variables, Fastify codes or stack frames)");
  if (answer.status === 401 && !answer.headers.get("www-authenticate")) problems.push("401 without WWW-Authenticate");
  return problems;
}

/** The token endpoint keeps the OAuth 2.0 error shape (RFC 6749 5.2). */
function oauthErrorProblems(answer: WireAnswer): string[] {
  const body = answer.json;
  if (!body || typeof body !== "object" || Array.isArray(body)) return ["not a JSON object"];
  const problems: string[] = [];
  if (typeof body.error !== "string" || !/^[a-z_]+$/.test(body.error)) problems.push("error is not an OAuth error code");
  for (const key of Object.keys(body)) if (!["error", "error_description", "error_uri"].includes(key)) problems.push(`unexpected member ${key}`);
  if (INTERNALS.test(answer.text)) problems.push("shows internals");
  return problems;
}

interface Judged {
  /** A documented 500 for a real condition, or nothing. */
  documented500?: (answer: WireAnswer) => boolean;
  errorShape?: (request: WireRequest, answer: WireAnswer) => string[];
  /** Tables a refusal is meant to write to. */
  mayChange?: string[];
}

/**
 * Sends one request and asserts the three rules; a refused request (4xx, or a documented 500)
 * must leave every domain table as it was.
 */
async function sendAndJudge(request: WireRequest, judged: Judged = {}): Promise<WireAnswer> {
  const before = await digest();
  let answer: WireAnswer;
  try {
    answer = await send(request);
  } catch (error) {
    throw new Error(`no answer (${(error as Error).message}; ${clip((error as Error & { cause?: unknown }).cause)})\n${request.method} ${clip(request.path)}`);
  }
  const documented = answer.status === 500 && (judged.documented500?.(answer) ?? false);
  if (answer.status >= 500 && !documented) throw new Error(`5xx:\n${describeExchange(request, answer)}`);
  if (answer.status >= 400) {
    const problems = (judged.errorShape ?? (() => errorBodyProblems(answer)))(request, answer);
    if (problems.length) throw new Error(`error body (${problems.join("; ")}):\n${describeExchange(request, answer)}`);
    const changed = changedTables(before, await digest()).filter((name) => !judged.mayChange?.includes(name));
    if (changed.length) throw new Error(`refused, yet changed ${changed.join(", ")}:\n${describeExchange(request, answer)}`);
  }
  return answer;
}

// ---------------------------------------------------------------------------------------------
// REST: the 31 documented paths.

interface Endpoint {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path with {placeholders}; each placeholder is a valid fixture value or a hostile segment. */
  template: string;
  caller: Caller;
  ids?: () => Record<string, string>;
  /** Known query parameters with valid sample values. */
  query?: () => Record<string, string[]>;
  headers?: () => Record<string, string[]>;
  /** A valid JSON body the fuzzer mutates. */
  body?: () => unknown;
  documented500?: (answer: WireAnswer) => boolean;
  runs?: number;
}

const noLongerAvailable = (answer: WireAnswer) => answer.json?.code === "NO_LONGER_AVAILABLE" && answer.json?.errorCode === 9563;

const supplierIds = () => ({ supplierId: String(fx.supplierId) });
const productIds = () => ({ productId: String(fx.productId) });
const availabilityIds = () => ({ productId: String(fx.productId), availabilityId: fx.availabilityId });
const bookingIds = () => ({ bookingId: fx.bookingId });
const searchQuery = () => ({
  Search: ["title:Matterhorn", "countryCode:CH AND title:hike", "title~glacier OR cityName:Zermatt", "rating>4"],
  resultsPerPage: ["10", "1000"],
  pageNumber: ["1", "2"],
  sortingField: ["title", "rating", "id"],
  sortingOrder: ["asc", "desc"],
  externalClientId: ["CLIENT42"],
});
const importQuery = () => ({
  countryCodeList: ["CH", "CH,FR"],
  bookingEngineList: [fx.engineName],
  modifiedSince: [new Date(Date.now() - 86_400_000).toISOString()],
  cursor: [""],
  "page[limit]": ["10", "1000"],
});
const recommendationQuery = () => ({ "page[offset]": ["0", "5"], "page[limit]": ["5", "100"], "page[sort]": ["-price", "+rating", "pertinence"] });

const endpoints: Endpoint[] = [
  { method: "POST", template: "/api/supplier", caller: "partner", body: () => supplierRequest() },
  { method: "GET", template: "/api/supplier/{supplierId}", caller: "partner", ids: supplierIds },
  { method: "POST", template: "/api/supplier/{supplierId}", caller: "partner", ids: supplierIds, body: () => supplierRequest({ externalId: "SUP-FUZZ-UPDATE" }) },
  { method: "DELETE", template: "/api/supplier/{supplierId}", caller: "partner", ids: () => ({ supplierId: String(fx.spareSupplierId) }) },
  {
    method: "GET",
    template: "/api/suppliers",
    caller: "partner",
    query: () => ({ bookingEngineName: [fx.engineName], pageNumber: ["1", "3"], resultsPerPage: ["1", "100"] }),
  },
  { method: "POST", template: "/api/supplier/{supplierId}/product", caller: "partner", ids: supplierIds, body: () => productRequest() },
  {
    method: "GET",
    template: "/api/supplier/{supplierId}/products/",
    caller: "partner",
    ids: supplierIds,
    query: () => ({ countryCode: ["CH"], zipCode: ["3920"], rating: ["4.5"], numberOfRatings: ["10"], cityName: ["zermatt"] }),
  },
  {
    method: "GET",
    template: "/booking-flow/v1/products/{productId}/availabilities",
    caller: "consumer",
    ids: productIds,
    query: () => ({ startDate: ["2027-03-01"], endDate: ["2027-03-31"] }),
  },
  { method: "GET", template: "/booking-flow/v1/products/{productId}/availabilities/next", caller: "consumer", ids: productIds },
  {
    method: "GET",
    template: "/booking-flow/v1/products/{productId}/availabilities/{date}/options",
    caller: "consumer",
    ids: () => ({ productId: String(fx.productId), date: "2027-04-07" }),
    headers: () => ({ "accept-language": ["en", "de"] }),
  },
  {
    method: "PUT",
    template: "/booking-flow/v1/products/{productId}/availabilities/{availabilityId}/options",
    caller: "consumer",
    ids: availabilityIds,
    body: () => ({ optionId: fx.optionId, value: "14:00" }),
  },
  {
    method: "GET",
    template: "/booking-flow/v1/products/{productId}/availabilities/{availabilityId}/prices",
    caller: "consumer",
    ids: availabilityIds,
    query: () => ({ currencyCode: ["EUR"] }),
  },
  {
    method: "PUT",
    template: "/booking-flow/v1/products/{productId}/availabilities/{availabilityId}/prices",
    caller: "consumer",
    ids: availabilityIds,
    query: () => ({ currencyCode: ["EUR"] }),
    body: () => [
      { unitId: "adult", value: 2 },
      { unitId: "child", value: 1 },
    ],
  },
  {
    method: "POST",
    template: "/booking-flow/v1/bookings",
    caller: "consumer",
    query: () => ({ resellerRef: ["REFFUZZ1"], currencyCode: ["EUR"] }),
    headers: () => ({ externalClientId: ["CLIENT42"], "accept-language": ["en"] }),
    body: () => ({ availabilityId: fx.bookableAvailabilityId, resellerRef: "REFFUZZ1" }),
    documented500: noLongerAvailable,
  },
  { method: "GET", template: "/booking-flow/v1/bookings/{bookingId}/questions", caller: "consumer", ids: bookingIds },
  {
    method: "PUT",
    template: "/booking-flow/v1/bookings/{bookingId}/questions",
    caller: "consumer",
    ids: bookingIds,
    body: () => [
      { id: fx.questionId, value: "Ada" },
      { id: fx.questionId, value: null },
    ],
  },
  {
    method: "POST",
    template: "/booking-flow/v1/bookings/{bookingId}/confirm",
    caller: "consumer",
    ids: bookingIds,
    headers: () => ({ externalClientId: ["CLIENT42"] }),
    body: () => ({}),
  },
  { method: "GET", template: "/booking-flow/v1/bookings/{bookingId}", caller: "consumer", ids: bookingIds },
  {
    method: "DELETE",
    template: "/booking-flow/v1/bookings/{bookingId}",
    caller: "consumer",
    ids: () => ({ bookingId: fx.cancellableBookingId }),
    query: () => ({ cancellationReason: ["Changed plans"] }),
  },
  {
    method: "GET",
    template: "/reporting/v1/bookings",
    caller: "consumer",
    query: () => ({
      status: ["CONFIRMED", ""],
      cancelledStartDate: ["2027-01-01"],
      cancelledEndDate: ["2027-12-31"],
      confirmedStartDate: ["2026-01-01"],
      confirmedEndDate: ["2028-01-01"],
      bookedStartDate: ["2026-01-01"],
      bookedEndDate: ["2028-01-01"],
      testMode: ["true", "false", ""],
      bookingCode: ["ABC123"],
      bookingExternalId: ["X1"],
      externalClientId: ["CLIENT42"],
      bookingEngineName: [fx.engineName],
      "page[offset]": ["0"],
      "page[limit]": ["500"],
      sort: ["-bookedAt"],
    }),
    headers: () => ({ accept: ["application/json", "text/csv"] }),
  },
  { method: "GET", template: "/reporting/v1/bookings/{id}", caller: "consumer", ids: () => ({ id: fx.bookingId }) },
  { method: "GET", template: "/api/consumer/products", caller: "consumer", query: searchQuery, headers: () => ({ "accept-language": ["en", "de"] }) },
  {
    method: "GET",
    template: "/api/consumer/diff/products",
    caller: "consumer",
    query: () => ({ ...searchQuery(), changeType: ["ALL", "NEW"], date: [new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10)] }),
  },
  { method: "GET", template: "/api/consumer/product/{productId}", caller: "consumer", ids: productIds, query: () => ({ externalClientId: ["CLIENT42"] }) },
  { method: "GET", template: "/api/consumer/taxonomy", caller: "consumer", headers: () => ({ "accept-language": ["en", "de"] }) },
  {
    method: "POST",
    template: "/recommendation/v2/activities",
    caller: "consumer",
    query: recommendationQuery,
    body: () => ({
      location: { type: "cityName", value: ["Zermatt"], radius: 50 },
      categories: ["activities-outdoor-hiking"],
      interests: ["glacier"],
      minPrice: 10,
      maxPrice: 500,
      currencyCode: "EUR",
      activityContext: "Leisure",
      groupType: "Family",
      travelDate: "2027-03-10",
      risk: "Safe",
      varietyLevel: "High",
      bookingEngines: { include: [fx.engineName], exclude: [] },
    }),
  },
  {
    method: "GET",
    template: "/recommendation/v2/activities",
    caller: "consumer",
    query: () => ({
      ...recommendationQuery(),
      locationType: ["cityName", "geoPoint"],
      locationValue: ["Zermatt", "46.02,7.75"],
      radius: ["50"],
      categories: ["activities-outdoor-hiking"],
      interests: ["glacier,ice"],
      minPrice: ["10"],
      maxPrice: ["500"],
      currencyCode: ["EUR"],
      activityContext: ["Leisure"],
      groupType: ["Solo"],
      travelDate: ["2027-03-10"],
      risk: ["Safe"],
      varietyLevel: ["Low"],
    }),
  },
  {
    method: "GET",
    template: "/recommendation/v1/top-activities",
    caller: "consumer",
    query: () => ({ iataCode: ["ZRH"], cityName: ["Zermatt"], lat: ["46.02"], lon: ["7.75"], radius: ["100"], maxRecommendations: ["10"] }),
  },
  { method: "GET", template: "/content/v0/import/activities/active", caller: "consumer", query: () => ({ ...importQuery(), languageList: ["en,de"] }) },
  { method: "GET", template: "/content/v0/import/activities/inactive", caller: "consumer", query: importQuery },
];

/** The path with each placeholder a fixture value (often) or a hostile segment. */
function pathArb(endpoint: Endpoint): fc.Arbitrary<string> {
  const ids = endpoint.ids?.() ?? {};
  const names = Object.keys(ids);
  if (!names.length) return fc.constant(endpoint.template);
  return fc
    .tuple(...names.map((name) => fc.oneof({ weight: 2, arbitrary: fc.constant(percentEncode(ids[name])) }, { weight: 3, arbitrary: hostileEncoded })))
    .map((values) => names.reduce((path, name, i) => path.replace(`{${name}}`, values[i]), endpoint.template));
}

/** Known parameters (valid or hostile values), unknown and prototype-named ones, duplicates and broken tails. */
function queryArb(known: Record<string, string[]>): fc.Arbitrary<string> {
  const names = Object.keys(known);
  const value = (name: string) =>
    fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...known[name]).map(percentEncode) }, { weight: 3, arbitrary: hostileEncoded });
  const knownPairs: fc.Arbitrary<[string, string][]> = fc
    .subarray(names)
    .chain((chosen) => (chosen.length ? fc.tuple(...chosen.map((name) => value(name).map((v): [string, string] => [percentEncode(name), v]))) : fc.constant([])));
  const extraName = fc.oneof(fc.constantFrom(...prototypeNames, "unknownParam", "Search[]", "page[limit][x]", "page", "a[__proto__][x]"), fc.constantFrom(...(names.length ? names : ["x"])));
  const extras = fc.array(fc.tuple(extraName.map(percentEncode), hostileEncoded), { maxLength: 2 });
  const tail = fc.constantFrom("", "", "", "&", "&&=&", "&%zz=1", "&a=%", "&%E0%A4%A=1", "&=", "#frag", "&%00=%00");
  return fc.tuple(knownPairs, extras, tail).map(([pairs, more, end]) => queryString([...pairs, ...more], end));
}

const URL_BUDGET = 12_000;

const SENTINEL = "\u0001FUZZ\u0001";
const SENTINEL_JSON = JSON.stringify(SENTINEL);

/** Every path into a JSON value, up to three levels deep. */
function pathsOf(value: unknown, depth = 0): (string | number)[][] {
  if (depth >= 3 || value === null || typeof value !== "object") return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return keys.flatMap((key) => [[key], ...pathsOf((value as any)[key], depth + 1).map((rest) => [key, ...rest])]);
}

/**
 * A copy of `value` with the member at `path` replaced by the sentinel, removed, or given a
 * sibling (in an array: a member of the item). An empty path adds to the top-level object.
 */
function edited(value: unknown, path: (string | number)[], edit: "replace" | "remove" | { add: string }): unknown {
  const copy = structuredClone(value) as any;
  let parent: any = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  const last = path[path.length - 1];
  const addTo = (target: object, name: string) =>
    // defineProperty, so that `__proto__` becomes an own member that JSON.stringify writes out.
    Object.defineProperty(target, name, { value: SENTINEL, enumerable: true, configurable: true, writable: true });
  if (last === undefined) addTo(copy, typeof edit === "object" ? edit.add : "unknownField");
  else if (edit === "replace") parent[last] = SENTINEL;
  else if (edit === "remove") {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  }
  else if (!Array.isArray(parent)) addTo(parent, edit.add);
  else {
    const item = parent[Number(last)];
    if (item && typeof item === "object" && !Array.isArray(item)) addTo(item, edit.add);
    else parent[Number(last)] = SENTINEL;
  }
  return copy;
}

/** A valid body with one member replaced by a hostile value, removed, or a hostile member added; or a wrong body altogether. */
function jsonBodyArb(template: unknown): fc.Arbitrary<string | Uint8Array> {
  // An empty template (confirm takes no body) can still get a member added.
  const paths = pathsOf(template);
  const mutated = fc
    .tuple(
      paths.length ? fc.constantFrom(...paths) : fc.constant<(string | number)[]>([]),
      fc.oneof(
        { weight: 4, arbitrary: fc.constant("replace" as const) },
        { weight: 1, arbitrary: fc.constant("remove" as const) },
        { weight: 2, arbitrary: fc.constantFrom(...prototypeNames, "unknownField", "").map((add) => ({ add })) },
      ),
      hostileJson,
    )
    .map(([path, edit, fragment]) => JSON.stringify(edited(template, path, edit)).replace(SENTINEL_JSON, fragment));
  return fc.oneof(
    { weight: 6, arbitrary: mutated },
    { weight: 1, arbitrary: fc.constant(JSON.stringify(template)) },
    { weight: 1, arbitrary: hostileJson },
    { weight: 1, arbitrary: brokenBody },
  );
}

const authArb = (caller: Caller) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant<Caller | string | undefined>(caller) },
    { weight: 1, arbitrary: fc.constantFrom<Caller | string | undefined>("partner", "consumer", "platform", "operator") },
    { weight: 1, arbitrary: fc.constantFrom<Caller | string | undefined>(undefined, "Bearer ", "Bearer x.y.z", "Basic Zm9vOmJhcg==", `Bearer ${"a".repeat(9000)}`, "bearer\u00e9") },
  );

const authorization = (auth: Caller | string | undefined): Record<string, string> => {
  if (auth === undefined) return {};
  if (auth in (fx?.tokens ?? {})) return { authorization: `Bearer ${fx.tokens[auth as Caller]}` };
  return { authorization: auth };
};

function headersArb(known: Record<string, string[]>): fc.Arbitrary<Record<string, string>> {
  const names = Object.keys(known);
  if (!names.length) return fc.constant({});
  return fc
    .tuple(...names.map((name) => fc.option(fc.oneof(fc.constantFrom(...known[name]), hostileHeaderValue), { nil: undefined })))
    .map((values) => Object.fromEntries(names.flatMap((name, i) => (values[i] === undefined ? [] : [[name, values[i]!]]))));
}

function requestArb(endpoint: Endpoint): fc.Arbitrary<WireRequest> {
  const hasBody = endpoint.method === "POST" || endpoint.method === "PUT";
  const body = hasBody
    ? fc.tuple(
        jsonBodyArb(endpoint.body?.() ?? {}),
        fc.oneof({ weight: 8, arbitrary: fc.constant<string | undefined>("application/json") }, { weight: 2, arbitrary: hostileContentType }),
      )
    : fc.constant([undefined, undefined] as const);
  return fc
    .tuple(pathArb(endpoint), queryArb(endpoint.query?.() ?? {}), headersArb(endpoint.headers?.() ?? {}), authArb(endpoint.caller), body)
    // Node refuses request heads over 16 KiB before any route runs (test/security/client-errors.test.ts).
    .filter(([path, query]) => path.length + query.length < URL_BUDGET)
    .map(([path, query, headers, auth, [payload, contentType]]) => ({
      method: endpoint.method,
      path: `${path}${query}`,
      headers: { ...headers, ...authorization(auth), ...(contentType !== undefined && payload !== undefined ? { "content-type": contentType } : {}) },
      body: payload,
    }));
}

const RUNS = 30;

/**
 * Runs a property and, on failure, reports the failing exchange (shrunk; long values clipped)
 * with the seed and path that replay it, rather than fast-check's full dump of huge inputs.
 */
async function check<T>(property: fc.IAsyncProperty<T>, numRuns: number): Promise<string | undefined> {
  const outcome = await fc.check(property, { numRuns });
  if (!outcome.failed) return undefined;
  const error = outcome.errorInstance as Error | undefined;
  return `${error?.message ?? String(outcome.errorInstance)}\n  (after ${outcome.numRuns} runs, shrunk ${outcome.numShrinks} times; replay with { seed: ${outcome.seed}, path: "${outcome.counterexamplePath}" })`;
}

async function assertProperty<T>(property: fc.IAsyncProperty<T>, numRuns = RUNS) {
  const failure = await check(property, numRuns);
  if (failure) throw new Error(failure);
}

describe("the digest that judges a refused request", () => {
  it("stays as it was over reads, and sees a write, and a write undone, in any domain table", async () => {
    const before = await digest();
    await rows(t.database.db, sql`select count(*) from organisations`);
    expect(await digest()).toEqual(before);
    const name = `Digest Probe ${randomUUID()}`;
    await t.database.db.execute(sql`insert into organisations (name, country_code, commercial_model) values (${name}, 'NL', 'AGENT')`);
    expect(changedTables(before, await digest())).toEqual(["organisations"]);
    await t.database.db.execute(sql`delete from organisations where name = ${name}`);
    expect(changedTables(before, await digest())).toEqual([]);
  });
});

describe("hostile input on every documented REST path", () => {
  for (const endpoint of endpoints) {
    it(`${endpoint.method} ${endpoint.template}`, async () => {
      await assertProperty(
        fc.asyncProperty(requestArb(endpoint), async (request) => {
          await sendAndJudge(request, { documented500: endpoint.documented500 });
        }),
        endpoint.runs,
      );
    }, 60_000);
  }

  it("POST the token endpoint (password and refresh_token grants)", async () => {
    const tokenPath = t.stack.service.identity.paths.token;
    const field = (valid: string[]) => fc.option(fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...valid) }, { weight: 3, arbitrary: hostileText }), { nil: undefined });
    const form = fc.record({
      client_id: field(["content-partner-api"]),
      grant_type: field(["password", "refresh_token", "client_credentials"]),
      username: field([fx.tokenAccount.username]),
      password: field([fx.tokenAccount.password, "wrong"]),
      refresh_token: field([fx.refreshToken]),
      scope: field(["booking", "catalogue:manage", "reporting booking"]),
    });
    const encodedForm = form.map((fields) =>
      Object.entries(fields)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => `${key}=${percentEncode(value!)}`)
        .join("&"),
    );
    const body = fc.oneof({ weight: 6, arbitrary: encodedForm }, { weight: 1, arbitrary: form.map((fields) => JSON.stringify(fields)) }, { weight: 1, arbitrary: brokenBody });
    const contentType = fc.oneof({ weight: 6, arbitrary: fc.constant<string | undefined>("application/x-www-form-urlencoded") }, { weight: 1, arbitrary: fc.constant("application/json") }, { weight: 2, arbitrary: hostileContentType });
    const path = fc.oneof(
      { weight: 6, arbitrary: fc.constant(tokenPath) },
      { weight: 1, arbitrary: hostileEncoded.map((realm) => tokenPath.replace(/realms\/[^/]+/, `realms/${realm}`)) },
    );
    await assertProperty(
      fc.asyncProperty(path, queryArb({ grant_type: ["password"] }), body, contentType, async (p, query, payload, type) => {
        await sendAndJudge(
          { method: "POST", path: `${p}${query}`, headers: type === undefined ? {} : { "content-type": type }, body: payload },
          {
            // Only the real token path keeps the OAuth shape; an unknown realm is an unknown REST path.
            errorShape: (request, answer) => (request.path.split("?")[0] === tokenPath ? oauthErrorProblems(answer) : errorBodyProblems(answer)),
            // A refresh token used twice is refused and ends its session (reuse detection).
            mayChange: ["refresh_tokens"],
          },
        );
      }),
    );
  }, 60_000);

  it("GET the interactive console", async () => {
    const path = fc.oneof(
      { weight: 2, arbitrary: fc.constant(`${CONSOLE_PREFIX}/index.html`) },
      { weight: 3, arbitrary: hostileEncoded.map((segment) => `${CONSOLE_PREFIX}/${segment}`) },
    );
    await assertProperty(
      fc.asyncProperty(path, queryArb({ url: ["/documentation/json"] }), authArb("consumer"), async (p, query, auth) => {
        await sendAndJudge({ method: "GET", path: `${p}${query}`, headers: authorization(auth) });
      }),
    );
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// GraphQL: every argument of every query and mutation, through /graphql.

/** Valid values of arguments and input fields by name, so that generated input reaches the rules behind the ids. */
function fixtureValues(name: string, type: GraphQLInputType): unknown[] {
  const named = getNamedType(type).name;
  const ints: Record<string, number[]> = { productId: [fx.productId], supplierId: [fx.supplierId], id: [fx.supplierId, fx.productId] };
  const strings: Record<string, string[]> = {
    availabilityId: [fx.availabilityId, fx.bookableAvailabilityId],
    bookingId: [fx.bookingId],
    id: [fx.bookingId],
    optionId: [fx.optionId],
    date: [fx.date],
    currencyCode: ["EUR"],
    bookingEngineName: [fx.engineName],
    search: ["title:Matterhorn"],
  };
  if (named === "Int") return ints[name] ?? [1, 10];
  if (named === "String" || named === "ID") return strings[name] ?? ["x"];
  return [];
}

const wrongType = fc.oneof(hostileText, hostileNumber, fc.constantFrom<unknown>(true, [], {}, [1, "a"], { __typename: "X" }));

function graphqlValue(type: GraphQLInputType, name: string, depth: number): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return fc.oneof({ weight: 12, arbitrary: graphqlValue(type.ofType, name, depth) }, { weight: 1, arbitrary: fc.constant(null) });
  const inner = getNullableType(type) as GraphQLInputType;
  const valueOfType = (): fc.Arbitrary<unknown> => {
    if (isListType(inner)) {
      const item = graphqlValue(inner.ofType as GraphQLInputType, name, depth + 1);
      return fc.oneof(fc.array(item, { maxLength: 3 }), item);
    }
    if (isEnumType(inner)) return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...inner.getValues().map((v) => v.value)) }, { weight: 1, arbitrary: hostileText });
    if (isInputObjectType(inner)) {
      if (depth > 3) return fc.constant({});
      const fields = Object.values(inner.getFields());
      const members = fc.tuple(
        ...fields.map((field) =>
          isNonNullType(field.type)
            ? fc.oneof({ weight: 8, arbitrary: graphqlValue(field.type, field.name, depth + 1) }, { weight: 1, arbitrary: fc.constant(undefined) })
            : fc.option(graphqlValue(field.type, field.name, depth + 1), { nil: undefined, freq: 2 }),
        ),
      );
      const extra = fc.option(fc.tuple(fc.constantFrom(...prototypeNames, "unknownField"), wrongType), { nil: undefined, freq: 2 });
      return fc.tuple(members, extra).map(([values, more]) => {
        const object: Record<string, unknown> = {};
        fields.forEach((field, i) => values[i] !== undefined && (object[field.name] = values[i]));
        if (more) Object.defineProperty(object, more[0], { value: more[1], enumerable: true, configurable: true, writable: true });
        return object;
      });
    }
    if (isScalarType(inner)) {
      const fixtures = fixtureValues(name, inner);
      const valid = fixtures.length ? [fc.constantFrom(...fixtures)] : [];
      switch (inner.name) {
        case "Int":
          return fc.oneof(...valid, hostileNumber.map((n) => (Number.isInteger(n) && Math.abs(n) < 2 ** 31 ? n : n)));
        case "Float":
          return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), hostileNumber);
        case "Boolean":
          return fc.boolean();
        case "String":
        case "ID":
          return fc.oneof(...valid, hostileText);
        case "JSON":
        case "JSONObject":
          return fc.oneof(hostileJson.map((text) => safeParse(text)), fc.constant({ __proto__: { polluted: true } }), fc.dictionary(hostileText, hostileText, { maxKeys: 3 }));
        default:
          return hostileText;
      }
    }
    return fc.constant(null);
  };
  return fc.oneof({ weight: 10, arbitrary: valueOfType() }, { weight: 1, arbitrary: wrongType }, { weight: 1, arbitrary: fc.constant(null) });
}

const safeParse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** `query Q($a: T!) { field(a: $a) { __typename } }` for one field of Query or Mutation. */
function operationFor(kind: "query" | "mutation", field: GraphQLField<unknown, unknown>): string {
  const definitions = field.args.map((arg: GraphQLArgument) => `$${arg.name}: ${String(arg.type)}`).join(", ");
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
  const selection = isLeafType(getNamedType(field.type)) ? "" : " { __typename }";
  return `${kind} Fuzz(${definitions}) { ${field.name}(${args})${selection} }`;
}

describe("hostile input on every GraphQL argument", () => {
  it("covers every query and mutation with arguments", async () => {
    const schema = t.stack.service.edge!.graph.apiSchema;
    const roots: ["query" | "mutation", GraphQLObjectType | null | undefined][] = [
      ["query", schema.getQueryType()],
      ["mutation", schema.getMutationType()],
    ];
    const fields = roots.flatMap(([kind, root]) => Object.values(root?.getFields() ?? {}).map((field) => ({ kind, field })));
    const withArguments = fields.filter(({ field }) => field.args.length > 0);
    expect(withArguments.length).toBeGreaterThan(20);
    const roles: Caller[] = ["partner", "consumer", "platform", "operator"];
    // Every field is tried even after one fails: the report lists each field's counterexample.
    const failures: string[] = [];
    for (const { kind, field } of withArguments) {
      const query = operationFor(kind, field);
      const variables = fc.tuple(...field.args.map((arg) => graphqlValue(arg.type, arg.name, 0).map((value) => [arg.name, value] as const)));
      const failure = await check(
        fc.asyncProperty(variables, fc.constantFrom(...roles), async (pairs, role) => {
          const values: Record<string, unknown> = {};
          for (const [name, value] of pairs) if (value !== undefined) values[name] = value;
          const request: WireRequest = {
            method: "POST",
            path: "/graphql",
            headers: { "content-type": "application/json", authorization: `Bearer ${fx.tokens[role]}` },
            body: JSON.stringify({ query, variables: values }),
          };
          const before = await digest();
          const answer = await send(request);
          if (answer.status >= 500) throw new Error(`5xx:\n${describeExchange(request, answer)}`);
          const errors: { message: string; extensions?: { code?: unknown } }[] = answer.json?.errors ?? [];
          if (answer.status >= 400 && !errors.length) {
            // Refused before GraphQL (e.g. a `__proto__` member, which the JSON parser rejects): the REST error body.
            const problems = errorBodyProblems(answer);
            if (problems.length) throw new Error(`error body (${problems.join("; ")}):\n${describeExchange(request, answer)}`);
            return;
          }
          if (!answer.json) throw new Error(`no GraphQL answer:\n${describeExchange(request, answer)}`);
          for (const error of errors) {
            if (typeof error.extensions?.code !== "string") throw new Error(`error without extensions.code:\n${describeExchange(request, answer)}`);
            if (error.extensions.code === "INTERNAL_SERVER_ERROR") throw new Error(`internal error:\n${describeExchange(request, answer)}`);
          }
          const refused = errors.length > 0 && (answer.json.data == null || answer.json.data[field.name] == null);
          if (refused) {
            const changed = changedTables(before, await digest());
            if (changed.length) throw new Error(`refused, yet changed ${changed.join(", ")}:\n${describeExchange(request, answer)}`);
          }
        }),
        12,
      );
      if (failure) failures.push(`${kind} ${field.name}: ${failure}`);
    }
    expect(failures, failures.join("\n\n")).toEqual([]);
  }, 240_000);
});
