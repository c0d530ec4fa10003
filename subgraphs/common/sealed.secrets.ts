import type { Logger } from "../../core/logger.js";
import { SecretBox } from "../../core/secret-box.js";
import type { Database } from "../../drizzle/database.js";
import { serviceSecret } from "../../drizzle/service-secret.js";

/** Secrets cannot be sealed or opened: production without ENGINE_SECRETS_KEY, or a key other than the one that sealed them. */
export class EngineSecretsUnavailable extends Error {
  override name = "EngineSecretsUnavailable";
}

export interface SealedSecretsOptions {
  database: Database;
  logger: Logger;
  environment: "sandbox" | "production";
  /** ENGINE_SECRETS_KEY. */
  secretsKey: Buffer | undefined;
}

/**
 * Secrets the service must keep and use again (a supplier's API key, a webhook endpoint's signing
 * secret), sealed with AES-256-GCM under ENGINE_SECRETS_KEY (core/secret-box.ts).
 */
export class SealedSecrets {
  private box: Promise<SecretBox> | undefined;

  constructor(private readonly options: SealedSecretsOptions) {}

  async seal(plain: string): Promise<string> {
    return (await this.secretBox()).seal(plain);
  }

  /** Throws SecretBoxError for a value another key sealed or that was altered. */
  async open(sealed: string): Promise<string> {
    return (await this.secretBox()).open(sealed);
  }

  /** Fails when secrets could not be kept, before anything is asked of anyone. */
  async usable(): Promise<void> {
    await this.secretBox();
  }

  private secretBox(): Promise<SecretBox> {
    const { secretsKey, environment, database, logger } = this.options;
    if (secretsKey) return (this.box ??= Promise.resolve(new SecretBox(secretsKey)));
    if (environment === "production") {
      return Promise.reject(new EngineSecretsUnavailable("ENGINE_SECRETS_KEY is not set: in production secrets are sealed with a key from the configuration only"));
    }
    // The sandbox needs no setup: the key is kept in the database it protects, which is no
    // protection at all, so production refuses to do this.
    this.box ??= serviceSecret(database.db, "engine-secrets").then((key) => {
      logger.warn("ENGINE_SECRETS_KEY is not set: secrets are sealed with a key kept in the database (sandbox only)");
      return new SecretBox(key);
    });
    this.box.catch(() => (this.box = undefined));
    return this.box;
  }
}
