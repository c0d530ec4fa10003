import { setTimeout as sleep } from "node:timers/promises";
import {
  zAvailability,
  zAvailabilityCalendar,
  zBaseError,
  zBooking,
  zCapability,
  zProduct,
  zSupplier,
  type Availability,
  type AvailabilityCalendar,
  type AvailabilityCalendarBody,
  type AvailabilityCheckBody,
  type Booking,
  type BookingCancellationBody,
  type BookingConfirmationBody,
  type BookingReservationBody,
  type Capability,
  type Supplier,
} from "@octocloud/types";
import type { Clock } from "../../../core/clock.js";
import type { Logger } from "../../../core/logger.js";
import type { ServiceMetrics } from "../../../core/metrics.js";
import { SpanKind, SpanStatusCode, type Span } from "@opentelemetry/api";
import { ATTR_HTTP_RESPONSE_STATUS_CODE } from "@opentelemetry/semantic-conventions";
import { httpClientAttributes } from "../../../core/http-span-attributes.js";
import type { Dispatcher } from "undici";
import { OutboundAddressRefused } from "../../../core/outbound-address.js";
import { activeTracer } from "../../../core/tracing.js";
import { CircuitBreaker, type CircuitBreakerOptions } from "./octo.circuit-breaker.js";
import { zProductQuestions, type OctoQuestionAnswer, type ProductWithQuestions } from "../../../core/octo-questions.js";

/** Where an OCTO supplier system is and how we speak to it. The key never leaves this object but in the Authorization header. */
export interface OctoConnection {
  /** Our booking engine's name: the circuit breaker and the logs are per engine. */
  engineName: string;
  baseUrl: string;
  apiKey: string;
  /** Sent as Octo-Capabilities, e.g. ["octo/content", "octo/pricing"]. */
  capabilities: string[];
}

export interface OctoClientOptions {
  logger: Logger;
  clock?: Clock;
  /** Per attempt. */
  timeoutMs?: number;
  /** Further attempts after the first, for failures that may pass (network, 5xx, timeouts). */
  retries?: number;
  /** Backoff before retry n is a random time up to backoffMs · 2^n ("full jitter"), at most maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  breaker?: CircuitBreakerOptions;
  random?: () => number;
  /** Each attempt's duration and outcome, as activities_engine_call_duration_seconds. */
  metrics?: ServiceMetrics;
  /** Connects under the outbound address policy (production); unset: the process's own fetch dispatcher. */
  dispatcher?: Dispatcher;
}

/** The supplier answered with an OCTO error (INVALID_*, BAD_REQUEST, UNPROCESSABLE_ENTITY, …): retrying will not change it. */
export class OctoRejected extends Error {
  override name = "OctoRejected";
  constructor(
    readonly error: string,
    readonly errorMessage: string,
    readonly status: number,
    /** The id the error names: productId, optionId, unitId, availabilityId or uuid. */
    readonly detail: Record<string, unknown>,
  ) {
    super(`${error}: ${errorMessage}`);
  }

  /** The supplier refused our credentials (OCTO's UNAUTHORIZED or FORBIDDEN): nothing else it says can be acted on until the engine's key is fixed. */
  get refusesCredentials(): boolean {
    return isCredentialRefusal(this.error, this.status);
  }
}

/** OCTO answers a missing key UNAUTHORIZED (401) and a wrong, revoked or unpermitted one FORBIDDEN (403). */
export const isCredentialRefusal = (error: string, status: number): boolean => error === "UNAUTHORIZED" || error === "FORBIDDEN" || status === 401 || status === 403;

/** The supplier could not be reached or failed (5xx, network, timeout before any effect, open circuit): try again later. */
export class OctoUnavailable extends Error {
  override name = "OctoUnavailable";
}

/** The outbound address policy refused the supplier's address (a name resolving to a private one): nothing was sent, and trying again changes nothing. */
export class OctoAddressRefused extends OctoUnavailable {
  override name = "OctoAddressRefused";
}

/** A change was sent and no answer came: it may or may not have happened. Read the booking before doing anything else. */
export class OctoOutcomeUnknown extends Error {
  override name = "OctoOutcomeUnknown";
}

/** The supplier answered something that is not OCTO: a clear engine error rather than a crash later on. */
export class OctoNonConforming extends Error {
  override name = "OctoNonConforming";
}

type AnswerSchema = { safeParse(value: unknown): { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } } };

interface CallSpec {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  /** Changes state upstream: a timeout leaves its outcome unknown. */
  changes: boolean;
  language?: string;
  schema: AnswerSchema;
  list?: boolean;
}

/** The package's schema, then one of ours for the fields its version leaves out (octo/questions). */
const both = (first: AnswerSchema, second: AnswerSchema): AnswerSchema => ({
  safeParse: (value) => {
    const checked = first.safeParse(value);
    return checked.success ? second.safeParse(value) : checked;
  },
});
const zProductAsked = both(zProduct, zProductQuestions);

/** A confirmation with the answers `octo/questions` asks for, on the booking and on each unit item. */
export type ConfirmationWithAnswers = BookingConfirmationBody & {
  questionAnswers?: OctoQuestionAnswer[];
  unitItems?: (NonNullable<BookingConfirmationBody["unitItems"]>[number] & { questionAnswers?: OctoQuestionAnswer[] })[];
};

export interface OctoAnswer<T> {
  body: T;
  contentLanguage: string | null;
  availableLanguages: string[];
}

const breakers = new Map<string, CircuitBreaker>();

/** Records one attempt's outcome, with what else is known of it (status, cause, problems). */
type CallLog = (outcome: string, extra?: Record<string, unknown>) => void;

/**
 * Calls one OCTO supplier system: every call has a timeout, failures that may pass are retried
 * with jittered backoff, a circuit breaker per engine stops calls to a supplier that keeps failing,
 * every answer is checked against the schemas of `@octocloud/types`, and every call is logged with
 * its duration and outcome (never the key). A booking change that timed out after it was sent is
 * settled by reading the booking (`GET /bookings/{uuid}`) before anything is retried.
 */
export class OctoClient {
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly random: () => number;
  private readonly breaker: CircuitBreaker;
  private readonly logger: Logger;
  private readonly metrics: ServiceMetrics | undefined;
  private readonly dispatcher: Dispatcher | undefined;

  constructor(
    private readonly connection: OctoConnection,
    options: OctoClientOptions,
  ) {
    this.clock = options.clock ?? { now: () => new Date() };
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retries = options.retries ?? 2;
    this.backoffMs = options.backoffMs ?? 200;
    this.maxBackoffMs = options.maxBackoffMs ?? 5_000;
    this.random = options.random ?? Math.random;
    this.logger = options.logger.child({ component: "octo", engine: connection.engineName });
    this.metrics = options.metrics;
    this.dispatcher = options.dispatcher;
    const key = `${connection.engineName} ${connection.baseUrl}`;
    let breaker = breakers.get(key);
    if (!breaker) {
      breaker = new CircuitBreaker(options.breaker ?? { failureThreshold: 5, coolDownMs: 30_000 }, this.clock);
      breakers.set(key, breaker);
    }
    this.breaker = breaker;
  }

  get circuit() {
    return this.breaker.state;
  }

  supplier(): Promise<OctoAnswer<Supplier>> {
    return this.call({ method: "GET", path: "/supplier", changes: false, schema: zSupplier });
  }

  /** What the supplier offers (GET /capabilities), whatever we asked for. */
  capabilities(): Promise<OctoAnswer<Capability[]>> {
    return this.call({ method: "GET", path: "/capabilities", changes: false, schema: zCapability, list: true });
  }

  products(language?: string): Promise<OctoAnswer<ProductWithQuestions[]>> {
    return this.call({ method: "GET", path: "/products", changes: false, schema: zProductAsked, list: true, language });
  }

  product(id: string, language?: string): Promise<OctoAnswer<ProductWithQuestions>> {
    return this.call({ method: "GET", path: `/products/${encodeURIComponent(id)}`, changes: false, schema: zProductAsked, language });
  }

  calendar(body: AvailabilityCalendarBody): Promise<OctoAnswer<AvailabilityCalendar[]>> {
    return this.call({ method: "POST", path: "/availability/calendar", body, changes: false, schema: zAvailabilityCalendar, list: true });
  }

  availability(body: AvailabilityCheckBody): Promise<OctoAnswer<Availability[]>> {
    return this.call({ method: "POST", path: "/availability", body, changes: false, schema: zAvailability, list: true });
  }

  booking(uuid: string): Promise<OctoAnswer<Booking>> {
    return this.call({ method: "GET", path: `/bookings/${encodeURIComponent(uuid)}`, changes: false, schema: zBooking });
  }

  /** Holds places; `uuid` is ours, so a retry of the same reservation answers the same booking. */
  reserve(body: BookingReservationBody & { uuid: string }): Promise<OctoAnswer<Booking>> {
    return this.change(body.uuid, { method: "POST", path: "/bookings", body, changes: true, schema: zBooking }, () => true);
  }

  extend(uuid: string, expirationMinutes: number): Promise<OctoAnswer<Booking>> {
    return this.change(uuid, { method: "POST", path: `/bookings/${encodeURIComponent(uuid)}/extend`, body: { expirationMinutes }, changes: true, schema: zBooking }, (booking) => booking.status === "ON_HOLD");
  }

  confirm(uuid: string, body: ConfirmationWithAnswers): Promise<OctoAnswer<Booking>> {
    return this.change(uuid, { method: "POST", path: `/bookings/${encodeURIComponent(uuid)}/confirm`, body, changes: true, schema: zBooking }, (booking) => booking.status === "CONFIRMED");
  }

  cancel(uuid: string, body: BookingCancellationBody = {}): Promise<OctoAnswer<Booking>> {
    return this.change(uuid, { method: "POST", path: `/bookings/${encodeURIComponent(uuid)}/cancel`, body, changes: true, schema: zBooking }, (booking) => booking.status === "CANCELLED");
  }

  /**
   * A booking change, retried only once its outcome is known: after a timeout the booking is read,
   * and if it already shows the change (`done`) that answer is returned instead of sending again.
   */
  private async change(uuid: string, spec: CallSpec, done: (booking: Booking) => boolean): Promise<OctoAnswer<Booking>> {
    for (let attempt = 0; ; attempt++) {
      try {
        // 5xx and unreachable are retried inside call(): the uuid makes resending the same change safe.
        return await this.call<Booking>(spec);
      } catch (error) {
        if (!(error instanceof OctoOutcomeUnknown) || attempt >= this.retries) throw error;
        let current: OctoAnswer<Booking> | undefined;
        try {
          current = await this.booking(uuid);
        } catch (readError) {
          // No booking under our uuid: the reservation never arrived, so sending it again is safe.
          if (!(readError instanceof OctoRejected && readError.error === "INVALID_BOOKING_UUID" && spec.path === "/bookings")) throw error;
        }
        if (current && done(current.body)) {
          this.logger.info({ uuid, path: spec.path, status: current.body.status }, "octo change settled by reading the booking after a timeout");
          return current;
        }
      }
    }
  }

  private async call<T>(spec: CallSpec, retries = this.retries): Promise<OctoAnswer<T>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt<T>(spec, attempt);
      } catch (error) {
        const retriable = (error instanceof OctoUnavailable && !(error instanceof OctoAddressRefused)) || (error instanceof OctoOutcomeUnknown && !spec.changes);
        if (!retriable || attempt >= retries || this.breaker.state === "open") {
          throw error instanceof OctoOutcomeUnknown && !spec.changes ? new OctoUnavailable(error.message) : error;
        }
        const ceiling = Math.min(this.maxBackoffMs, this.backoffMs * 2 ** attempt);
        await sleep(Math.round(this.random() * ceiling));
      }
    }
  }

  /**
   * With tracing on, each attempt is a span: method, path template, attempt and outcome, never the
   * key or any header. No traceparent goes to the supplier: it is outside the service, and our
   * trace ids are not its business.
   */
  private async attempt<T>(spec: CallSpec, attempt: number): Promise<OctoAnswer<T>> {
    const tracer = activeTracer();
    if (!tracer) return this.attemptOnce<T>(spec, attempt, undefined);
    const path = pathTemplate(spec.path);
    return tracer.startActiveSpan(
      `octo ${spec.method} ${path}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          ...httpClientAttributes(spec.method, this.urlOf(spec)),
          "url.template": path,
          "activities.engine": this.connection.engineName,
          "activities.octo.attempt": attempt + 1,
        },
      },
      async (span) => {
        try {
          return await this.attemptOnce<T>(spec, attempt, span);
        } finally {
          span.end();
        }
      },
    );
  }

  private urlOf(spec: CallSpec): URL {
    return new URL(spec.path.replace(/^\//, ""), this.connection.baseUrl.replace(/\/?$/, "/"));
  }

  private async attemptOnce<T>(spec: CallSpec, attempt: number, span: Span | undefined): Promise<OctoAnswer<T>> {
    const log = this.callLog(spec, attempt, span);
    if (!this.breaker.admit()) {
      log("circuit-open");
      throw new OctoUnavailable(`${this.connection.engineName}: the circuit is open after repeated failures; next try in ${Math.ceil(this.breaker.retryAfterMs() / 1000)} s`);
    }
    const response = await this.send(spec, log);
    const parsed = await this.readAnswer(spec, response, log);
    return this.judgeAnswer<T>(spec, response, parsed, log);
  }

  /** Records an attempt's outcome, from now on: on its span, in the metrics and in the log. */
  private callLog(spec: CallSpec, attempt: number, span: Span | undefined): CallLog {
    const started = performance.now();
    return (outcome, extra = {}) => {
      const seconds = (performance.now() - started) / 1000;
      if (span) {
        span.setAttribute("activities.octo.outcome", outcome);
        if (typeof extra.status === "number") span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, extra.status);
        // A rejection is the supplier's sound answer; anything else but ok is a failed call.
        if (outcome !== "ok" && outcome !== "rejected") span.setStatus({ code: SpanStatusCode.ERROR });
        if (outcome !== "ok") span.setAttribute("error.type", outcome);
      }
      this.metrics?.engineCalls.observe({ engine: this.connection.engineName, path: `${spec.method} ${pathTemplate(spec.path)}`, outcome }, seconds);
      this.logger[outcome === "ok" ? "info" : "warn"]({ method: spec.method, path: spec.path, attempt: attempt + 1, outcome, durationMs: Math.round(seconds * 10_000) / 10, ...extra }, "octo call");
    };
  }

  /** Sends the request; a failure before any answer says whether the request may have arrived. */
  private async send(spec: CallSpec, log: CallLog): Promise<Response> {
    try {
      return await fetch(this.urlOf(spec), {
        method: spec.method,
        headers: {
          authorization: `Bearer ${this.connection.apiKey}`,
          "octo-capabilities": this.connection.capabilities.join(", "),
          accept: "application/json",
          ...(spec.language ? { "accept-language": spec.language } : {}),
          ...(spec.body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        signal: AbortSignal.timeout(this.timeoutMs),
        // Node's fetch takes an undici dispatcher; the DOM's RequestInit does not know the field.
        ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
      } as RequestInit);
    } catch (error) {
      this.breaker.failed();
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      if ((error as { cause?: unknown }).cause instanceof OutboundAddressRefused) {
        log("address-refused");
        throw new OctoAddressRefused(`${this.connection.engineName}: ${((error as { cause: Error }).cause).message}`);
      }
      // Refused or unresolvable: the request never left, whatever it was.
      if (cause === "ECONNREFUSED" || cause === "ENOTFOUND" || cause === "EAI_AGAIN") {
        log("unreachable", { cause });
        throw new OctoUnavailable(`${this.connection.engineName}: unreachable (${cause})`);
      }
      const timedOut = (error as Error).name === "TimeoutError";
      log(timedOut ? "timeout" : "network-error", { cause: cause ?? (error as Error).name });
      throw new OctoOutcomeUnknown(`${this.connection.engineName}: ${timedOut ? `no answer within ${this.timeoutMs} ms` : `connection lost (${cause ?? (error as Error).message})`}`);
    }
  }

  /** The answer's body read whole (and bounded) and parsed as JSON; undefined when it is not JSON. */
  private async readAnswer(spec: CallSpec, response: Response, log: CallLog): Promise<unknown> {
    let text: string;
    try {
      text = await boundedText(response, MAX_ANSWER_BYTES);
    } catch (error) {
      this.breaker.failed();
      if (error instanceof OctoNonConforming) {
        log("non-conforming", { status: response.status, problems: error.message });
        throw new OctoNonConforming(`${this.connection.engineName}: ${spec.method} ${spec.path} ${error.message}`);
      }
      // The headers came but the body stopped (timeout or lost connection): as unknown as no answer.
      const timedOut = (error as Error).name === "TimeoutError";
      log(timedOut ? "timeout" : "network-error", { status: response.status });
      throw new OctoOutcomeUnknown(`${this.connection.engineName}: ${timedOut ? `the answer did not finish within ${this.timeoutMs} ms` : "the connection was lost during the answer"}`);
    }
    try {
      return text ? JSON.parse(text) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The answer when it is a conforming success; otherwise the failure, the OCTO error or the non-conformance it is. */
  private judgeAnswer<T>(spec: CallSpec, response: Response, parsed: unknown, log: CallLog): OctoAnswer<T> {
    if (response.status >= 500) {
      this.breaker.failed();
      log("server-error", { status: response.status, error: (parsed as { error?: string } | undefined)?.error });
      throw new OctoUnavailable(`${this.connection.engineName}: answered ${response.status}`);
    }
    if (!response.ok) {
      // An OCTO error is a sound answer from a working supplier: it does not open the circuit.
      const error = zBaseError.safeParse(parsed);
      if (!error.success) {
        this.breaker.failed();
        log("non-conforming", { status: response.status });
        throw new OctoNonConforming(`${this.connection.engineName}: answered ${response.status} without an OCTO error body`);
      }
      this.breaker.succeeded();
      const { error: code, errorMessage, ...detail } = parsed as { error: string; errorMessage: string };
      // A refused key is told apart from the supplier's refusals of a request: it is the engine's to fix.
      log(isCredentialRefusal(code, response.status) ? "refused" : "rejected", { status: response.status, error: code });
      throw new OctoRejected(code, errorMessage, response.status, detail);
    }
    const problems = this.conformance(spec, parsed);
    if (problems) {
      this.breaker.failed();
      log("non-conforming", { status: response.status, problems });
      throw new OctoNonConforming(`${this.connection.engineName}: ${spec.method} ${spec.path} answered outside the OCTO schema: ${problems}`);
    }
    this.breaker.succeeded();
    log("ok", { status: response.status });
    return {
      body: parsed as T,
      contentLanguage: response.headers.get("content-language"),
      availableLanguages: (response.headers.get("available-languages") ?? "").split(",").map((language) => language.trim()).filter(Boolean),
    };
  }

  /** The first few schema violations, "path: message", or null when the answer conforms. */
  private conformance(spec: CallSpec, value: unknown): string | null {
    const items = spec.list ? (Array.isArray(value) ? value : null) : [value];
    if (!items) return "expected a list";
    for (const [index, item] of items.entries()) {
      const result = spec.schema.safeParse(item);
      if (!result.success) {
        const where = spec.list ? `[${index}].` : "";
        return result.error!.issues.slice(0, 3).map((issue) => `${where}${issue.path.join(".") || "(body)"}: ${issue.message}`).join("; ");
      }
    }
    return null;
  }
}

/** The path without ids, so the metrics keep one series per call kind: /bookings/{uuid}/confirm. */
const pathTemplate = (path: string): string => path.replace(/^\/bookings\/[^/]+/, "/bookings/{uuid}").replace(/^\/products\/[^/]+/, "/products/{id}");

/** No OCTO answer we use comes near this (a full product list of a large supplier is a few MB). */
export const MAX_ANSWER_BYTES = 20 * 1024 * 1024;

/** The body as text, refusing one larger than `limit` as it arrives, so a supplier cannot fill our memory. */
async function boundedText(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new OctoNonConforming(`answered ${declared} bytes; at most ${limit} are read`);
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new OctoNonConforming(`answered more than ${limit} bytes; at most ${limit} are read`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Tests start each case with closed circuits. */
export function resetCircuitBreakers(): void {
  breakers.clear();
}
