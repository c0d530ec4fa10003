/**
 * The one check of a calendar date written YYYY-MM-DD: a day that exists (no 2026-02-30) in
 * years 1 to 9999. `new Date()` is no check: it rolls impossible days over into the next month,
 * and gives an Invalid Date (which throws on toISOString) for a month 13 or a day 0.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const match = DATE.exec(value);
  return match !== null && isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** Year 0 is refused: PostgreSQL's date has none (1 BC comes before 0001-01-01). */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}
