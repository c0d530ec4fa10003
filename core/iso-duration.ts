const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * Milliseconds of an ISO 8601 duration of weeks, days, hours, minutes and seconds; null for
 * years or months (their length varies), for "P" alone and for anything else.
 */
export function isoDurationMs(duration: string | null | undefined): number | null {
  const match = duration?.match(DURATION);
  if (!match || duration === "P" || duration?.endsWith("T")) return null;
  const [, weeks, days, hours, minutes, seconds] = match.map((part) => Number(part ?? 0));
  return Math.round((((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60_000 + seconds * 1000);
}
