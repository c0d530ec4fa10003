import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Executor } from "../../../drizzle/database.js";
import { serviceSecret } from "../../../drizzle/service-secret.js";

/**
 * Import cursors are opaque and tamper-evident: the position (last id), the time the run began
 * (`asOf`) and a digest of the filters, signed with HMAC-SHA256 under a service secret.
 */
export interface CursorState {
  kind: "active" | "inactive";
  lastId: number;
  /** When the first page of this run was served: the modifiedSince to start the next run from. */
  asOf: string;
  filters: string;
  /**
   * The run's estimatedCount and the modifiedSince it was counted for: later pages with the same
   * modifiedSince answer it again instead of counting the matches once a page.
   */
  count?: { value: number; modifiedSince: string | null };
}

export class CursorError extends Error {}

const SECRET_NAME = "import-cursor";
/** A run must finish within a day; an older cursor is refused (CURSOR_EXPIRED). */
export const CURSOR_LIFETIME_MS = 24 * 3600 * 1000;

const secret = (db: Executor) => serviceSecret(db, SECRET_NAME);

export const filtersDigest = (filters: unknown): string => createHash("sha256").update(JSON.stringify(filters)).digest("base64url").slice(0, 16);

export async function encodeCursor(db: Executor, state: CursorState): Promise<string> {
  const count = state.count ? { c: state.count.value, m: state.count.modifiedSince } : {};
  const body = Buffer.from(JSON.stringify({ v: 1, k: state.kind, i: state.lastId, a: state.asOf, f: state.filters, ...count })).toString("base64url");
  const mac = createHmac("sha256", await secret(db)).update(body).digest("base64url").slice(0, 22);
  return `${body}.${mac}`;
}

/** Throws CursorError with the reason when the cursor was altered, is for other filters or is too old. */
export async function decodeCursor(db: Executor, cursor: string, expected: { kind: CursorState["kind"]; filters: string; now: Date }): Promise<CursorState> {
  const [body, mac] = cursor.split(".");
  if (!body || !mac) throw new CursorError("cursor is malformed");
  const wanted = createHmac("sha256", await secret(db)).update(body).digest("base64url").slice(0, 22);
  if (mac.length !== wanted.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(wanted))) throw new CursorError("cursor has been altered or was not issued by this service");
  let parsed: { v: number; k: string; i: number; a: string; f: string; c?: number; m?: string | null };
  try {
    parsed = JSON.parse(Buffer.from(body, "base64url").toString());
  } catch {
    throw new CursorError("cursor is malformed");
  }
  if (parsed.k !== expected.kind) throw new CursorError(`cursor belongs to the ${parsed.k} import`);
  if (parsed.f !== expected.filters) throw new CursorError("cursor belongs to other filters; send the same filters as on the first page");
  if (expected.now.getTime() - Date.parse(parsed.a) > CURSOR_LIFETIME_MS) throw new CursorError("cursor has expired; start again with modifiedSince");
  // A cursor signed before counts were carried has none: its next page counts again.
  const count = typeof parsed.c === "number" ? { value: parsed.c, modifiedSince: parsed.m ?? null } : undefined;
  return { kind: parsed.k as CursorState["kind"], lastId: parsed.i, asOf: parsed.a, filters: parsed.f, count };
}
