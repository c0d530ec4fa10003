import { context, propagation, SpanStatusCode, trace, type Span, type SpanOptions, type Tracer } from "@opentelemetry/api";

/**
 * The service's seams ask this module whether tracing is on. Off (no OTEL_* variables), nothing
 * here makes a span or touches the API's context: every helper returns at its first line. On,
 * core/tracing-sdk.ts sets the tracer for as long as it runs.
 */
let tracer: Tracer | undefined;

export const TRACER_NAME = "activities";

/** The tracer while tracing runs; undefined when it is off. */
export function activeTracer(): Tracer | undefined {
  return tracer;
}

/** Called by the SDK's start and stop only. */
export function useTracer(value: Tracer | undefined): void {
  tracer = value;
}

/** The trace id of the span this code runs in, when tracing is on and one is running. */
export function activeTraceId(): string | undefined {
  if (!tracer) return undefined;
  const span = trace.getSpan(context.active());
  if (!span) return undefined;
  const { traceId } = span.spanContext();
  return trace.isSpanContextValid(span.spanContext()) ? traceId : undefined;
}

/** What traceFields gives for a line written outside any span: one object, so that no line allocates one. Never to be written to. */
export const NO_TRACE_FIELDS: Readonly<Record<string, string>> = Object.freeze({});

/** Log fields that tie a line to its trace (the names OpenTelemetry's pino integration uses), for pino's mixin. */
export function traceFields(): Record<string, string> {
  if (!tracer) return NO_TRACE_FIELDS;
  const span = trace.getSpan(context.active());
  if (!span) return NO_TRACE_FIELDS;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** The W3C traceparent of the running span, for a call to another of our processes; empty when tracing is off. */
export function traceHeaders(): Record<string, string> {
  if (!tracer) return NO_TRACE_FIELDS;
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  return headers;
}

/**
 * Runs `work` in a span of its own (the parent is the running span), ended when the work ends.
 * With tracing off it only runs the work.
 */
export async function inSpan<T>(name: string, options: SpanOptions, work: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!tracer) return work(undefined);
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * A failed span says what kind of failure it was (an SQLSTATE, an error's class), never its
 * message: messages carry values (a constraint names the key it refused), which stay in the logs,
 * found by the same trace id.
 */
export function markFailed(span: Span | undefined, error: unknown): void {
  if (!span) return;
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute("error.type", errorType(error));
}

function errorType(error: unknown): string {
  if (typeof error === "string") return error;
  if (error && typeof error === "object") {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z0-9_]{1,40}$/.test(code)) return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === "string") return name;
  }
  return "Error";
}
