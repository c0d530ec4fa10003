import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/** A sealed value that cannot be opened: another key sealed it, or it was altered. */
export class SecretBoxError extends Error {
  override name = "SecretBoxError";
}

const VERSION = "v1";

/**
 * Seals secrets we must keep but never show (a supplier system's API key) with AES-256-GCM. A
 * sealed value names the key that sealed it by a short fingerprint, so a service started with
 * another key says so instead of answering garbage; the tag makes any altered byte fail to open.
 */
export class SecretBox {
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new SecretBoxError("A secret box key is 32 bytes");
    this.keyId = createHash("sha256").update(key).digest("hex").slice(0, 8);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    // The version and key id are bound to the ciphertext: changing them fails the tag.
    cipher.setAAD(Buffer.from(`${VERSION}.${this.keyId}`));
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return [VERSION, this.keyId, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
  }

  open(sealed: string): string {
    const [version, keyId, iv, tag, body] = sealed.split(".");
    if (version !== VERSION || body === undefined) throw new SecretBoxError("Not a sealed secret");
    if (keyId !== this.keyId) throw new SecretBoxError(`Sealed with another key (fingerprint ${keyId}; this service's is ${this.keyId})`);
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(`${VERSION}.${keyId}`));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
    } catch {
      throw new SecretBoxError("The sealed secret was altered");
    }
  }
}

/** ENGINE_SECRETS_KEY: 32 bytes written as 64 hex digits or in base64; undefined when it is neither. */
export function secretKeyOf(text: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const key = Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    return key.length === 32 ? key : undefined;
  }
  return undefined;
}
