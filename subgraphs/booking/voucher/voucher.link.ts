import { createHmac, timingSafeEqual } from "node:crypto";

export type VoucherLinkCheck = "valid" | "expired" | "invalid";

/** The path part of a voucher link, before the query. */
export const voucherPath = (bookingId: string): string => `/booking-flow/v1/vouchers/${bookingId}.pdf`;

// expires is all digits and comes last, so the final ':' always separates it from a booking id that itself contains ':'.
const payload = (bookingId: string, expires: string): string => `voucher:${bookingId}:${expires}`;

const sign = (secret: Uint8Array, bookingId: string, expires: string): string => {
  // An empty key would make every link forgeable; fail loudly on that misconfiguration rather than sign with it.
  if (secret.byteLength === 0) throw new Error("Voucher link secret must not be empty");
  return createHmac("sha256", secret).update(payload(bookingId, expires)).digest("base64url");
};

/** A signed, expiring link: `${publicUrl}${voucherPath(id)}?expires=<unix seconds>&signature=<base64url HMAC-SHA256 over "voucher:<bookingId>:<expires>">`. */
export function signVoucherLink(secret: Uint8Array, publicUrl: string, bookingId: string, expiresAt: Date): string {
  const ms = expiresAt.getTime();
  if (!Number.isFinite(ms)) throw new RangeError("Voucher link expiry is not a valid date");
  // Rounding down means a link never outlives the expiry the caller asked for.
  const expires = String(Math.floor(ms / 1000));
  const base = publicUrl.replace(/\/+$/, "");
  const query = new URLSearchParams({ expires, signature: sign(secret, bookingId, expires) });
  return `${base}${voucherPath(bookingId)}?${query.toString()}`;
}

/**
 * Checks a presented link; constant-time signature comparison; "expired" only when the signature is valid but the time
 * has passed; "invalid" for a bad/missing signature, a non-numeric expires, or a signature of another booking.
 * A link is valid strictly before its expiry second.
 */
export function verifyVoucherLink(
  secret: Uint8Array,
  bookingId: string,
  expires: string | undefined,
  signature: string | undefined,
  now: Date,
): VoucherLinkCheck {
  if (expires === undefined || signature === undefined) return "invalid";
  // Only the exact digits that were signed: "+5", " 5" or "5e3" would parse as numbers but were never issued.
  if (!/^\d{1,15}$/.test(expires)) return "invalid";
  // Comparing the canonical text rather than decoded bytes also rejects alternative base64 spellings of the same MAC.
  const expected = Buffer.from(sign(secret, bookingId, expires), "utf8");
  const presented = Buffer.from(signature, "utf8");
  // timingSafeEqual throws on unequal lengths; the length of a SHA-256 MAC is no secret.
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return "invalid";
  return now.getTime() >= Number(expires) * 1000 ? "expired" : "valid";
}
