import { badInput } from "./errors.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** 400 naming the field for anything but a UUID: a malformed id is the caller's mistake, not an unknown record. */
export function checkUuid(value: string, field: string): void {
  if (!UUID.test(value)) throw badInput(`${field} must be a UUID`, [{ field, rule: "uuid", message: `${field} must be a UUID` }]);
}
