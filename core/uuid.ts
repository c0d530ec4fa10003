import { badInput } from "./errors.js";

/**
 * The one UUID check of the service: hex digits in the 8-4-4-4-12 layout, nothing looser
 * (a run of 36 dashes or letters past f reaches PostgreSQL's uuid type and fails there).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);

/** 400 naming the field for anything but a UUID: a malformed id is the caller's mistake, not an unknown record. */
export function checkUuid(value: string, field: string): void {
  if (!isUuid(value)) throw badInput(`${field} must be a UUID`, [{ field, rule: "uuid", message: `${field} must be a UUID` }]);
}
