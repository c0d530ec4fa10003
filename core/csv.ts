/**
 * RFC 4180 CSV for spreadsheets: CRLF line ends, fields quoted when they hold a comma, quote or
 * line break. A text cell starting with = + - @ (or a tab or carriage return) would run as a
 * formula in Excel or LibreOffice (CSV injection), so it is prefixed with an apostrophe; numbers
 * and booleans are written as they are.
 */
export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const csvLine = (values: readonly CsvValue[]): string => `${values.map(csvCell).join(",")}\r\n`;
