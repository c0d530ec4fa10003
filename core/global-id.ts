/**
 * Global object ids (docs/graph-design.md, "Ids"): the base64url of `<TypeName>:<key>`, opaque
 * to clients. One codec for the whole service: the subgraphs, the `node` subgraph and the REST
 * layer (which turns a path's key into the id the graph takes) all use these two functions.
 */
export function toGlobalId(typeName: string, key: string | number): string {
  return Buffer.from(`${typeName}:${key}`, "utf8").toString("base64url");
}

/** Both parts of an id, or null for anything that is not one (not base64url, no type, no key). */
export function parseGlobalId(id: string): { typeName: string; key: string } | null {
  if (typeof id !== "string" || id.length === 0 || id.length > 200 || !/^[A-Za-z0-9_-]+$/.test(id)) return null;
  const text = Buffer.from(id, "base64url").toString("utf8");
  const colon = text.indexOf(":");
  if (colon < 1 || colon === text.length - 1) return null;
  const typeName = text.slice(0, colon);
  if (!/^[A-Z][A-Za-z0-9]*$/.test(typeName)) return null;
  // Only the canonical spelling of an id is one: a second spelling of the same key would be a second id.
  if (toGlobalId(typeName, text.slice(colon + 1)) !== id) return null;
  return { typeName, key: text.slice(colon + 1) };
}

/** The key of an id of the given type; null for an id of another type or no id at all (as one that does not exist). */
export function keyOfGlobalId(id: string, typeName: string): string | null {
  const parsed = parseGlobalId(id);
  return parsed?.typeName === typeName ? parsed.key : null;
}

/** The largest number a serial column holds (PostgreSQL's `integer`). */
const MAX_SERIAL = 2_147_483_647;

/**
 * A row's number written as the id writes it (1 to 2^31−1, no sign, no leading zero), or null.
 * Any other key names no row: a larger one is not even a value of the column (the statement
 * would fail), and `01` would be a second id of row 1.
 */
export function serialKey(key: string | null): number | null {
  if (key === null || !/^[1-9]\d{0,9}$/.test(key)) return null;
  const value = Number(key);
  return value <= MAX_SERIAL ? value : null;
}

/** The row number an id of the given type names, or null (as for one that does not exist). */
export function serialKeyOfGlobalId(id: string, typeName: string): number | null {
  return serialKey(keyOfGlobalId(id, typeName));
}
