import { describe, expect, it } from "vitest";
import { HashingShareTaken, PasswordHashing, PasswordHashingBusy, hashPassword, type PasswordGuard } from "../../identity/passwords.js";

/** The password-hashing pool's shares and turns (identity/passwords.ts), with real Argon2id hashes. */
describe("password hashing shares", () => {
  const limits = { maxRunning: 1, maxWaiting: 6, perAccount: 2, perAddress: 3 };

  it("refuses a third concurrent hash of one account and a fourth of one address, until one is released", () => {
    const hashing = new PasswordHashing(limits);
    const first = hashing.share({ account: "sandbox:alice", address: "203.0.113.1" });
    hashing.share({ account: "sandbox:alice", address: "203.0.113.2" });
    expect(() => hashing.share({ account: "sandbox:alice", address: "203.0.113.3" })).toThrow(expect.objectContaining({ by: "account" }));
    first.release();
    first.release();
    const again = hashing.share({ account: "sandbox:alice", address: "203.0.113.1" });
    for (const user of ["bob", "carol"]) hashing.share({ account: `sandbox:${user}`, address: "203.0.113.1" });
    expect(() => hashing.share({ account: "sandbox:dave", address: "203.0.113.1" })).toThrow(HashingShareTaken);
    again.release();
    expect(hashing.share({ account: "sandbox:dave", address: "203.0.113.1" })).toBeDefined();
  });

  it("serves the addresses waiting in turn, not in the order they queued, and bounds the queue", async () => {
    const hashing = new PasswordHashing(limits);
    const stored = await hashPassword("correct horse battery", hashing);
    const served: string[] = [];
    let releaseBlocker!: () => void;
    const blocking = new Promise<void>((resolve) => (releaseBlocker = resolve));
    const guard = (name: string, hold?: Promise<void>): PasswordGuard => ({
      admit: async () => {
        served.push(name);
        await hold;
      },
      recordFailure: async () => {},
    });
    const check = (name: string, address: string, hold?: Promise<void>) => {
      const share = hashing.share({ account: `sandbox:${name}`, address });
      return share.verify(stored, "correct horse battery", guard(name, hold)).finally(() => share.release());
    };

    // One hash holds the only slot; three from one address queue before one from another.
    const checks = [check("blocker", "192.0.2.1", blocking)];
    await expect.poll(() => served).toEqual(["blocker"]);
    for (const name of ["x1", "x2", "x3"]) checks.push(check(name, "203.0.113.9"));
    checks.push(check("y1", "198.51.100.4"));
    expect(hashing.stats()).toMatchObject({ running: 1, waiting: 4 });
    // Two more wait (six in all); a seventh is refused, whoever asks.
    checks.push(check("z1", "192.0.2.7"), check("z2", "192.0.2.8"));
    await expect(check("z3", "192.0.2.9")).rejects.toBeInstanceOf(PasswordHashingBusy);

    releaseBlocker();
    expect(await Promise.all(checks)).toEqual(Array(checks.length).fill(true));
    expect(served).toEqual(["blocker", "x1", "y1", "z1", "z2", "x2", "x3"]);
    expect(hashing.stats()).toEqual({ running: 0, waiting: 0, accounts: 0, addresses: 0 });
  }, 30_000);
});
