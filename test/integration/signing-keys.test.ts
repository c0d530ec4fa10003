import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../drizzle/database.js";
import { signingKeys } from "../../drizzle/schema.js";
import { SigningKeyStore } from "../../identity/signing-keys.js";

describe("signing keys shared through the database", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: "memory" });
  }, 60_000);
  afterAll(() => database?.close());

  it("verifies a burst of tokens signed with a key this process has not loaded yet: every request waits for the one reload", async () => {
    const environment = "sandbox";
    const signer = new SigningKeyStore(database.db, environment);
    const { kid } = await signer.signingKey();
    // Another process (or this one, freshly started) has never loaded the key.
    const verifier = new SigningKeyStore(database.db, environment);
    const keys = await Promise.all(Array.from({ length: 12 }, () => verifier.verificationKey(kid)));
    expect(keys.every((key) => key !== undefined)).toBe(true);
  });

  it("still answers an unknown key id with nothing, without reading the database again within the second", async () => {
    const verifier = new SigningKeyStore(database.db, "sandbox");
    expect(await verifier.verificationKey("sandbox-unknown")).toBeUndefined();
    // A key added after that reload is not looked for at once: unknown ids cannot make every request read the keys.
    const [existing] = await database.db.select().from(signingKeys).where(eq(signingKeys.environment, "sandbox")).limit(1);
    const kid = `sandbox-${randomUUID()}`;
    // Older than every key: were it the newest, other test files' services sharing this database
    // could sign with it during the second below, and their tokens would fail once it is retired.
    await database.db.insert(signingKeys).values({ ...existing, kid, createdAt: new Date(0) });
    expect(await verifier.verificationKey(kid)).toBeUndefined();
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_050));
      expect(await verifier.verificationKey(kid)).toBeDefined();
    } finally {
      // Retired, so that it does not pile up among the keys every service loads.
      await database.db.update(signingKeys).set({ retiredAt: new Date() }).where(eq(signingKeys.kid, kid));
    }
  });
});
