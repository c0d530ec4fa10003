import { beforeAll, describe, expect, it } from "vitest";
import { toGlobalId } from "../../core/global-id.js";
import { consumer } from "../support/booking.js";
import { contentPartner, signIn } from "../support/catalogue.js";
import { accountOf, copiesOf, templateBooking, type BookingInsert } from "../support/reporting.js";
import { getJson, graphql, startStack, useStack, type Stack } from "../support/stack.js";

/** Production credentials see test and production bookings alike; the sandbox only its own. */
const ctx = useStack({ env: { ENVIRONMENT: "production" } });

const at = (iso: string) => new Date(iso);
const UTC_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

let templateId: string;
beforeAll(async () => {
  templateId = (await templateBooking(ctx.stack)).bookingId;
});

/** A consumer of a fresh organisation with bookings of its own, and a way to ask for its reports. */
async function reportingConsumer(stack: Stack = ctx.stack) {
  const buyer = await consumer(stack);
  const account = await accountOf(ctx.database, buyer.username);
  const book = (variants: Partial<BookingInsert>[]) =>
    copiesOf(ctx.database, templateId, variants.map((v) => ({ organisationId: account.organisationId, accountId: account.id, ...v })));
  const list = (query = "", headers: Record<string, string> = {}) => getJson(`${stack.url}/reporting/v1/bookings${query}`, buyer.token, headers);
  return { ...buyer, account, book, list };
}

const ids = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

describe("GET /reporting/v1/bookings: filters", () => {
  let owner: Awaited<ReturnType<typeof reportingConsumer>>;
  let b: Record<string, string>;
  beforeAll(async () => {
    owner = await reportingConsumer();
    const [b1, b2, b3, b4, b5, b6, b7] = await owner.book([
      { status: "CONFIRMED", creationDate: at("2026-03-01T10:00:00Z"), confirmedAt: at("2026-03-01T10:05:00Z"), bookingCode: "CODE-0001", bookingExternalId: "EXT-1", externalClientId: "client1", engineName: "ENGINE_ONE" },
      { status: "CANCELLED", creationDate: at("2026-03-02T10:00:00Z"), confirmedAt: at("2026-03-02T10:05:00Z"), cancelledAt: at("2026-03-05T23:59:59Z"), bookingCode: "CODE-0002", bookingExternalId: "EXT-2", externalClientId: "client2", engineName: "ENGINE_ONE" },
      { status: "PENDING_CONFIRM", creationDate: at("2026-03-03T10:00:00Z"), externalClientId: "client1", engineName: "ENGINE_TWO", environment: "sandbox" },
      { status: "REJECTED", creationDate: at("2026-03-04T10:00:00Z"), engineName: "ENGINE_TWO", environment: "sandbox" },
      { status: "CONFIRMED", creationDate: at("2026-03-05T00:00:00Z"), confirmedAt: at("2026-03-06T00:00:00Z"), bookingCode: "CODE-0005", bookingExternalId: "EXT-5", engineName: "ENGINE_TWO" },
      { status: "CANCELLED", creationDate: at("2026-03-06T10:00:00Z"), cancelledAt: at("2026-03-06T00:00:00Z"), engineName: "ENGINE_ONE" },
      { status: "REDEEMED", creationDate: at("2026-03-07T10:00:00Z"), confirmedAt: at("2026-03-07T10:05:00Z"), bookingCode: "CODE-0007", engineName: "ENGINE_ONE" },
    ]);
    b = { b1, b2, b3, b4, b5, b6, b7 };
  });

  // Each filter with a value that takes some of the seven bookings and leaves the others out.
  const cases: [string, string[]][] = [
    ["", ["b1", "b2", "b3", "b4", "b5", "b6", "b7"]],
    ["status=CONFIRMED", ["b1", "b5"]],
    ["status=CANCELLED", ["b2", "b6"]],
    ["status=PENDING_CONFIRM", ["b3"]],
    ["status=REJECTED", ["b4"]],
    ["status=REDEEMED", ["b7"]],
    ["status=", ["b1", "b2", "b3", "b4", "b5", "b6", "b7"]],
    ["cancelledStartDate=2026-03-06", ["b6"]],
    ["cancelledEndDate=2026-03-05", ["b2"]],
    ["cancelledStartDate=2026-03-05&cancelledEndDate=2026-03-05", ["b2"]],
    ["cancelledStartDate=2026-03-07", []],
    ["confirmedStartDate=2026-03-02&confirmedEndDate=2026-03-05", ["b2"]],
    ["confirmedStartDate=2026-03-06", ["b5", "b7"]],
    ["confirmedEndDate=2026-03-01", ["b1"]],
    ["bookedStartDate=2026-03-03&bookedEndDate=2026-03-04", ["b3", "b4"]],
    ["bookedEndDate=2026-03-05", ["b1", "b2", "b3", "b4", "b5"]],
    ["bookedStartDate=2026-03-06", ["b6", "b7"]],
    ["testMode=true", ["b3", "b4"]],
    ["testMode=false", ["b1", "b2", "b5", "b6", "b7"]],
    ["testMode=", ["b1", "b2", "b3", "b4", "b5", "b6", "b7"]],
    ["bookingCode=CODE-0002", ["b2"]],
    ["bookingCode=CODE-9999", []],
    ["bookingExternalId=EXT-1", ["b1"]],
    ["externalClientId=client1", ["b1", "b3"]],
    ["bookingEngineName=ENGINE_TWO", ["b3", "b4", "b5"]],
    ["bookingEngineName=ENGINE_ONE&status=CANCELLED&confirmedStartDate=2026-03-01", ["b2"]],
    ["confirmedStartDate=2026-03-01&sort=-bookedAt", ["b7", "b5", "b2", "b1"]],
  ];
  it.each(cases)("?%s takes exactly %j", async (query, expected) => {
    const response = await owner.list(`?${query}`);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(expected.map((name) => b[name]));
    expect(response.body.meta.count).toBe(expected.length);
  });

  it("answers the same filters in GraphQL, with the catalogue's product and organisation by federation", async () => {
    const response = await graphql(
      `${ctx.stack.url}/graphql`,
      owner.token,
      `query ($filter: BookingReportFilter) {
        bookingReports(filter: $filter, first: 5) {
          totalCount { count precision } pageInfo { hasNextPage }
          nodes { id legacyResourceId status bookingCode isTest grossPrice { amount currencyCode } partner { name } product { id externalId title { text } } }
        }
      }`,
      { filter: { bookingEngineName: "ENGINE_ONE", isTest: false, confirmedOn: { from: "2026-03-02" } } },
    );
    expect(response.body.errors).toBeUndefined();
    const page = response.body.data!.bookingReports;
    expect(page).toMatchObject({ totalCount: { count: 2, precision: "EXACT" }, pageInfo: { hasNextPage: false } });
    expect(page.nodes.map((i: { legacyResourceId: string }) => i.legacyResourceId)).toEqual([b.b2, b.b7]);
    expect(page.nodes[0]).toMatchObject({ id: toGlobalId("BookingReport", b.b2), status: "CANCELLED", bookingCode: "CODE-0002", isTest: false, partner: { name: owner.organisationName } });
    expect(page.nodes[0].grossPrice).toEqual({ amount: expect.stringMatching(/^\d+\.\d\d$/), currencyCode: expect.stringMatching(/^[A-Z]{3}$/) });
    expect(page.nodes[0].product).toMatchObject({ externalId: expect.stringMatching(/^PRD-/), title: { text: "Matterhorn glacier hike" } });
    // The same report by its id and through node(id); REST's detail shows the same price as a number.
    const one = await graphql(`${ctx.stack.url}/graphql`, owner.token, "query ($id: ID!) { bookingReport(id: $id) { legacyResourceId grossPrice { amount } } node(id: $id) { ... on BookingReport { legacyResourceId } } }", { id: page.nodes[0].id });
    expect(one.body.data).toEqual({ bookingReport: { legacyResourceId: b.b2, grossPrice: { amount: page.nodes[0].grossPrice.amount } }, node: { legacyResourceId: b.b2 } });
    expect((await owner.list(`/${b.b2}`)).body.price.gross).toBe(Number(page.nodes[0].grossPrice.amount));
  });

  it("pages a date-range filter like any other", async () => {
    const second = await owner.list("?cancelledStartDate=2026-03-01&page[offset]=1&page[limit]=1");
    expect(ids(second.body)).toEqual([b.b6]);
    expect(second.body.meta).toMatchObject({ count: 2, page: { count: 1, offset: 1, limit: 1 }, links: { next: "" } });
    const beyond = await owner.list("?cancelledStartDate=2026-03-01&page[offset]=2");
    expect(beyond.body).toMatchObject({ meta: { count: 2, page: { count: 0, offset: 2 } }, data: [] });
  });

  it("orders by creation, oldest first, or newest first with sort=-bookedAt", async () => {
    const newest = await owner.list("?sort=-bookedAt");
    expect(ids(newest.body)).toEqual(["b7", "b6", "b5", "b4", "b3", "b2", "b1"].map((name) => b[name]));
    expect(newest.body.meta.sort).toEqual(["-bookedAt"]);
  });
});

describe("GET /reporting/v1/bookings: envelope, paging and formats", () => {
  it("pages with page[offset] and page[limit], linking self, next and last", async () => {
    const owner = await reportingConsumer();
    const made = await owner.book(Array.from({ length: 7 }, (_, i) => ({ status: "CONFIRMED" as const, creationDate: at(`2026-04-0${i + 1}T09:00:00Z`), confirmedAt: at(`2026-04-0${i + 1}T09:01:00Z`), bookingCode: `PAGE-${i}` })));
    const first = await owner.list("?page[limit]=3&status=CONFIRMED");
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({
      count: 7,
      page: { count: 3, offset: 0, limit: 3 },
      sort: ["bookedAt"],
      links: {
        self: `${ctx.stack.url}/reporting/v1/bookings?page[limit]=3&status=CONFIRMED`,
        next: `${ctx.stack.url}/reporting/v1/bookings?page%5Blimit%5D=3&status=CONFIRMED&page%5Boffset%5D=3`,
        last: `${ctx.stack.url}/reporting/v1/bookings?page%5Blimit%5D=3&status=CONFIRMED&page%5Boffset%5D=6`,
      },
    });
    expect(ids(first.body)).toEqual(made.slice(0, 3));

    const second = await getJson(first.body.meta.links.next, owner.token);
    expect(ids(second.body)).toEqual(made.slice(3, 6));
    expect(second.body.meta.page).toEqual({ count: 3, offset: 3, limit: 3 });
    const last = await getJson(second.body.meta.links.last, owner.token);
    expect(ids(last.body)).toEqual(made.slice(6));
    expect(last.body.meta.links.next).toBe("");
    expect(last.body.meta.links.last).toBe(second.body.meta.links.last);

    const beyond = await owner.list("?page[offset]=50&page[limit]=3");
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta).toMatchObject({ count: 7, page: { count: 0, offset: 50, limit: 3 }, links: { next: "" } });
    expect(beyond.body.meta.links.last).toContain("page%5Boffset%5D=6");

    const defaults = await owner.list();
    expect(defaults.body.meta.page).toEqual({ count: 7, offset: 0, limit: 100 });
    expect(defaults.body.meta.links.next).toBe("");
  });

  it("answers an empty list with count 0 and links to offset 0", async () => {
    const owner = await reportingConsumer();
    const response = await owner.list();
    expect(response.body).toEqual({
      meta: { count: 0, page: { count: 0, offset: 0, limit: 100 }, sort: ["bookedAt"], links: { self: `${ctx.stack.url}/reporting/v1/bookings`, next: "", last: expect.stringContaining("page%5Boffset%5D=0") } },
      data: [],
    });
  });

  it("writes the documented record: UTC times to the second, fields absent when they do not apply", async () => {
    const owner = await reportingConsumer();
    const [confirmed, pending] = await owner.book([
      {
        status: "CONFIRMED",
        creationDate: at("2026-05-01T08:00:00.123Z"),
        confirmedAt: at("2026-05-01T08:00:05.987Z"),
        voucherCreatedAt: at("2026-05-01T08:00:05.987Z"),
        startsAt: at("2026-05-20T12:00:00Z"),
        bookingCode: "ABCD-EFGH",
        bookingExternalId: "SUP-77",
        externalClientId: "traveller9",
        engineName: "ALPS",
        totalRetail: 240.5,
        currency: "CHF",
      },
      { status: "PENDING_CONFIRM", creationDate: at("2026-05-02T08:00:00Z"), startsAt: at("2026-05-21T12:00:00Z"), externalClientId: null, engineName: "ALPS" },
    ]);
    const response = await owner.list();
    const [first, second] = response.body.data;
    expect(first).toEqual({
      id: confirmed,
      bookingCode: "ABCD-EFGH",
      bookingExternalId: "SUP-77",
      externalClientId: "traveller9",
      bookingEngineName: "ALPS",
      testMode: false,
      status: "CONFIRMED",
      bookedAt: "2026-05-01T08:00:00Z",
      confirmedAt: "2026-05-01T08:00:05Z",
      voucherCreatedAt: "2026-05-01T08:00:05Z",
      activityStartDate: "2026-05-20T12:00:00Z",
      priceGross: 240.5,
      priceCurrency: "CHF",
      flowType: "quick-connect",
      partnerChannelName: owner.username,
      productId: expect.any(Number),
    });
    expect(second).toEqual({
      id: pending,
      bookingEngineName: "ALPS",
      testMode: false,
      status: "PENDING_CONFIRM",
      bookedAt: "2026-05-02T08:00:00Z",
      activityStartDate: "2026-05-21T12:00:00Z",
      priceGross: expect.any(Number),
      priceCurrency: "EUR",
      flowType: "quick-connect",
      partnerChannelName: owner.username,
      productId: first.productId,
    });
    for (const field of ["bookedAt", "confirmedAt", "voucherCreatedAt", "activityStartDate"]) expect(first[field]).toMatch(UTC_SECONDS);
  });
});

describe("GET /reporting/v1/bookings: refusals", () => {
  const refusals: [string, string, string][] = [
    ["?status=ON_HOLD", "status", "enum"],
    ["?status=confirmed", "status", "enum"],
    ["?bookedStartDate=2026-02-30", "bookedStartDate", "date"],
    ["?cancelledEndDate=01.03.2026", "cancelledEndDate", "date"],
    ["?confirmedStartDate=2026-3-1", "confirmedStartDate", "date"],
    ["?bookedStartDate=2026-03-05&bookedEndDate=2026-03-04", "bookedEndDate", "notBeforeStart"],
    ["?testMode=yes", "testMode", "enum"],
    ["?page[limit]=501", "page[limit]", "maximum"],
    ["?page[limit]=0", "page[limit]", "minimum"],
    ["?page[offset]=-1", "page[offset]", "minimum"],
    ["?page[offset]=ten", "page[offset]", "type"],
    ["?sort=status", "sort", "enum"],
    ["?bookedAfter=2026-01-01", "bookedAfter", "additionalProperties"],
    [`?bookingCode=${"x".repeat(256)}`, "bookingCode", "maxLength"],
  ];
  it.each(refusals)("%s is a 400 naming %s", async (query, field, rule) => {
    const owner = await consumer(ctx.stack);
    const response = await getJson(`${ctx.stack.url}/reporting/v1/bookings${query}`, owner.token);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 400, code: "VALIDATION_FAILED", requestId: expect.any(String) });
    expect(response.body.details).toContainEqual(expect.objectContaining({ field, rule }));
  });

  it("types the filter in GraphQL: a status or a day outside its type is refused before it runs, and the rules the types cannot hold name the filter's field", async () => {
    const owner = await consumer(ctx.stack);
    const url = `${ctx.stack.url}/graphql`;
    const notAStatus = await graphql(url, owner.token, `{ bookingReports(filter: { status: ON_HOLD }) { totalCount { count } } }`);
    expect(notAStatus.body.errors?.[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
    const notADay = await graphql(url, owner.token, `query ($filter: BookingReportFilter) { bookingReports(filter: $filter) { totalCount { count } } }`, { filter: { bookedOn: { from: "2026-02-30" } } });
    expect(notADay.body.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    const reply = await graphql(url, owner.token, `{ bookingReports(filter: { bookedOn: { from: "2026-03-05", to: "2026-03-04" }, bookingCode: "${"x".repeat(256)}" }) { totalCount { count } } }`);
    expect(reply.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT" });
    expect(reply.body.errors?.[0].extensions?.problems).toEqual([
      { field: "bookedOn.to", rule: "notBeforeStart", message: "bookedOn.to must not be before bookedOn.from" },
      { field: "bookingCode", rule: "maxLength", message: "bookingCode has at most 255 characters" },
    ]);
    const large = await graphql(url, owner.token, `{ bookingReports(first: 5001) { totalCount { count } } }`);
    expect(large.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: "first", rule: "range" }] });
    // A matching filter is answered: a range of one day, both ends included.
    const fine = await graphql(url, owner.token, `{ bookingReports(filter: { bookedOn: { from: "2026-03-05", to: "2026-03-05" }, status: CONFIRMED }) { totalCount { count } } }`);
    expect(fine.body).toMatchObject({ data: { bookingReports: { totalCount: { count: 0 } } } });
  });

  it("is 401 without a token and 403 for roles or tokens without the reporting scope", async () => {
    expect((await getJson(`${ctx.stack.url}/reporting/v1/bookings`)).status).toBe(401);
    const partner = await contentPartner(ctx.stack);
    const asPartner = await getJson(`${ctx.stack.url}/reporting/v1/bookings`, partner.token);
    expect(asPartner.status).toBe(403);
    expect(asPartner.body.code).toBe("FORBIDDEN");
    const buyer = await consumer(ctx.stack);
    const bookingOnly = await signIn(ctx.stack, buyer.username, buyer.password, "booking");
    expect((await getJson(`${ctx.stack.url}/reporting/v1/bookings`, bookingOnly)).status).toBe(403);
    const reportingOnly = await signIn(ctx.stack, buyer.username, buyer.password, "reporting");
    expect((await getJson(`${ctx.stack.url}/reporting/v1/bookings`, reportingOnly)).status).toBe(200);
  });
});

describe("ownership", () => {
  it("shows a consumer its organisation's bookings only, a platform role every organisation's, and another organisation's id as 404", async () => {
    const alice = await reportingConsumer();
    const bob = await reportingConsumer();
    const [aliceBooking] = await alice.book([{ status: "CONFIRMED", bookingCode: "OWN-ALICE", confirmedAt: at("2026-06-01T10:00:00Z") }]);
    const [bobBooking] = await bob.book([{ status: "CONFIRMED", bookingCode: "OWN-BOB", confirmedAt: at("2026-06-01T10:00:00Z") }]);
    // A colleague: another account of Alice's organisation sees the same reports.
    const colleague = await ctx.stack.createAccount("CONSUMER", { name: alice.organisationName });
    const colleagueToken = (await ctx.stack.login(colleague.username, colleague.password)).access_token;

    expect(ids((await alice.list()).body)).toEqual([aliceBooking]);
    expect(ids((await alice.list("?bookingCode=OWN-BOB")).body)).toEqual([]);
    expect(ids((await getJson(`${ctx.stack.url}/reporting/v1/bookings`, colleagueToken)).body)).toEqual([aliceBooking]);
    const foreign = await getJson(`${ctx.stack.url}/reporting/v1/bookings/${bobBooking}`, alice.token);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain("OWN-BOB");

    for (const role of ["OPERATOR", "PLATFORM_CATALOG_MANAGEMENT"] as const) {
      const platform = await ctx.stack.tokenFor(role);
      const both = await getJson(`${ctx.stack.url}/reporting/v1/bookings?confirmedStartDate=2026-06-01&confirmedEndDate=2026-06-01&page[limit]=500`, platform);
      expect(ids(both.body)).toEqual(expect.arrayContaining([aliceBooking, bobBooking]));
      expect((await getJson(`${ctx.stack.url}/reporting/v1/bookings/${bobBooking}`, platform)).body).toMatchObject({ id: bobBooking, bookingCode: "OWN-BOB" });
    }
    const access = await graphql(`${ctx.stack.url}/graphql`, alice.token, "{ reportingAccess { scope isTestOnly organisation { name } } }");
    expect(access.body.data).toEqual({ reportingAccess: { scope: "OWN_ORGANISATION", isTestOnly: false, organisation: { name: alice.organisationName } } });
    // Through the graph as through REST: another organisation's report is absent, by its id and by node(id).
    const bobs = toGlobalId("BookingReport", bobBooking);
    const hidden = await graphql(`${ctx.stack.url}/graphql`, alice.token, "query ($id: ID!) { bookingReport(id: $id) { id } node(id: $id) { id } }", { id: bobs });
    expect(hidden.body).toMatchObject({ data: { bookingReport: null, node: null } });
    expect(hidden.body.errors).toBeUndefined();
    const seen = await graphql(`${ctx.stack.url}/graphql`, await ctx.stack.tokenFor("OPERATOR"), "query ($id: ID!) { bookingReport(id: $id) { bookingCode } node(id: $id) { id } }", { id: bobs });
    expect(seen.body.data).toEqual({ bookingReport: { bookingCode: "OWN-BOB" }, node: { id: bobs } });
  });

  it("keeps sandbox credentials to test bookings", async () => {
    const sandbox = await startStack({ database: ctx.database });
    try {
      const buyer = await consumer(sandbox);
      const account = await accountOf(ctx.database, buyer.username);
      const [test, production] = await copiesOf(ctx.database, templateId, [
        { status: "CONFIRMED", environment: "sandbox", organisationId: account.organisationId, accountId: account.id },
        { status: "CONFIRMED", environment: "production", organisationId: account.organisationId, accountId: account.id },
      ]);
      const list = await getJson(`${sandbox.url}/reporting/v1/bookings`, buyer.token);
      expect(ids(list.body)).toEqual([test]);
      expect(list.body.data[0].testMode).toBe(true);
      expect(ids((await getJson(`${sandbox.url}/reporting/v1/bookings?testMode=false`, buyer.token)).body)).toEqual([]);
      expect((await getJson(`${sandbox.url}/reporting/v1/bookings/${production}`, buyer.token)).status).toBe(404);
      const access = await graphql(`${sandbox.url}/graphql`, buyer.token, "{ reportingAccess { scope isTestOnly } }");
      expect(access.body.data).toEqual({ reportingAccess: { scope: "OWN_ORGANISATION", isTestOnly: true } });
    } finally {
      await sandbox.close();
    }
  });
});

describe("GET /reporting/v1/bookings/{id}", () => {
  it("is 400 for an id that is not a UUID and 404 for an unknown one", async () => {
    const owner = await consumer(ctx.stack);
    const malformed = await getJson(`${ctx.stack.url}/reporting/v1/bookings/12345`, owner.token);
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toEqual([{ field: "id", rule: "uuid", message: "id must be a UUID" }]);
    const unknown = await getJson(`${ctx.stack.url}/reporting/v1/bookings/6d0f5f1e-8c55-4a4e-9a43-1f8f3c1f2a77`, owner.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("NOT_FOUND");
  });

  it("does not report carts: an ON_HOLD booking is not found", async () => {
    const owner = await reportingConsumer();
    const [onHold] = await owner.book([{ status: "ON_HOLD" }]);
    expect((await getJson(`${ctx.stack.url}/reporting/v1/bookings/${onHold}`, owner.token)).status).toBe(404);
    expect((await owner.list()).body.data).toEqual([]);
  });
});

describe("CSV export", () => {
  it("streams every matching row with the same filters, one header row, spreadsheet-safe cells", async () => {
    const owner = await reportingConsumer();
    const [formula, plain] = await owner.book([
      { status: "CONFIRMED", creationDate: at("2026-07-01T10:00:00Z"), bookingCode: "=HYPERLINK(\"http://x\")", externalClientId: "c1", engineName: "CSV_ENGINE" },
      { status: "CONFIRMED", creationDate: at("2026-07-02T10:00:00Z"), bookingCode: "PLAIN, CODE", engineName: "CSV_ENGINE" },
      { status: "CANCELLED", creationDate: at("2026-07-03T10:00:00Z"), engineName: "CSV_ENGINE" },
    ]);
    const response = await fetch(`${ctx.stack.url}/reporting/v1/bookings?status=CONFIRMED&page[limit]=1`, { headers: { authorization: `Bearer ${owner.token}`, accept: "text/csv" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="bookings-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await response.text()).split("\r\n");
    expect(lines[0]).toBe(
      "id,bookingCode,bookingExternalId,externalClientId,bookingEngineName,testMode,status,bookedAt,confirmedAt,voucherCreatedAt,cancelledAt,activityStartDate,priceGross,priceCurrency,flowType,partnerChannelName,productId",
    );
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("");
    expect(lines[1].startsWith(`${formula},"'=HYPERLINK(""http://x"")",,c1,CSV_ENGINE,false,CONFIRMED,2026-07-01T10:00:00Z,`)).toBe(true);
    expect(lines[2].startsWith(`${plain},"PLAIN, CODE",,,CSV_ENGINE,false,CONFIRMED,2026-07-02T10:00:00Z,`)).toBe(true);
  });

  it("reads thousands of rows across export slices, each once", async () => {
    const owner = await reportingConsumer();
    const base = Date.parse("2026-08-01T00:00:00Z");
    // Equal creation times across slice boundaries: the cursor must break ties by id.
    const made = await owner.book(Array.from({ length: 4500 }, (_, i) => ({ status: "CONFIRMED" as const, creationDate: new Date(base + Math.floor(i / 3) * 1000) })));
    const response = await fetch(`${ctx.stack.url}/reporting/v1/bookings`, { headers: { authorization: `Bearer ${owner.token}`, accept: "text/csv" } });
    const rows = (await response.text()).trimEnd().split("\r\n").slice(1).map((line) => line.split(",")[0]);
    expect(rows).toHaveLength(4500);
    expect(new Set(rows)).toEqual(new Set(made));

    const slices: string[][] = [];
    let after: string | null = null;
    for (;;) {
      const reply = await graphql(
        `${ctx.stack.url}/graphql`,
        owner.token,
        "query ($after: String) { bookingReports(after: $after, first: 1000, orderBy: { field: BOOKED_AT, direction: DESC }) { pageInfo { hasNextPage endCursor } csv nodes { legacyResourceId } } }",
        { after },
      );
      const page = reply.body.data!.bookingReports as { pageInfo: { hasNextPage: boolean; endCursor: string }; csv: string; nodes: { legacyResourceId: string }[] };
      expect(page.csv.split("\r\n").slice(0, -1).map((line) => line.split(",")[0])).toEqual(page.nodes.map((node) => node.legacyResourceId));
      slices.push(page.nodes.map((node) => node.legacyResourceId));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(slices.map((slice) => slice.length)).toEqual([1000, 1000, 1000, 1000, 500]);
    expect(slices.flat()).toEqual([...rows].reverse());
    // Backwards from the oldest's cursor of the newest-first order: the same rows, nearest first in the list's order.
    const back = await graphql(`${ctx.stack.url}/graphql`, owner.token, "query ($before: String) { bookingReports(before: $before, last: 3, orderBy: { field: BOOKED_AT, direction: DESC }) { nodes { legacyResourceId } pageInfo { hasPreviousPage } } }", { before: null });
    expect(back.body.data!.bookingReports).toEqual({ nodes: rows.slice(0, 3).reverse().map((id) => ({ legacyResourceId: id })), pageInfo: { hasPreviousPage: true } });
    const tampered = await graphql(`${ctx.stack.url}/graphql`, owner.token, '{ bookingReports(after: "not-a-cursor") { pageInfo { endCursor } } }');
    expect(tampered.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [expect.objectContaining({ field: "after" })] });
  });

  it("answers a refused request with the JSON error body and an unknown media type with 406", async () => {
    const owner = await consumer(ctx.stack);
    const refused = await fetch(`${ctx.stack.url}/reporting/v1/bookings?bookedStartDate=2026-13-01`, { headers: { authorization: `Bearer ${owner.token}`, accept: "text/csv" } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { details: { field: string }[] }).details[0].field).toBe("bookedStartDate");
    const partner = await contentPartner(ctx.stack);
    const forbidden = await fetch(`${ctx.stack.url}/reporting/v1/bookings`, { headers: { authorization: `Bearer ${partner.token}`, accept: "text/csv" } });
    expect(forbidden.status).toBe(403);
    await forbidden.text();
    const xml = await fetch(`${ctx.stack.url}/reporting/v1/bookings`, { headers: { authorization: `Bearer ${owner.token}`, accept: "application/xml" } });
    expect(xml.status).toBe(406);
    expect(((await xml.json()) as { code: string }).code).toBe("NOT_ACCEPTABLE");
  });
});

