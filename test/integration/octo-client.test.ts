import { randomUUID } from "node:crypto";
import { Readable, Writable } from "node:stream";
import Fastify from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../core/clock.js";
import { createLogger } from "../../core/logger.js";
import { morningSupplierClock } from "../support/octo-supplier-clock.js";
import { createOctoSupplier, type FaultRule, type OctoSupplier } from "../../octo-supplier/octo-supplier.js";
import { octoLocalDateTime } from "../../octo-supplier/supplier-state.js";
import { MAX_ANSWER_BYTES, OctoClient, OctoNonConforming, OctoRejected, OctoUnavailable, resetCircuitBreakers, type OctoClientOptions } from "../../subgraphs/common/octo/octo.client.js";
import { addDays, instantOf, localDate } from "../../core/local-time.js";
import { freePort } from "../support/child-process.js";

const KEY = "octo-client-test-key-7f3a9c";

/**
 * The OCTO client against the local supplier: every call, OCTO errors as typed rejections, retries
 * of what may pass, a timed-out change settled by reading the booking, a circuit breaker per engine,
 * answers outside the schema refused, and a log line per call that never holds the key.
 */
describe("OCTO client", () => {
  let supplier: OctoSupplier;
  let base: string;
  const logLines: Record<string, unknown>[] = [];
  let rawLog = "";
  const logger = createLogger(
    "info",
    new Writable({
      write(chunk, _encoding, done) {
        rawLog += chunk;
        for (const line of String(chunk).split("\n").filter(Boolean)) logLines.push(JSON.parse(line));
        done();
      },
    }),
  );

  beforeAll(async () => {
    supplier = await createOctoSupplier({ apiKey: KEY, hangMs: 1_500, clock: morningSupplierClock() });
    base = await supplier.listen();
  });
  afterAll(async () => supplier?.close());
  beforeEach(() => {
    resetCircuitBreakers();
    Object.assign(supplier.faults, { latencyMs: 0, rules: [] });
  });

  const client = (options: Partial<OctoClientOptions> = {}, connection: Partial<ConstructorParameters<typeof OctoClient>[0]> = {}) =>
    new OctoClient(
      { engineName: `OCTO_${randomUUID().slice(0, 8)}`, baseUrl: base, apiKey: KEY, capabilities: ["octo/content", "octo/pricing"], ...connection },
      { logger, timeoutMs: 500, retries: 2, backoffMs: 5, ...options },
    );
  const inject = (...rules: FaultRule[]) => Object.assign(supplier.faults, { latencyMs: 0, rules });
  const dateAhead = (days: number) => addDays(localDate(supplier.clock.now(), "Europe/Paris"), days);
  const slot = (date: string, time = "09:00") => octoLocalDateTime(instantOf(date, time, "Europe/Paris"));
  const reservation = (date: string, time = "09:00") => ({ uuid: randomUUID(), productId: "louvre-highlights", optionId: "group", availabilityId: slot(date, time), unitItems: [{ unitId: "adult" }, { unitId: "child" }] });
  const vacancies = async (date: string) => (await client().availability({ productId: "louvre-highlights", optionId: "group", availabilityIds: [slot(date)] })).body[0].vacancies;

  it("makes every call of a booking against a conforming supplier", async () => {
    const octo = client();
    expect((await octo.supplier()).body.id).toBe("paris-discovery");
    const products = await octo.products("de");
    expect(products.contentLanguage).toBe("de");
    expect(products.availableLanguages).toEqual(["en", "fr", "de"]);
    expect(products.body.map((product) => product.id)).toEqual(["louvre-highlights", "seine-day-pass", "seine-private-cruise"]);
    expect((await octo.product("seine-day-pass", "fr")).body.title).toContain("Seine");
    const date = dateAhead(4);
    const calendar = await octo.calendar({ productId: "louvre-highlights", optionId: "group", localDateStart: date, localDateEnd: addDays(date, 2) });
    expect(calendar.body.map((day) => day.localDate)).toEqual([date, addDays(date, 1), addDays(date, 2)]);
    const slots = await octo.availability({ productId: "louvre-highlights", optionId: "group", localDateStart: date, localDateEnd: date });
    expect(slots.body.map((availability) => availability.status)).toEqual(["AVAILABLE", "AVAILABLE", "SOLD_OUT"]);

    const request = reservation(date);
    const held = await octo.reserve(request);
    expect(held.body).toMatchObject({ uuid: request.uuid, status: "ON_HOLD" });
    expect((await octo.extend(request.uuid, 45)).body.status).toBe("ON_HOLD");
    const confirmed = await octo.confirm(request.uuid, { contact: { fullName: "Ada Lovelace", emailAddress: "ada@example.com" } });
    expect(confirmed.body).toMatchObject({ status: "CONFIRMED", voucher: { deliveryOptions: [{ deliveryFormat: "QRCODE" }] } });
    expect((await octo.booking(request.uuid)).body.supplierReference).toBe(confirmed.body.supplierReference);
    expect((await octo.cancel(request.uuid, { reason: "test" })).body.status).toBe("CANCELLED");
  });

  it("turns OCTO errors into rejections that name the code and the id, without retrying them", async () => {
    const octo = client();
    const unknown = await octo.product("no-such-tour").catch((error) => error);
    expect(unknown).toBeInstanceOf(OctoRejected);
    expect(unknown).toMatchObject({ error: "INVALID_PRODUCT_ID", status: 400, detail: { productId: "no-such-tour" } });
    const soldOut = await octo.reserve(reservation(dateAhead(2), "14:00")).catch((error) => error);
    expect(soldOut).toMatchObject({ error: "UNPROCESSABLE_ENTITY", errorMessage: expect.stringContaining("sold out") });
    const wrongKey = await client({}, { apiKey: "not-the-key" }).supplier().catch((error) => error);
    expect(wrongKey).toMatchObject({ error: "FORBIDDEN", status: 403 });
    const attempts = logLines.filter((line) => line.msg === "octo call" && line.path === "/products/no-such-tour");
    expect(attempts).toEqual([expect.objectContaining({ outcome: "rejected", attempt: 1, error: "INVALID_PRODUCT_ID" })]);
  });

  it("retries 500s and timeouts of a read with backoff, and gives up as unavailable after its retries", async () => {
    inject({ route: "GET /products", kind: "error", times: 2 });
    const products = await client().products();
    expect(products.body).toHaveLength(3);
    inject({ route: "GET /supplier", kind: "hang", times: 1 });
    expect((await client().supplier()).body.id).toBe("paris-discovery");
    inject({ route: "GET /supplier", kind: "error", times: 3 });
    await expect(client().supplier()).rejects.toBeInstanceOf(OctoUnavailable);
    const outcomes = logLines.filter((line) => line.msg === "octo call" && line.path === "/supplier").slice(-3).map((line) => line.outcome);
    expect(outcomes).toEqual(["server-error", "server-error", "server-error"]);
  });

  it("settles a confirmation that timed out after it was done by reading the booking, and confirms once", async () => {
    const octo = client();
    const request = reservation(dateAhead(5));
    await octo.reserve(request);
    inject({ route: "POST /bookings/:uuid/confirm", kind: "hang-after", times: 1 });
    const confirmed = await octo.confirm(request.uuid, { contact: { fullName: "Grace Hopper" } });
    expect(confirmed.body.status).toBe("CONFIRMED");
    const confirmCalls = logLines.filter((line) => line.msg === "octo call" && line.path === `/bookings/${request.uuid}/confirm`);
    expect(confirmCalls.map((line) => line.outcome)).toEqual(["timeout"]);
    expect(logLines.some((line) => line.msg === "octo change settled by reading the booking after a timeout" && line.uuid === request.uuid)).toBe(true);
  });

  it("sends a change again only when the booking shows it did not happen", async () => {
    const octo = client();
    const date = dateAhead(6);
    const before = await vacancies(date);
    // The reservation timed out before the supplier did anything: no booking under our uuid, so it is sent again.
    const lost = reservation(date);
    inject({ route: "POST /bookings", kind: "hang", times: 1 });
    expect((await octo.reserve(lost)).body.status).toBe("ON_HOLD");
    // This one was made, then the answer was lost: reading finds it, and it is not sent twice.
    const made = reservation(date);
    inject({ route: "POST /bookings", kind: "hang-after", times: 1 });
    expect((await octo.reserve(made)).body.uuid).toBe(made.uuid);
    expect(await vacancies(date)).toBe(before! - 4);
    // A confirmation that never arrived is sent again after the booking still reads ON_HOLD.
    inject({ route: "POST /bookings/:uuid/confirm", kind: "hang", times: 1 });
    expect((await octo.confirm(lost.uuid, { contact: { fullName: "Alan Turing" } })).body.status).toBe("CONFIRMED");
  });

  it("opens the circuit after repeated failures, refuses without calling, and lets one trial through after the cool-down", async () => {
    const clock = new ManualClock();
    const engine = `OCTO_BREAKER_${randomUUID().slice(0, 6)}`;
    const octo = client({ clock, retries: 0, breaker: { failureThreshold: 3, coolDownMs: 60_000 } }, { engineName: engine });
    inject({ route: "GET /supplier", kind: "error", times: 10 });
    for (let i = 0; i < 3; i++) await expect(octo.supplier()).rejects.toBeInstanceOf(OctoUnavailable);
    expect(octo.circuit).toBe("open");
    await expect(octo.supplier()).rejects.toThrow(/circuit is open/);
    expect(supplier.faults.rules[0].times).toBe(7);
    // Another client of the same engine shares the circuit.
    await expect(client({ clock, retries: 0 }, { engineName: engine }).supplier()).rejects.toThrow(/circuit is open/);

    clock.advance(60);
    expect(octo.circuit).toBe("half-open");
    await expect(octo.supplier()).rejects.toThrow(/answered 500/);
    expect(octo.circuit).toBe("open");
    inject();
    clock.advance(60);
    expect((await octo.supplier()).body.id).toBe("paris-discovery");
    expect(octo.circuit).toBe("closed");
  });

  it("refuses answers outside the OCTO schema with an engine error naming the field", async () => {
    const rogue = Fastify();
    rogue.get("/products", async () => [{ id: 42, internalName: "Not OCTO" }]);
    rogue.get("/supplier", async (_request, reply) => reply.code(404).send("Not here"));
    // Endless JSON with no length announced: read only up to the limit, then refused.
    rogue.get("/products/flood", async (_request, reply) => {
      const chunk = Buffer.alloc(1024 * 1024, " ");
      let sent = 0;
      const flood = new Readable({
        read() {
          sent += chunk.length;
          this.push(sent > MAX_ANSWER_BYTES * 3 ? null : chunk);
        },
      });
      return reply.type("application/json").send(flood);
    });
    // An OCTO product in every field the package checks, with a question OCTO would not write.
    const sound = (await client({}, { capabilities: ["octo/content", "octo/pricing", "octo/questions"] }).product("louvre-highlights")).body;
    rogue.get("/products/odd-question", async () => ({ ...sound, questions: [{ id: "step", title: "Step-free?", required: "yes", inputType: "select" }] }));
    const url = await rogue.listen({ port: 0, host: "127.0.0.1" });
    try {
      const octo = client({}, { baseUrl: url });
      const odd = await octo.product("odd-question").catch((error) => error);
      expect(odd).toBeInstanceOf(OctoNonConforming);
      expect(odd.message).toMatch(/outside the OCTO schema: questions\.0\.required: Expected boolean, received string/);
      const products = await octo.products().catch((error) => error);
      expect(products).toBeInstanceOf(OctoNonConforming);
      expect(products.message).toMatch(/outside the OCTO schema: \[0\]\.id: Expected string, received number/);
      await expect(octo.supplier()).rejects.toThrow(/answered 404 without an OCTO error body/);
      const flood = await client({ retries: 0, timeoutMs: 10_000 }, { baseUrl: url }).product("flood").catch((error) => error);
      expect(flood).toBeInstanceOf(OctoNonConforming);
      expect(flood.message).toMatch(/answered more than \d+ bytes/);
    } finally {
      await rogue.close();
    }
  });

  it("reports an unreachable supplier as unavailable", async () => {
    const port = await freePort();
    const error = await client({ retries: 1 }, { baseUrl: `http://127.0.0.1:${port}` }).supplier().catch((caught) => caught);
    expect(error).toBeInstanceOf(OctoUnavailable);
    expect(error.message).toMatch(/unreachable \(ECONNREFUSED\)/);
  });

  it("logs every call with its duration and outcome, and never the key", () => {
    const calls = logLines.filter((line) => line.msg === "octo call");
    expect(calls.length).toBeGreaterThan(20);
    for (const line of calls) expect(line).toMatchObject({ component: "octo", engine: expect.any(String), method: expect.any(String), path: expect.any(String), outcome: expect.any(String), durationMs: expect.any(Number) });
    // A refused key ("refused") is told apart from the supplier's refusals of a request ("rejected").
    expect(new Set(calls.map((line) => line.outcome))).toEqual(new Set(["ok", "rejected", "refused", "server-error", "timeout", "circuit-open", "non-conforming", "unreachable"]));
    expect(rawLog).not.toContain(KEY);
    expect(rawLog).not.toContain("not-the-key");
  });
});
