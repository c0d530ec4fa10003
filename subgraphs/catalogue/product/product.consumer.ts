import { isoDurationMs } from "../../../core/iso-duration.js";
import type { LanguageText } from "../../../drizzle/schema.js";

/** Hours of an ISO 8601 duration; null for years or months (their length varies) or for no duration. */
export function durationInHours(duration: string | null): number | null {
  const ms = isoDurationMs(duration);
  return ms === null ? null : Math.round((ms / 3_600_000) * 100) / 100;
}

/**
 * The booking URL in the caller's language (then English, then any), with the consumer's
 * externalClientId appended as a query parameter so that the supplier can attribute the sale.
 */
export function bookingLink(urls: LanguageText | null, languages: readonly string[], externalClientId: string | null): string | null {
  if (!urls) return null;
  const language = languages.find((l) => urls[l]) ?? Object.keys(urls)[0];
  const url = language ? urls[language] : undefined;
  if (!url) return null;
  if (!externalClientId) return url;
  try {
    const parsed = new URL(url);
    parsed.searchParams.set("externalClientId", externalClientId);
    return parsed.toString();
  } catch {
    return `${url}${url.includes("?") ? "&" : "?"}externalClientId=${encodeURIComponent(externalClientId)}`;
  }
}

/** Why a product is flagged: a deprecated one is EXCLUDED. */
export const productDescriptors = (product: { deprecated: boolean }) => (product.deprecated ? [{ type: "EXCLUDED", reason: "DEPRECATED" }] : []);

/** Drops null and undefined members: the contract's records leave unknown fields out. */
export function present<T extends Record<string, unknown>>(value: T): Partial<T> {
  const kept: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== null && value[key] !== undefined) kept[key] = value[key];
  return kept as Partial<T>;
}
