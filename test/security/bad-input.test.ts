import ISO6391 from "iso-639-1";
import { toGlobalId } from "../../core/global-id.js";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../drizzle/database.js";
import { parsedSetupsHeld } from "../../subgraphs/booking/engines/inventory/booking-setup.repository.js";
import { bookableAvailability, bookableProduct, consumer, familySetup, newRef, type BookableProduct } from "../support/booking.js";
import { productRequest, supplierInput, supplierRequest } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";
import { wsClient, wsOutcome } from "../support/ws-client.js";

/**
 * Input no database can store, impossible dates, prototype names, malformed ids, unpriceable
 * currencies and malformed requests are the caller's mistakes: each is a 4xx in the one REST error
 * body (or BAD_USER_INPUT in GraphQL) naming what the caller sent, and nothing is changed.
 */
describe("bad input", () => {
  // Its own database on PostgreSQL: "nothing changed" is checked over whole tables.
  const handle = useStack({ env: { WORKER_LOOPS: "false" }, ownDatabase: true });
  let product: BookableProduct;
  let buyer: Awaited<ReturnType<typeof consumer>>;
  let availabilityId: string;
  let bookingId: string;

  const DATE = "2027-03-10";
  const NUL = "Zermatt\u0000Guides";
  const SURROGATE = "Zermatt\ud800Guides";
  const DASHES = "-".repeat(36);

  beforeAll(async () => {
    product = await bookableProduct(handle.stack);
    buyer = await consumer(handle.stack);
    const availability = await bookableAvailability(buyer.rest, product.productId, DATE, { adults: 2 });
    availabilityId = availability.id;
    const booking = await buyer.rest.send("POST", "/booking-flow/v1/bookings", { availabilityId, resellerRef: newRef() }, {});
    expect(booking.status).toBe(201);
    bookingId = booking.body.id;
  }, 60_000);

  /** Every row the requests below could touch, as one digest per table. */
  const TABLES = ["suppliers", "products", "product_changes", "booking_setups", "slot_inventory", "availabilities", "bookings", "booking_jobs", "booking_reports"];
  const snapshot = async () => {
    const digests: Record<string, unknown> = {};
    for (const table of TABLES) {
      const [row] = await rows<{ n: number; digest: string }>(
        handle.database.db,
        sql.raw(`select count(*)::int as n, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as digest from ${table} t`),
      );
      digests[table] = row;
    }
    return digests;
  };

  const send = async (token: string, method: string, path: string, body?: string, contentType = "application/json") => {
    const response = await fetch(`${handle.stack.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": contentType }) },
      body,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
  };

  /** The one REST error body: its keys, the status repeated, the request id of the header, the field named. */
  const expectRestError = (response: Awaited<ReturnType<typeof send>>, status: number, field?: string) => {
    expect(response.status, response.text).toBe(status);
    expect(Object.keys(response.body).sort()).toEqual(expect.arrayContaining(["code", "message", "requestId", "status"]));
    expect(Object.keys(response.body).every((key) => ["status", "code", "message", "errorCode", "details", "requestId"].includes(key))).toBe(true);
    expect(response.body.status).toBe(status);
    expect(response.body.requestId).toBe(response.headers.get("x-request-id"));
    expect(response.text).not.toMatch(/\$[a-z]/i);
    if (field !== undefined) expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
  };

  /** Refused before execution (text, variables) with 400; by a resolver with 200, as GraphQL answers field errors. */
  const expectGraphqlBadInput = (response: Awaited<ReturnType<typeof graphql>>, field?: string) => {
    expect([200, 400]).toContain(response.status);
    expect(response.body.data ?? null).toBeNull();
    const [error] = response.body.errors!;
    expect(error.extensions?.code).toBe("BAD_USER_INPUT");
    if (field !== undefined) expect((error.extensions?.problems as { field: string }[]).map((p) => p.field)).toContain(field);
  };

  describe("text no database can store (NUL, lone surrogates)", () => {
    const cases = (bad: string) => {
      const s = () => product.supplierId;
      const p = () => product.productId;
      // A lone surrogate cannot be percent-encoded as UTF-8 (those cases are skipped for it).
      const q = bad === SURROGATE ? "" : encodeURIComponent(bad);
      return [
        ["POST", () => "/api/supplier", () => supplierRequest({ name: bad }), "name", "partner"],
        ["POST", () => `/api/supplier/${s()}`, () => supplierRequest({ supplierContact: { email: "a@b.example", address: bad } }), "supplierContact.address", "partner"],
        ["POST", () => `/api/supplier/${s()}/product`, () => productRequest({ title: { en: bad } }), "title.en", "partner"],
        ["PUT", () => `/api/supplier/${s()}/product/${p()}/booking-setup`, () => familySetup({ units: [{ key: "adult", label: { en: bad }, minAge: 18, unitPriceType: "PER_PERSON", price: 50, minQuantity: 1, maxQuantity: 8 }] }), "units[0].label.en", "partner"],
        ["GET", () => `/api/supplier/${s()}/products/?cityName=${q}`, undefined, "cityName", "partner"],
        ["GET", () => `/api/consumer/products?Search=${encodeURIComponent("title:")}${q}`, undefined, "Search", "buyer"],
        ["GET", () => `/booking-flow/v1/products/${p()}/availabilities/${q}/options`, undefined, "date", "buyer"],
        ["POST", () => "/booking-flow/v1/bookings", () => ({ availabilityId, resellerRef: bad }), "resellerRef", "buyer"],
        ["PUT", () => `/booking-flow/v1/bookings/${bookingId}/questions`, () => [{ id: bookingId, value: bad }], "[0].value", "buyer"],
        ["GET", () => `/reporting/v1/bookings?bookingCode=${q}`, undefined, "bookingCode", "buyer"],
        ["POST", () => "/recommendation/v2/activities", () => ({ interests: [bad] }), "interests[0]", "buyer"],
        ["GET", () => `/recommendation/v1/top-activities?cityName=${q}`, undefined, "cityName", "buyer"],
      ] as const;
    };

    it.each([
      ["a NUL character", NUL],
      ["a lone surrogate", SURROGATE],
    ])("refuses %s on every REST path with a 400 naming the field, changing nothing", async (_name, bad) => {
      const before = await snapshot();
      for (const [method, path, body, field, who] of cases(bad)) {
        // A lone surrogate reaches the service in JSON bodies only (see the percent-encoded one below).
        if (bad === SURROGATE && body === undefined) continue;
        const token = who === "partner" ? product.partner.token : buyer.token;
        const response = await send(token, method, path(), body ? JSON.stringify(body()) : undefined);
        expectRestError(response, 400, field);
        expect(response.body.code).toBe("VALIDATION_FAILED");
      }
      expect(await snapshot()).toEqual(before);
    });

    it("refuses them at the token endpoint in its OAuth error shape", async () => {
      const before = await snapshot();
      const { username, password } = await handle.stack.createAccount("CONSUMER");
      const forms: Record<string, string>[] = [
        { username: `${username}\u0000`, password },
        { username, password: `${password}\u0000` },
        { username, password, scope: "booking\u0000" },
      ];
      for (const form of forms) {
        const response = await fetch(handle.stack.tokenUrl, { method: "POST", body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", ...form }) });
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({ error: "invalid_request", error_description: expect.stringMatching(/^Parameter (username|password|scope) must not contain the NUL character/) });
      }
      const refresh = await fetch(handle.stack.tokenUrl, { method: "POST", body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "refresh_token", refresh_token: "x\u0000" }) });
      expect(refresh.status).toBe(400);
      expect(await snapshot()).toEqual(before);
    });

    it("refuses them in GraphQL variables and literals, naming the variable or argument", async () => {
      const before = await snapshot();
      const { url } = handle.stack;
      const create = `mutation ($input: CreateSupplierInput!) { createSupplier(input: $input) { supplier { id } } }`;
      const createProduct = `mutation ($input: CreateProductInput!) { createProduct(input: $input) { product { id } userErrors { code } } }`;
      const productInput = (title: unknown) => ({ supplierId: toGlobalId("Supplier", product.supplierId), externalId: `BAD-${newRef()}`, title });
      for (const bad of [NUL, SURROGATE]) {
        expectGraphqlBadInput(await graphql(`${url}/graphql`, product.partner.token, create, { input: supplierInput({ name: bad }) }), "$input.name");
        // Inside a translation of a typed text, and inside an itinerary's.
        expectGraphqlBadInput(await graphql(`${url}/graphql`, product.partner.token, createProduct, { input: productInput([{ language: "en", text: `Tour ${bad}` }]) }), "$input.title[0].text");
        const itinerary = { type: "STANDARD", units: [{ items: [{ title: [{ language: "en", text: bad }] }] }] };
        expectGraphqlBadInput(await graphql(`${url}/graphql`, product.partner.token, createProduct, { input: { ...productInput([{ language: "en", text: "Tour" }]), itinerary } }), "$input.itinerary.units[0].items[0].title[0].text");
        expectGraphqlBadInput(await graphql(`${url}/graphql`, buyer.token, `query ($s: String!) { searchProducts(query: $s) { totalCount { count } } }`, { s: `title:${bad}` }), "$s");
      }
      expectGraphqlBadInput(await graphql(`${url}/graphql`, buyer.token, `{ searchProducts(query: "title:a\\u0000b") { totalCount { count } } }`), "query");
      expectGraphqlBadInput(await graphql(`${url}/graphql`, buyer.token, `{ recommendations(input: { interests: ["a\\u0000"] }) { totalCount { count } } }`), "input.interests[0]");
      // A lone surrogate escaped in a literal is not GraphQL at all: the parser refuses it.
      const literal = await graphql(`${url}/graphql`, buyer.token, `{ searchProducts(query: "title:a\\ud800") { totalCount { count } } }`);
      expect(literal.status).toBe(400);
      expect(literal.body.errors![0].extensions?.code).toBe("GRAPHQL_PARSE_FAILED");
      expect(await snapshot()).toEqual(before);
    });
  });

  describe("impossible dates", () => {
    it.each(["2026-13-45", "0000-00-00", "2026-02-30"])("refuses %s in a path and in a parameter", async (date) => {
      const base = `/booking-flow/v1/products/${product.productId}/availabilities`;
      const before = await snapshot();
      expectRestError(await send(buyer.token, "GET", `${base}/${date}/options`), 400, "date");
      expectRestError(await send(buyer.token, "GET", `${base}?startDate=${date}`), 400, "startDate");
      expectRestError(await send(buyer.token, "GET", `${base}?startDate=2026-01-01&endDate=${date}`), 400, "endDate");
      expectRestError(await send(buyer.token, "GET", `/reporting/v1/bookings?bookedStartDate=${date}`), 400, "bookedStartDate");
      expectRestError(await send(buyer.token, "POST", "/recommendation/v2/activities", JSON.stringify({ travelDate: date })), 400, "travelDate");
      const gql = await graphql(`${handle.stack.url}/graphql`, buyer.token, `query ($d: Date!) { availableDates(productId: "${toGlobalId("Product", product.productId)}", startDate: $d) }`, { d: date });
      expectGraphqlBadInput(gql, "$d");
      expect(await snapshot()).toEqual(before);
    });
  });

  describe("real dates at the ends of the calendar", () => {
    // 9999-12-31 once made the inventory engine ask PostgreSQL about year 10000: a 500 found by the fuzz.
    it.each(["9999-12-31", "0001-01-01"])("answers %s as a date with no places, never a 5xx, and changes nothing", async (date) => {
      const base = `/booking-flow/v1/products/${product.productId}/availabilities`;
      const before = await snapshot();
      const options = await send(buyer.token, "GET", `${base}/${date}/options`);
      expect(options.body).toMatchObject({ status: 400, code: "DATE_NOT_AVAILABLE" });
      const range = await send(buyer.token, "GET", `${base}?startDate=${date}&endDate=${date}`);
      expect(range.status, range.text).toBe(200);
      expect(range.body.availabilityDates).toEqual([]);
      for (const answer of [
        await send(buyer.token, "GET", `/reporting/v1/bookings?bookedStartDate=${date}&bookedEndDate=${date}`),
        await send(buyer.token, "POST", "/recommendation/v2/activities", JSON.stringify({ travelDate: date })),
      ]) {
        expect(answer.status, answer.text).toBeLessThan(500);
      }
      const gql = await graphql(`${handle.stack.url}/graphql`, buyer.token, `mutation ($d: Date!) { createAvailability(input: { productId: "${toGlobalId("Product", product.productId)}", date: $d }) { availability { id } userErrors { code message } } }`, { d: date });
      expect(gql.body.errors).toBeUndefined();
      expect(gql.body.data?.createAvailability).toEqual({ availability: null, userErrors: [{ code: "DATE_NOT_AVAILABLE", message: expect.stringContaining("has no places") }] });
      expect(await snapshot()).toEqual(before);
    });
  });

  describe("search fields named like object prototype members", () => {
    it.each(["toString:x", "constructor:x", "__proto__:x", "hasOwnProperty:x", "valueOf:>1"])("refuses %s as an unknown field", async (search) => {
      const rest = await send(buyer.token, "GET", `/api/consumer/products?Search=${encodeURIComponent(search)}`);
      expectRestError(rest, 400, "Search");
      expect(rest.body.code).toBe("INVALID_SEARCH");
      expect(rest.body.message).toContain(`Unknown field ${search.split(":")[0]}`);
      const gql = await graphql(`${handle.stack.url}/graphql`, buyer.token, `query ($s: String!) { searchProducts(query: $s) { totalCount { count } } }`, { s: search });
      expectGraphqlBadInput(gql);
    });
  });

  describe("ids that are no UUIDs", () => {
    it.each([DASHES, "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz", "00000000-0000-0000-0000-00000000000g"])("refuses %s on every path taking one", async (id) => {
      const before = await snapshot();
      const booking = await send(buyer.token, "POST", "/booking-flow/v1/bookings", JSON.stringify({ availabilityId: id, resellerRef: newRef() }));
      expectRestError(booking, 400);
      expect(booking.body).toMatchObject({ code: "INVALID_AVAILABILITY", errorCode: 9510 });
      expectRestError(await send(buyer.token, "GET", `/booking-flow/v1/products/${product.productId}/availabilities/${id}/prices`), 400, "availabilityId");
      expectRestError(await send(buyer.token, "GET", `/booking-flow/v1/bookings/${id}`), 400, "bookingId");
      expectRestError(await send(buyer.token, "GET", `/booking-flow/v1/bookings/${id}/questions`), 400, "bookingId");
      expectRestError(await send(buyer.token, "GET", `/reporting/v1/bookings/${id}`), 400, "id");
      expectRestError(await send(buyer.token, "GET", `/booking-flow/v1/vouchers/${id}.pdf?expires=1&signature=x`), 404);
      // The graph names bookings by global id: one that holds no UUID names none.
      const graphAnswer = await graphql(`${handle.stack.url}/graphql`, buyer.token, `query ($id: ID!) { booking(id: $id) { id } }`, { id: toGlobalId("Booking", id) });
      expect(graphAnswer.body).toMatchObject({ data: { booking: null } });
      expect(graphAnswer.body.errors).toBeUndefined();
      expect(await snapshot()).toEqual(before);
    });
  });

  describe("booking setups", () => {
    const setupPath = () => `/api/supplier/${product.supplierId}/product/${product.productId}/booking-setup`;

    it.each(["XAU", "KPW", "XXX"])("refuses a setup in %s, a currency without an exchange rate, naming the field", async (currency) => {
      const before = await snapshot();
      const response = await send(product.partner.token, "PUT", setupPath(), JSON.stringify(familySetup({ currency })));
      expectRestError(response, 400, "setup.currency");
      expect(response.body.code).toBe("INVALID_SETUP");
      expect(await snapshot()).toEqual(before);
      // The product can still be priced: the setup was left as it was.
      const fresh = await bookableAvailability(buyer.rest, product.productId, "2027-04-14");
      expect(fresh.availabilityOptions).toBeDefined();
    });

    it("are not remembered parsed when large: a partner's setups cannot fill the service's memory", async () => {
      const own = await bookableProduct(handle.stack);
      const ownPath = `/api/supplier/${own.supplierId}/product/${own.productId}/booking-setup`;
      // Every ISO 639-1 language, nearly 500 characters each: about 90 KB in one label.
      const languages = ISO6391.getAllCodes();
      const family = familySetup();
      const large = { ...family, units: [{ ...family.units[0], label: Object.fromEntries(languages.map((language) => [language, "x".repeat(490)])) }, family.units[1]] };
      expect((await own.partner.rest.put(ownPath, large)).status).toBe(200);
      const before = parsedSetupsHeld();
      const read = await own.partner.rest.get(ownPath);
      expect(Object.keys(read.body.units[0].label)).toHaveLength(languages.length);
      await own.partner.rest.get(ownPath);
      expect(parsedSetupsHeld()).toEqual(before);
      expect(before.chars).toBeLessThanOrEqual(4 * 1024 * 1024);
    });

    it("keeps bookings when the capacity is lowered below the places taken, and sells no more places", async () => {
      const own = await bookableProduct(handle.stack, familySetup({ capacityPerSlot: 4, startTimes: ["09:00"] }));
      const first = await consumer(handle.stack);
      const availability = await bookableAvailability(first.rest, own.productId, DATE, { adults: 3 });
      const booked = await first.rest.send("POST", "/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() }, {});
      expect(booked.status).toBe(201);

      const lowered = await own.partner.rest.put(`/api/supplier/${own.supplierId}/product/${own.productId}/booking-setup`, familySetup({ capacityPerSlot: 2, startTimes: ["09:00"] }));
      expect(lowered.status).toBe(200);
      const [slot] = await rows<{ capacity: number; taken: number }>(handle.database.db, sql`select capacity, taken from slot_inventory where product_id = ${own.productId}`);
      // The slot keeps what it sold (its check allows no capacity below the places taken).
      expect(slot).toEqual({ capacity: 3, taken: 3 });

      // The booking made stays as it was.
      const kept = await first.rest.get(`/booking-flow/v1/bookings/${booked.body.id}`);
      expect(kept.status).toBe(200);
      expect(kept.body.status).toBe(booked.body.status);
      // No place is left: the date is not offered, and asking for it is a 400.
      const second = await consumer(handle.stack);
      const dates = await second.rest.get(`/booking-flow/v1/products/${own.productId}/availabilities?startDate=${DATE}&endDate=${DATE}`);
      expect(dates.status).toBe(200);
      expect(dates.body.availabilityDates).toEqual([]);
      const options = await send(second.token, "GET", `/booking-flow/v1/products/${own.productId}/availabilities/${DATE}/options`);
      expectRestError(options, 400);

      // Places given back are sold again only up to the new capacity, not the capacity of old.
      const cancelled = await first.rest.send("DELETE", `/booking-flow/v1/bookings/${booked.body.id}`, undefined, {});
      expect(cancelled.status).toBe(200);
      await expect(bookableAvailability(second.rest, own.productId, DATE, { adults: 3 })).rejects.toThrow(/^prices: \{"status":400,/);
      const two = await bookableAvailability(second.rest, own.productId, DATE, { adults: 2 });
      const rebooked = await second.rest.send("POST", "/booking-flow/v1/bookings", { availabilityId: two.id, resellerRef: newRef() }, {});
      expect(rebooked.status).toBe(201);
      const [after] = await rows<{ capacity: number; taken: number }>(handle.database.db, sql`select capacity, taken from slot_inventory where product_id = ${own.productId}`);
      expect(after.taken).toBe(2);
    });
  });

  describe("requests Fastify refuses before any route", () => {
    it.each([
      ["a path that is not percent-encoded UTF-8", "GET", "/api/supplier/%zz", undefined, undefined, 400],
      ["a lone surrogate percent-encoded in a path", "GET", "/booking-flow/v1/products/1/availabilities/a%ED%A0%80b/options", undefined, undefined, 400],
      ["a body that is not JSON", "POST", "/api/supplier", "{bad", "application/json", 400],
      ["a body of a type no route takes", "POST", "/api/supplier", "<supplier/>", "application/xml", 415],
      ["a body over 1 MiB", "POST", "/api/supplier", JSON.stringify({ name: "x".repeat(1_100_000) }), "application/json", 413],
      ["a path parameter over Fastify's length limit", "GET", `/api/supplier/${"9".repeat(200)}`, undefined, undefined, 414],
    ] as const)("answers %s in the one error body", async (_name, method, path, body, type, status) => {
      const before = await snapshot();
      expectRestError(await send(product.partner.token, method, path, body, type), status);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe("parameters the operations' variables refuse", () => {
    it.each([
      ["/recommendation/v1/top-activities?cityName=Paris&maxRecommendations=", "maxRecommendations"],
      ["/recommendation/v1/top-activities?cityName=Paris&radius=", "radius"],
      ["/recommendation/v1/top-activities?cityName=Paris&lat=1e400&lon=1", "lat"],
      ["/recommendation/v2/activities?page[offset]=", "page[offset]"],
      ["/api/consumer/products?Search=title:x&pageNumber=", "pageNumber"],
      ["/api/consumer/products?Search=title:x&resultsPerPage=", "resultsPerPage"],
    ])("names the REST parameter of %s", async (path, field) => {
      const response = await send(buyer.token, "GET", path);
      expectRestError(response, 400, field);
      expect(response.body.code).toBe("VALIDATION_FAILED");
    });

    it("names a filter nested in a variable by its own parameter", async () => {
      const response = await send(product.partner.token, "GET", `/api/supplier/${product.supplierId}/products/?rating=1e400`);
      expectRestError(response, 400, "rating");
    });

    it("refuses JSON nested deeper than 64 levels on REST, GraphQL over HTTP and graphql-ws, changing nothing", async () => {
      // 300,000 levels in 600 KB: enough to exhaust the stack of any recursive walk.
      const deep = "[".repeat(300_000) + "]".repeat(300_000);
      const before = await snapshot();
      const rest = await send(product.partner.token, "POST", "/api/supplier", `{"externalId":"deep","country":"CH","name":${deep}}`);
      expectRestError(rest, 400);
      expect(rest.body.message).toBe("The JSON body nests deeper than 64 levels");
      const query = `query ($filter: ProductFilterInput) { me { username } supplier(id: "U3VwcGxpZXI6MQ") { products(filter: $filter) { id } } }`;
      const overHttp = await send(buyer.token, "POST", "/graphql", `{"query":${JSON.stringify(query)},"variables":{"filter":${deep}}}`);
      expectRestError(overHttp, 400);
      const client = wsClient(handle.stack, buyer.token);
      try {
        const outcome = await wsOutcome(client, query, { filter: JSON.parse("[".repeat(100) + "]".repeat(100)) });
        expect(outcome.errors?.[0]).toMatchObject({ message: "The variables nest deeper than 64 levels", extensions: { code: "BAD_USER_INPUT" } });
      } finally {
        await client.dispose();
      }
      expect(await snapshot()).toEqual(before);
      expect((await fetch(`${handle.stack.url}/health/live`)).status).toBe(200);
    });

    it("refuses a GraphQL variable of the wrong type as BAD_USER_INPUT naming it", async () => {
      const query = `query ($max: Int!) { topActivities(cityName: "Paris", first: $max) { nodes { id } } }`;
      expectGraphqlBadInput(await graphql(`${handle.stack.url}/graphql`, buyer.token, query, { max: null }), "$max");
      expectGraphqlBadInput(await graphql(`${handle.stack.url}/graphql`, buyer.token, query, { max: "ten" }), "$max");
    });
  });
});
