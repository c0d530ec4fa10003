import { generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../core/clock.js";
import type { SigningKeyStore } from "../../identity/signing-keys.js";
import { ACCESS_TOKEN_AUDIENCE, TokenVerifier } from "../../identity/token-verifier.js";

/**
 * The verifier remembers tokens whose signature it checked; a remembered token must still be
 * refused for everything the full check refuses: expiry, another issuer, a key no longer held.
 */
describe("TokenVerifier remembering verified tokens", () => {
  const setup = async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const keys = new Map<string, CryptoKey>([["k1", publicKey]]);
    const store = { verificationKey: async (kid: string | undefined) => (kid ? keys.get(kid) : undefined) } as unknown as SigningKeyStore;
    const clock = new ManualClock(new Date(Math.floor(Date.now() / 1000) * 1000));
    let issuer = "https://issuer.example";
    const verifier = new TokenVerifier(store, { issuer: () => issuer, environment: "sandbox", clock });
    const now = Math.floor(clock.now().getTime() / 1000);
    const token = await new SignJWT({ sid: "s1", auth_time: now, env: "sandbox", realm_access: { roles: ["CONSUMER"] } })
      .setProtectedHeader({ alg: "ES256", kid: "k1", typ: "at+jwt" })
      .setIssuer(issuer)
      .setAudience(ACCESS_TOKEN_AUDIENCE)
      .setSubject("account-1")
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(privateKey);
    return { verifier, token, clock, keys, setIssuer: (value: string) => (issuer = value) };
  };

  it("answers the same caller for the same token, again and again", async () => {
    const { verifier, token } = await setup();
    const first = await verifier.verify(token);
    expect(first).toMatchObject({ accountId: "account-1", roles: ["CONSUMER"], sessionId: "s1" });
    expect(await verifier.verify(token)).toEqual(first);
  });

  it("refuses a remembered token once it has expired", async () => {
    const { verifier, token, clock } = await setup();
    await verifier.verify(token);
    clock.advance(299);
    await expect(verifier.verify(token)).resolves.toMatchObject({ accountId: "account-1" });
    clock.advance(1);
    await expect(verifier.verify(token)).rejects.toThrow(/expired/);
  });

  it("refuses a remembered token when its key is no longer held, or the issuer changed", async () => {
    const keyGone = await setup();
    await keyGone.verifier.verify(keyGone.token);
    keyGone.keys.delete("k1");
    await expect(keyGone.verifier.verify(keyGone.token)).rejects.toThrow(/not signed by a key of this environment/);

    const moved = await setup();
    await moved.verifier.verify(moved.token);
    moved.setIssuer("https://elsewhere.example");
    await expect(moved.verifier.verify(moved.token)).rejects.toThrow(/claim iss/);
  });

  it("remembers nothing for a token that failed, and a changed signature is checked in full", async () => {
    const { verifier, token } = await setup();
    await verifier.verify(token);
    const [header, payload, signature] = token.split(".");
    const tampered = `${header}.${payload}.${signature.slice(0, -4)}${signature.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    await expect(verifier.verify(tampered)).rejects.toThrow(/signature is invalid|malformed/);
    await expect(verifier.verify(tampered)).rejects.toThrow(/signature is invalid|malformed/);
  });
});
