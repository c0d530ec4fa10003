import { createHash } from "node:crypto";

/**
 * Ids already derived, by their input. A booking's answer derives an id for every question and
 * participant each time it is read (nine times in a flow), and hashing them was about 1 % of a
 * flow's CPU. Cleared when full: a booking being read now derives its ids again once.
 */
const derived = new Map<string, Map<string, Map<string, string>>>();
let derivedCount = 0;
const DERIVED_KEPT = 20_000;

/**
 * A stable UUID for a thing that lives inside another (an option of an availability, a
 * question of a booking): the same owner and path always give the same id, so ids need no rows.
 */
export function derivedUuid(kind: string, owner: string, path: string): string {
  // By each part, not by a joined key: a read derives hundreds, and no separator is safe in a path.
  const known = derived.get(kind)?.get(owner)?.get(path);
  if (known) return known;
  // JSON keeps ("a/b", "c") and ("a", "b/c") from hashing the same input.
  const input = JSON.stringify([kind, owner, path]);
  const bytes = createHash("sha256").update(input).digest().subarray(0, 16);
  // Name-based UUIDs carry version 5 and the RFC 4122 variant; sha256 stands in for sha1.
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  if (derivedCount >= DERIVED_KEPT) {
    derived.clear();
    derivedCount = 0;
  }
  let byOwner = derived.get(kind);
  if (!byOwner) derived.set(kind, (byOwner = new Map()));
  let byPath = byOwner.get(owner);
  if (!byPath) byOwner.set(owner, (byPath = new Map()));
  byPath.set(path, id);
  derivedCount++;
  return id;
}
