import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../core/config.js";
import { SecretBox, SecretBoxError, secretKeyOf } from "../../core/secret-box.js";

describe("sealing supplier keys", () => {
  const key = randomBytes(32);

  it("opens what it sealed, with a fresh nonce each time, and names the key by a fingerprint only", () => {
    const box = new SecretBox(key);
    const first = box.seal("supplier-key-1");
    const second = box.seal("supplier-key-1");
    expect(first).not.toBe(second);
    expect(first).not.toContain("supplier-key-1");
    expect(first.split(".")[1]).toBe(box.keyId);
    expect(box.open(first)).toBe("supplier-key-1");
    expect(box.open(second)).toBe("supplier-key-1");
  });

  it("refuses to open with another key, or anything altered, saying which", () => {
    const sealed = new SecretBox(key).seal("supplier-key-1");
    const other = new SecretBox(randomBytes(32));
    expect(() => other.open(sealed)).toThrow(/another key \(fingerprint [0-9a-f]{8}; this service's is [0-9a-f]{8}\)/);
    const parts = sealed.split(".");
    const flipped = Buffer.from(parts[4], "base64url");
    flipped[0] ^= 1;
    expect(() => new SecretBox(key).open([...parts.slice(0, 4), flipped.toString("base64url")].join("."))).toThrow(SecretBoxError);
    expect(() => new SecretBox(key).open("plain-text-key")).toThrow(/Not a sealed secret/);
  });

  it("takes ENGINE_SECRETS_KEY as 64 hex digits or 32 bytes of base64, and refuses anything else at start", () => {
    expect(secretKeyOf(key.toString("hex"))).toEqual(key);
    expect(secretKeyOf(key.toString("base64"))).toEqual(key);
    expect(secretKeyOf(key.toString("base64url"))).toEqual(key);
    expect(loadConfig({ ENGINE_SECRETS_KEY: key.toString("base64") }).engineSecretsKey).toEqual(key);
    expect(loadConfig({}).engineSecretsKey).toBeUndefined();
    for (const bad of ["short", key.toString("hex").slice(2), randomBytes(16).toString("base64")]) {
      expect(() => loadConfig({ ENGINE_SECRETS_KEY: bad })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ ENGINE_SECRETS_KEY: "short" })).toThrow(/ENGINE_SECRETS_KEY="short": must be 32 bytes/);
  });
});
