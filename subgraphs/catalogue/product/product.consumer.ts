import type { LanguageText } from "../../../drizzle/schema.js";

const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Hours of an ISO 8601 duration; null for years or months (their length varies) or for no duration. */
export function durationInHours(duration: string | null): number | null {
  const match = duration?.match(DURATION);
  if (!match || duration === "P") return null;
  const [, weeks, days, hours, minutes, seconds] = match.map((part) => Number(part ?? 0));
  const total = weeks * 168 + days * 24 + hours + minutes / 60 + seconds / 3600;
  return Math.round(total * 100) / 100;
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

/** The commission as a ratio of the retail price: estCommFrpricePerc, else estCommNet over minPrice. */
export function commissionRate(product: { estCommFrpricePerc: number | null; estCommNet: number | null; minPrice: number | null }): number | null {
  if (product.estCommFrpricePerc !== null) return product.estCommFrpricePerc;
  if (product.estCommNet !== null && product.minPrice) return Math.round((product.estCommNet / product.minPrice) * 10_000) / 10_000;
  return null;
}
