import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Database } from "../../drizzle/database.js";
import { SigningKeyStore } from "../../identity/signing-keys.js";

/**
 * Tokens naming key ids nobody issued make the verifier look for new keys. Those who come while a
 * look runs wait for it (so that a real new key is found for all of them), which must not let a
 * flood of made-up ids read the keys more than once a second.
 */
describe("a flood of tokens with made-up key ids", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: "memory" });
  }, 60_000);
  afterAll(() => database?.close());

  it("reads the signing keys once for a burst, and not again within the second, whatever ids it names", async () => {
    const store = new SigningKeyStore(database.db, "sandbox");
    const reads = vi.spyOn(store as unknown as { activeKeys: () => unknown }, "activeKeys");
    const burst = await Promise.all(Array.from({ length: 200 }, (_, i) => store.verificationKey(`sandbox-made-up-${i}`)));
    expect(burst.every((key) => key === undefined)).toBe(true);
    expect(reads).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 200; i++) expect(await store.verificationKey(`sandbox-later-${i}`)).toBeUndefined();
    expect(reads).toHaveBeenCalledTimes(1);
  });
});
