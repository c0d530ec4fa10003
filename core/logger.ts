import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import pino, { type Logger } from "pino";

export type { Logger };

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      // pid tells apart the processes of one service (WEB_CONCURRENCY, roles) in a merged log.
      base: { service: "activities", pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ["req.headers.authorization", "password", "*.password", "apiKey", "*.apiKey"], censor: "[redacted]" },
      serializers: {
        req: (req: { method?: string; url?: string; headers?: Record<string, unknown>; socket?: { remoteAddress?: string } }) => ({
          method: req.method,
          url: redactUrl(req.url ?? ""),
          remoteAddress: req.socket?.remoteAddress,
          userAgent: req.headers?.["user-agent"],
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

/** Keeps the caller's X-Request-Id when it is sane, so one id follows a request across services. */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
}
