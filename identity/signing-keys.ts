import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import type { Db } from "../drizzle/database.js";
import { signingKeyRepository } from "./signing-key.repository.js";

export const SIGNING_ALGORITHM = "ES256";
type Environment = "sandbox" | "production";
type Key = CryptoKey | Uint8Array;

export interface PublicJwk extends JWK {
  kid: string;
  alg: string;
  use: "sig";
}

/**
 * Signing keys live in the database so that every replica signs and verifies with the same keys
 * and a restart keeps issued tokens valid. Each environment has its own keys: a token signed for
 * sandbox has a key id production does not know.
 */
export class SigningKeyStore {
  private verificationKeys = new Map<string, Key>();
  private lastReload = 0;
  private reloading?: Promise<void>;
  private signing?: { kid: string; key: Key };

  constructor(
    private readonly db: Db,
    private readonly environment: Environment,
  ) {}

  /** The newest active key; creates the first one on a fresh database. */
  async signingKey(): Promise<{ kid: string; key: Key }> {
    if (this.signing) return this.signing;
    let [row] = await this.activeKeys(1);
    if (!row) {
      const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
      const kid = `${this.environment}-${randomUUID()}`;
      await signingKeyRepository.insertIfAbsent(this.db, {
        kid,
        environment: this.environment,
        algorithm: SIGNING_ALGORITHM,
        publicJwk: await exportJWK(publicKey),
        privateJwk: await exportJWK(privateKey),
      });
      [row] = await this.activeKeys(1);
    }
    this.signing = { kid: row.kid, key: await importJWK(row.privateJwk as JWK, row.algorithm) };
    return this.signing;
  }

  /**
   * Public key for a token's `kid`; unknown ids reload from the database at most once a second.
   * Callers that arrive while a reload runs wait for it: a burst of requests with a token whose key
   * this process has not loaded yet (its first requests, or a key another process just made) is
   * answered by the one reload, not refused but for the request that started it.
   */
  async verificationKey(kid: string | undefined): Promise<Key | undefined> {
    if (!kid) return undefined;
    const known = this.verificationKeys.get(kid);
    if (known) return known;
    if (!this.reloading) {
      if (Date.now() - this.lastReload < 1000) return undefined;
      this.reloading = this.reload().finally(() => (this.reloading = undefined));
    }
    await this.reloading;
    return this.verificationKeys.get(kid);
  }

  async jwks(): Promise<{ keys: PublicJwk[] }> {
    await this.signingKey();
    const rows = await this.activeKeys();
    return {
      keys: rows.map((row) => ({ ...(row.publicJwk as JWK), kid: row.kid, alg: row.algorithm, use: "sig" as const })),
    };
  }

  private async reload(): Promise<void> {
    this.lastReload = Date.now();
    const next = new Map<string, Key>();
    for (const row of await this.activeKeys()) {
      next.set(row.kid, await importJWK(row.publicJwk as JWK, row.algorithm));
    }
    this.verificationKeys = next;
  }

  private activeKeys(limit?: number) {
    return signingKeyRepository.active(this.db, this.environment, limit);
  }
}
