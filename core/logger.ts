import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import pino, { type Logger } from "pino";
import { errorForLog, withoutStatements } from "./error-log.js";
import { activeTraceId, activeTracer, NO_TRACE_FIELDS, traceFields } from "./tracing.js";

export type { Logger };

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      // pid tells apart the processes of one service (WEB_CONCURRENCY, roles) in a merged log.
      base: { service: "activities", pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // With tracing on, every line written inside a span names it (trace_id, span_id).
      mixin: traceFields,
      // pino writes a line's own fields into the mixin's object; the shared empty one is left alone.
      mixinMergeStrategy: (fields, mixed) => (mixed === NO_TRACE_FIELDS ? fields : Object.assign(mixed, fields)),
      redact: { paths: ["req.headers.authorization", "password", "*.password", "apiKey", "*.apiKey"], censor: "[redacted]" },
      // A failed statement's SQL and values stay out of every line (core/error-log.ts): errors are
      // written without them, and a message quoting drizzle's "Failed query: …" gets its summary.
      hooks: {
        logMethod(args, method) {
          const cleaned = args.map((arg: unknown) => (typeof arg === "string" && arg.includes("Failed query: ") ? withoutStatements(arg) : arg));
          return method.apply(this, cleaned as Parameters<typeof method>);
        },
      },
      serializers: {
        err: errorForLog,
        req: (req: { method?: string; url?: string; headers?: Record<string, unknown>; socket?: { remoteAddress?: string } }) => ({
          method: req.method,
          url: redactUrl(req.url ?? ""),
          remoteAddress: req.socket?.remoteAddress,
          userAgent: req.headers?.["user-agent"],
          // With tracing on the request id is the trace id: the caller's own id stays findable here.
          ...(activeTracer() && sane(req.headers?.["x-request-id"]) ? { callerRequestId: req.headers!["x-request-id"] } : {}),
        }),
      },
    },
    destination,
  );
}

/** Secrets that travel in query strings (password-setup links) never reach the logs. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:token|refresh_token|password)=)[^&]*/gi, "$1[redacted]");
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const sane = (value: unknown): value is string => typeof value === "string" && REQUEST_ID.test(value);

/**
 * With tracing on, the request's trace id, so that the id a caller is answered with finds its
 * trace and every log line of it. Otherwise the caller's X-Request-Id when it is sane, so one id
 * follows a request across services, or a fresh one.
 */
export function requestIdFor(req: IncomingMessage): string {
  const traceId = activeTraceId();
  if (traceId) return traceId;
  const given = req.headers["x-request-id"];
  return sane(given) ? given : randomUUID();
}
