import { isoDurationMs } from "./iso-duration.js";
/**
 * Local dates and times of a time zone, with no date library: Intl knows every IANA zone and
 * its offsets, which is all a slot needs (its instant and its "2026-12-01T09:00:00+01:00[Europe/Paris]").
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/**
 * Offsets already worked out, by zone and then instant. The same few slot instants are converted
 * on every request that lists, prices or books them, and Intl takes about 4 µs an instant. Keyed
 * by the exact instant, so a transition at any second is never smoothed over; cleared when full.
 */
const knownOffsets = new Map<string, Map<number, number>>();
let knownOffsetCount = 0;
const MAX_KNOWN_OFFSETS = 100_000;

/** Milliseconds the zone is ahead of UTC at an instant. */
export function offsetAt(instant: Date, zone: string): number {
  const at = instant.getTime();
  let offsets = knownOffsets.get(zone);
  const known = offsets?.get(at);
  if (known !== undefined) return known;
  const parts = Object.fromEntries(partsFormatter(zone).formatToParts(instant).map((p) => [p.type, p.value]));
  const offset = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second) - Math.floor(at / 1000) * 1000;
  if (knownOffsetCount >= MAX_KNOWN_OFFSETS) {
    knownOffsets.clear();
    knownOffsetCount = 0;
    offsets = undefined;
  }
  if (!offsets) knownOffsets.set(zone, (offsets = new Map()));
  offsets.set(at, offset);
  knownOffsetCount++;
  return offset;
}

/** The instant of a local wall time; in a spring-forward gap the later offset applies. */
export function instantOf(date: string, time: string, zone: string): Date {
  const [y, m, d] = date.split("-").map(Number);
  const [hh, mm, ss = 0] = time.split(":").map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm, ss);
  let instant = wall - offsetAt(new Date(wall), zone);
  instant = wall - offsetAt(new Date(instant), zone);
  return new Date(instant);
}

/** ISO 8601 local date-time with offset and zone id: "2026-12-01T09:00:00+01:00[Europe/Paris]". */
export function zonedText(instant: Date, zone: string): string {
  const offset = offsetAt(instant, zone);
  const local = new Date(instant.getTime() + offset).toISOString().slice(0, 19);
  const minutes = Math.round(Math.abs(offset) / 60000);
  const sign = offset < 0 ? "-" : "+";
  const hh = String(Math.floor(minutes / 60)).padStart(2, "0");
  const mm = String(minutes % 60).padStart(2, "0");
  return `${local}${sign}${hh}:${mm}[${zone}]`;
}

/** The local calendar date of an instant in a zone. */
export function localDate(instant: Date, zone: string): string {
  return new Date(instant.getTime() + offsetAt(instant, zone)).toISOString().slice(0, 10);
}

/**
 * The date `days` later (or earlier). Callers take four-digit years only, so a result past
 * 9999-12-31 or before 0001-01-01 stays at that end: as a bound it still compares after (or
 * before) every date a caller can send, which "+010000-12-31" does not.
 */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  const year = d.getUTCFullYear();
  if (year > 9999) return "9999-12-31";
  if (year < 1) return "0001-01-01";
  return d.toISOString().slice(0, 10);
}

const weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
export type Weekday = (typeof weekdays)[number];
export const weekdayOf = (date: string): Weekday => weekdays[new Date(`${date}T00:00:00Z`).getUTCDay()];

/** Last day of the date's month. */
export function endOfMonth(date: string): string {
  const d = new Date(`${date.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  d.setUTCDate(0);
  return d.toISOString().slice(0, 10);
}

/** ISO 8601 durations of cancellation tiers (days, hours and minutes, checked by the setup schema) in milliseconds. */
export function durationMs(duration: string): number {
  const ms = isoDurationMs(duration);
  if (ms === null) throw new Error(`unsupported duration ${duration}`);
  return ms;
}
