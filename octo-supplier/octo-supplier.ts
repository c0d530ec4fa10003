import { timingSafeEqual } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  availabilityBodySchema,
  availabilityCalendarBodySchema,
  cancelBookingBodySchema,
  confirmBookingBodySchema,
  createBookingBodySchema,
  extendBookingBodySchema,
  updateBookingBodySchema,
  type Capability,
} from "@octocloud/types";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { array, object, string, ValidationError, type AnySchema } from "yup";
import type { Clock } from "../core/clock.js";
import { addDays } from "../core/local-time.js";
import { renderAvailability, renderBooking, renderCalendarDay, renderProduct, renderSupplier, type RenderContext } from "./octo-render.js";
import { SUPPLIER_LANGUAGES, type SupplierLanguage } from "./supplier-catalogue.js";
import { OctoError, SupplierState, type ConfirmRequest, type ReserveRequest, type UpdateRequest } from "./supplier-state.js";

/** Capabilities this supplier offers; a reseller initialises them with the Octo-Capabilities header. */
export const SUPPORTED_CAPABILITIES = ["octo/content", "octo/pricing", "octo/questions"] as const;

/**
 * A misbehaviour injected into the next calls of one route (or any route): `error` answers 500
 * without doing anything; `hang` answers nothing for `hangMs` and does nothing; `hang-after` does
 * the work, then answers nothing for `hangMs`: the ambiguous outcome a reseller must reconcile;
 * `forbidden` refuses the key (403 FORBIDDEN) and does nothing, as a supplier does once a key is
 * revoked (every route) or not allowed one call (one route).
 */
export interface FaultRule {
  /** Fastify's route, e.g. "POST /bookings/:uuid/confirm"; every API route when absent. */
  route?: string;
  kind: "error" | "hang" | "hang-after" | "forbidden";
  times: number;
}

export interface Faults {
  /** Added before every API call is handled. */
  latencyMs: number;
  rules: FaultRule[];
}

/** Wall time moved by the control API, so that holds can expire without waiting. */
export class ShiftableClock implements Clock {
  private shiftMs = 0;
  constructor(private readonly base: Clock = { now: () => new Date() }) {}
  now(): Date {
    return new Date(this.base.now().getTime() + this.shiftMs);
  }
  advance(minutes: number): void {
    this.shiftMs += minutes * 60_000;
  }
}

export interface OctoSupplierOptions {
  apiKey: string;
  clock?: ShiftableClock;
  /** How long a hanging call stays unanswered (longer than any reseller's timeout). */
  hangMs?: number;
  /** The supplier's own base URL, reported by GET /supplier. */
  endpoint?: () => string;
  /** What it offers, of SUPPORTED_CAPABILITIES (all by default): a supplier without octo/questions, say. */
  capabilities?: readonly (typeof SUPPORTED_CAPABILITIES)[number][];
}

export interface OctoSupplier {
  app: FastifyInstance;
  state: SupplierState;
  clock: ShiftableClock;
  faults: Faults;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

declare module "fastify" {
  interface FastifyRequest {
    octo?: RenderContext;
    hangAfter?: boolean;
  }
}

const noFaults = (): Faults => ({ latencyMs: 0, rules: [] });

/** What the hooks and routes of one supplier share. */
interface SupplierParts {
  app: FastifyInstance;
  state: SupplierState;
  clock: ShiftableClock;
  faults: Faults;
  /** The capabilities offered, of SUPPORTED_CAPABILITIES. */
  offered: string[];
  endpoint: () => string;
  /** Waits, but no longer than until the supplier closes. */
  pause: (ms: number) => Promise<void>;
  hangMs: number;
}

/**
 * A supplier system that speaks OCTO, for tests and the demo: GET /supplier, /products,
 * /capabilities, availability calendar and check, and bookings reserved, extended, confirmed and
 * cancelled by uuid. Bearer key, capability headers and OCTO error bodies as the standard has them;
 * `/_control` moves its clock and injects latency, 500s and timeouts.
 */
export async function createOctoSupplier(options: OctoSupplierOptions): Promise<OctoSupplier> {
  const clock = options.clock ?? new ShiftableClock();
  const stopping = new AbortController();
  let baseUrl = "";
  const parts: SupplierParts = {
    app: Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 1_048_576 }),
    state: new SupplierState(clock),
    clock,
    faults: noFaults(),
    offered: SUPPORTED_CAPABILITIES.filter((id) => !options.capabilities || options.capabilities.includes(id)),
    endpoint: options.endpoint ?? (() => baseUrl),
    pause: (ms) => sleep(ms, undefined, { signal: stopping.signal }).catch(() => undefined),
    hangMs: options.hangMs ?? 60_000,
  };
  answerErrorsAsOcto(parts.app);
  checkKeyAndCapabilities(parts, Buffer.from(`Bearer ${options.apiKey}`));
  injectFaults(parts);
  addTicketRoute(parts);
  addContentRoutes(parts);
  addAvailabilityRoutes(parts);
  addBookingRoutes(parts);
  addControlRoutes(parts);
  const { app, state, faults } = parts;
  return {
    app,
    state,
    clock,
    faults,
    async listen(port = 0, host = "127.0.0.1") {
      const address = await app.listen({ port, host });
      baseUrl = address;
      return address;
    },
    async close() {
      stopping.abort();
      await app.close();
    },
  };
}

/** Answers with an OCTO error body and the error's status. */
const send = (reply: FastifyReply, error: OctoError) => reply.code(error.status).send({ error: error.error, errorMessage: error.message, ...error.detail });

/** Every failure, ours or Fastify's, reaches the reseller as an OCTO error body. */
function answerErrorsAsOcto(app: FastifyInstance): void {
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    if (error instanceof OctoError) return send(reply, error);
    if (error instanceof ValidationError) return send(reply, new OctoError("BAD_REQUEST", error.errors.join("; ")));
    if (error.statusCode && error.statusCode < 500) return send(reply, new OctoError("BAD_REQUEST", error.message));
    return send(reply, new OctoError("INTERNAL_SERVER_ERROR", "There was an un-recoverable error, please try again", 500));
  });
  app.setNotFoundHandler((request, reply) => send(reply, new OctoError("BAD_REQUEST", `No route ${request.method} ${request.url}`, 404)));
}

/** Refuses a missing or wrong key, and keeps on the request what it asked for: capabilities and language. */
function checkKeyAndCapabilities({ app, offered, endpoint }: SupplierParts, expectedKey: Buffer): void {
  app.addHook("onRequest", async (request, reply) => {
    // A ticket's address is its authorisation (an unguessable booking id), as for vouchers anywhere.
    if (request.method === "GET" && request.url.startsWith("/tickets/")) return;
    const given = Buffer.from(request.headers.authorization ?? "");
    if (!request.headers.authorization) return send(reply, new OctoError("UNAUTHORIZED", "Send the API key in the Authorization header as Bearer <key>", 401));
    if (given.length !== expectedKey.length || !timingSafeEqual(given, expectedKey)) return send(reply, new OctoError("FORBIDDEN", "The API key is invalid or has been revoked", 403));
    const requested = String(request.headers["octo-capabilities"] ?? "").split(",").map((id) => id.trim());
    const initialised = offered.filter((id) => requested.includes(id));
    reply.header("octo-capabilities", initialised.join(", "));
    const content = initialised.includes("octo/content");
    request.octo = {
      language: languageOf(request.headers["accept-language"]),
      content,
      pricing: initialised.includes("octo/pricing"),
      questions: initialised.includes("octo/questions"),
      ticketsUrl: `${endpoint()}/tickets`,
    };
    if (content) {
      reply.header("content-language", request.octo.language);
      reply.header("available-languages", SUPPLIER_LANGUAGES.join(", "));
    }
  });
}

/** Applies the latency and the first matching fault rule of the control API to every API call. */
function injectFaults({ app, faults, pause, hangMs }: SupplierParts): void {
  app.addHook("preHandler", async (request, reply) => {
    const route = `${request.method} ${request.routeOptions.url}`;
    if (route.includes(" /_control")) return;
    if (faults.latencyMs > 0) await pause(faults.latencyMs);
    const rule = faults.rules.find((candidate) => candidate.times > 0 && (!candidate.route || candidate.route === route));
    if (!rule) return;
    rule.times -= 1;
    if (rule.kind === "error") return send(reply, new OctoError("INTERNAL_SERVER_ERROR", "Injected failure: the supplier answered 500", 500));
    if (rule.kind === "forbidden") return send(reply, new OctoError("FORBIDDEN", "The API key is invalid or has been revoked", 403));
    if (rule.kind === "hang") {
      await pause(hangMs);
      return send(reply, new OctoError("INTERNAL_SERVER_ERROR", "Injected timeout: nothing was done", 500));
    }
    request.hangAfter = true;
  });
  app.addHook("onSend", async (request, _reply, payload) => {
    if (request.hangAfter) await pause(hangMs);
    return payload;
  });
}

const context = (request: FastifyRequest) => request.octo!;
const validated = async <T>(schema: AnySchema, body: unknown): Promise<T> => (await schema.validate(body ?? {}, { strict: true, abortEarly: false })) as T;

function addTicketRoute({ app, state }: SupplierParts): void {
  app.get<{ Params: { file: string } }>("/tickets/:file", async (request, reply) => {
    const ticket = state.confirmedById(request.params.file.replace(/\.pdf$/, ""));
    if (!ticket || !request.params.file.endsWith(".pdf")) return reply.code(404).send({ error: "NOT_FOUND", errorMessage: "No such ticket" });
    reply.header("content-type", "application/pdf");
    // Loaded on the first ticket: the service starts this supplier for its demo, and pdf-lib was
    // 136 of the modules every start loaded.
    const { ticketPdf } = await import("./ticket-pdf.js");
    return Buffer.from(await ticketPdf(ticket, state));
  });
}

/** The supplier, its capabilities and its products. */
function addContentRoutes({ app, state, offered, endpoint }: SupplierParts): void {
  app.get("/supplier", async (request) => renderSupplier(context(request), endpoint()));
  app.get("/capabilities", async (): Promise<Capability[]> =>
    offered.map((id) => ({ id: id as Capability["id"], revision: 1, required: false, dependencies: [], docs: null })),
  );
  app.get("/products", async (request) => state.products.map((product) => renderProduct(product, context(request))));
  app.get<{ Params: { id: string } }>("/products/:id", async (request) => renderProduct(state.product(request.params.id), context(request)));
}

function addAvailabilityRoutes({ app, state }: SupplierParts): void {
  app.post("/availability/calendar", async (request) => {
    const body = await validated<{ productId: string; optionId: string; localDateStart: string; localDateEnd: string; units?: { id: string; quantity: number }[] }>(availabilityCalendarBodySchema, request.body);
    const product = state.product(body.productId);
    const option = state.option(product, body.optionId);
    checkRange(body.localDateStart, body.localDateEnd);
    body.units?.forEach((unit) => state.unit(option, unit.id));
    const departures = state.departures(product, option, body.localDateStart, body.localDateEnd);
    const days = [];
    for (let date = body.localDateStart; date <= body.localDateEnd; date = addDays(date, 1)) {
      days.push(renderCalendarDay(date, departures.filter((departure) => departure.date === date), option, context(request), body.units));
    }
    return days;
  });

  app.post("/availability", async (request) => {
    const body = await validated<{ productId: string; optionId: string; localDateStart?: string; localDateEnd?: string; availabilityIds?: string[]; units?: { id: string; quantity: number }[] }>(availabilityBodySchema, request.body);
    const product = state.product(body.productId);
    const option = state.option(product, body.optionId);
    body.units?.forEach((unit) => state.unit(option, unit.id));
    const departures = body.availabilityIds
      ? body.availabilityIds.map((id) => state.departure(product, option, id))
      : (checkRange(body.localDateStart!, body.localDateEnd!), state.departures(product, option, body.localDateStart!, body.localDateEnd!));
    return departures.map((departure) => renderAvailability(departure, context(request), body.units));
  });
}

/** Bookings reserved, found, read, updated, extended, confirmed and cancelled. */
function addBookingRoutes({ app, state }: SupplierParts): void {
  app.post("/bookings", async (request) => {
    const body = await validated<ReserveRequest>(createBookingBodySchema, request.body);
    return renderBooking(state.reserve({ ...body, ...(await answersIn(request.body)) }, context(request).questions), state, context(request));
  });
  app.get<{ Querystring: { resellerReference?: string; supplierReference?: string } }>("/bookings", async (request) => {
    const { resellerReference, supplierReference } = request.query;
    if (!resellerReference && !supplierReference) throw new OctoError("BAD_REQUEST", "Give resellerReference or supplierReference");
    return state.find({ resellerReference, supplierReference }).map((booking) => renderBooking(booking, state, context(request)));
  });
  app.get<{ Params: { uuid: string } }>("/bookings/:uuid", async (request) => renderBooking(state.get(request.params.uuid), state, context(request)));
  app.patch<{ Params: { uuid: string } }>("/bookings/:uuid", async (request) => {
    const body = await validated<UpdateRequest>(updateBookingBodySchema, request.body);
    return renderBooking(state.update(request.params.uuid, body), state, context(request));
  });
  app.post<{ Params: { uuid: string } }>("/bookings/:uuid/extend", async (request) => {
    const body = await validated<{ expirationMinutes?: number }>(extendBookingBodySchema, request.body);
    return renderBooking(state.extend(request.params.uuid, body.expirationMinutes), state, context(request));
  });
  app.post<{ Params: { uuid: string } }>("/bookings/:uuid/confirm", async (request) => {
    const body = await validated<ConfirmRequest>(confirmBookingBodySchema, request.body);
    return renderBooking(state.confirm(request.params.uuid, { ...body, ...(await answersIn(request.body)) }, context(request).questions), state, context(request));
  });
  app.post<{ Params: { uuid: string } }>("/bookings/:uuid/cancel", async (request) => {
    const body = await validated<{ reason?: string | null; force?: boolean }>(cancelBookingBodySchema, request.body);
    return renderBooking(state.cancel(request.params.uuid, body), state, context(request));
  });
}

const FAULTS_BODY = {
  type: "object",
  required: ["latencyMs", "rules"],
  additionalProperties: false,
  properties: {
    latencyMs: { type: "integer", minimum: 0, maximum: 120_000 },
    rules: {
      type: "array",
      maxItems: 50,
      items: { type: "object", required: ["kind", "times"], additionalProperties: false, properties: { route: { type: "string" }, kind: { enum: ["error", "hang", "hang-after", "forbidden"] }, times: { type: "integer", minimum: 1, maximum: 1000 } } },
    },
  },
};

/** The demo and tests move the clock and inject faults (same key as the API). */
function addControlRoutes({ app, clock, faults }: SupplierParts): void {
  app.post<{ Body: { minutes: number } }>("/_control/clock", { schema: { body: { type: "object", required: ["minutes"], properties: { minutes: { type: "number", minimum: 0, maximum: 525_600 } } } } }, async (request) => {
    clock.advance(request.body.minutes);
    return { now: clock.now().toISOString() };
  });
  app.put<{ Body: Faults }>("/_control/faults", { schema: { body: FAULTS_BODY } }, async (request) => {
    Object.assign(faults, request.body);
    return faults;
  });
}

const answerList = array(object({ questionId: string().strict().required(), value: string().strict().nullable().defined() }).noUnknown()).max(200);
/** octo/questions answers, which the package's request schemas of this version leave out: on the booking and on each unit item. */
const answersSchema = object({ questionAnswers: answerList.optional(), unitItems: array(object({ questionAnswers: answerList.optional() })).optional() });

/** The answers a reservation or confirmation carries, checked, kept in the order of its unit items. */
async function answersIn(body: unknown): Promise<Pick<ReserveRequest, "questionAnswers"> & { unitItems?: ReserveRequest["unitItems"] }> {
  const checked = (await answersSchema.validate(body ?? {}, { strict: true, abortEarly: false })) as { questionAnswers?: ReserveRequest["questionAnswers"]; unitItems?: { questionAnswers?: ReserveRequest["questionAnswers"] }[] };
  const given = body as { unitItems?: ReserveRequest["unitItems"] };
  return {
    ...(checked.questionAnswers ? { questionAnswers: checked.questionAnswers } : {}),
    ...(given.unitItems ? { unitItems: given.unitItems.map((item, index) => ({ ...item, questionAnswers: checked.unitItems?.[index]?.questionAnswers })) } : {}),
  };
}

function languageOf(header: string | string[] | undefined): SupplierLanguage {
  const ranked = String(header ?? "")
    .split(",")
    .map((part) => {
      const [tag, q] = part.trim().split(";q=");
      return { language: tag.slice(0, 2).toLowerCase(), weight: q === undefined ? 1 : Number(q) };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight);
  return (ranked.find((entry) => (SUPPLIER_LANGUAGES as readonly string[]).includes(entry.language))?.language as SupplierLanguage) ?? "en";
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkRange(start: string, end: string): void {
  if (!DATE.test(start) || !DATE.test(end)) throw new OctoError("BAD_REQUEST", "localDateStart and localDateEnd are dates, YYYY-MM-DD");
  if (start > end) throw new OctoError("BAD_REQUEST", "localDateStart is after localDateEnd");
  if (addDays(start, 366) <= end) throw new OctoError("BAD_REQUEST", "cannot request more than 1 year of availability");
}
