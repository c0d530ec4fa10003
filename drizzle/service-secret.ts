import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { sharedExecutor, type Executor } from "./database.js";
import { serviceSecrets } from "./schema.js";

const cache = new WeakMap<object, Map<string, Buffer>>();

/**
 * A named 256-bit secret shared by every replica: the first process to ask creates it, the
 * others read the same row (so links and cursors signed by one replica verify on another).
 */
export async function serviceSecret(db: Executor, name: string): Promise<Buffer> {
  let byName = cache.get(sharedExecutor(db));
  if (!byName) cache.set(sharedExecutor(db), (byName = new Map()));
  const cached = byName.get(name);
  if (cached) return cached;
  await db.insert(serviceSecrets).values({ name, secret: randomBytes(32).toString("base64url") }).onConflictDoNothing();
  const [row] = await db.select().from(serviceSecrets).where(eq(serviceSecrets.name, name));
  const key = Buffer.from(row.secret, "base64url");
  byName.set(name, key);
  return key;
}
