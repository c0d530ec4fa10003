import type { Clock } from "../../../core/clock.js";
import type { Config } from "../../../core/config.js";
import type { ServiceMetrics } from "../../../core/metrics.js";
import type { Logger } from "../../../core/logger.js";
import type { Database, Executor } from "../../../drizzle/database.js";
import { octoConnectionRepository } from "./octo-connection.repository.js";
import type { Dispatcher } from "undici";
import { guardedDispatcher, type Resolver } from "../../../core/outbound-address.js";
import { EngineSecretsUnavailable, SealedSecrets } from "../sealed.secrets.js";
import { OctoClient, type OctoClientOptions, type OctoConnection } from "./octo.client.js";

/**
 * The OCTO capabilities this service uses: prices are required (the flow sells at the supplier's
 * prices), texts per language and the supplier's own questions are asked for when offered.
 */
export const USED_CAPABILITIES = ["octo/pricing", "octo/content", "octo/questions"] as const;
export const REQUIRED_CAPABILITIES = ["octo/pricing"] as const;

/** An import longer than this is taken for crashed: another may start. */
const IMPORT_LEASE_MS = 15 * 60_000;

/** What we keep of a registered OCTO engine, the key aside: nothing here is secret. */
export interface OctoEngineSettings {
  engineId: number;
  engineName: string;
  baseUrl: string;
  capabilities: string[];
  octoSupplierId: string;
  octoSupplierName: string;
  countryCode: string;
  registeredAt: Date;
  updatedAt: Date;
  importStartedAt: Date | null;
  lastImportedAt: Date | null;
}

export interface OctoEnginesOptions {
  database: Database;
  logger: Logger;
  clock: Clock;
  environment: "sandbox" | "production";
  /** ENGINE_SECRETS_KEY. */
  secretsKey: Buffer | undefined;
  /** Timeouts, retries and breaker of every client made here (tests shorten them). */
  client?: Partial<Omit<OctoClientOptions, "logger" | "clock">>;
  /** How supplier names are resolved; tests hand in their own. */
  resolve?: Resolver;
}

/**
 * The OCTO engines of this service: their settings, and clients that call them with the opened
 * key. The sealed key is read and opened only here, so no other code can show or log it.
 */
export class OctoEngines {
  /** Sealed with ENGINE_SECRETS_KEY: the API keys here, and other secrets the service must keep and use (webhook signing secrets). */
  readonly secrets: SealedSecrets;

  /** In production every supplier call connects under the outbound address policy; the sandbox calls the local supplier on loopback. */
  private readonly dispatcher: Dispatcher | undefined;

  constructor(private readonly options: OctoEnginesOptions) {
    this.secrets = new SealedSecrets(options);
    this.dispatcher = options.environment === "production" ? guardedDispatcher({ allowPrivate: false, resolve: options.resolve }) : undefined;
  }

  get environment(): "sandbox" | "production" {
    return this.options.environment;
  }

  /** A client for a connection that may not be saved yet (registration verifies before saving). */
  client(connection: OctoConnection, overrides: Partial<Omit<OctoClientOptions, "logger" | "clock">> = {}): OctoClient {
    return new OctoClient(connection, { logger: this.options.logger, clock: this.options.clock, dispatcher: this.dispatcher, ...this.options.client, ...overrides });
  }

  /** A client for a registered engine, or undefined when the engine is not OCTO. */
  async clientFor(engineName: string): Promise<OctoClient | undefined> {
    const row = await octoConnectionRepository.byEngineName(this.options.database.db, engineName);
    if (!row) return undefined;
    const apiKey = await this.open(row.sealedApiKey, engineName);
    return this.client({ engineName, baseUrl: row.baseUrl, apiKey, capabilities: row.capabilities });
  }

  async settings(db: Executor, engineIds: readonly number[]): Promise<OctoEngineSettings[]> {
    const rows = await octoConnectionRepository.byEngineIds(db, engineIds);
    return rows.map(({ sealedApiKey: _sealed, ...settings }) => settings);
  }

  async all(db: Executor): Promise<OctoEngineSettings[]> {
    const rows = await octoConnectionRepository.all(db);
    return rows.map(({ sealedApiKey: _sealed, ...settings }) => settings);
  }

  /** Saves (or replaces) an engine's connection in the caller's transaction, sealing the key. */
  async save(tx: Executor, settings: Omit<OctoEngineSettings, "registeredAt" | "updatedAt" | "importStartedAt" | "lastImportedAt">, apiKey: string, now: Date): Promise<OctoEngineSettings> {
    const sealedApiKey = await this.secrets.seal(apiKey);
    const row = await octoConnectionRepository.upsert(tx, { ...settings, sealedApiKey, updatedAt: now }, now);
    const { sealedApiKey: _sealed, ...saved } = row;
    return saved;
  }

  /**
   * Claims the engine's content import: false while another import of it runs (in any process).
   * A claim older than `leaseMs` belongs to an import that crashed, and is taken over.
   */
  async claimImport(engineId: number, now: Date, leaseMs = IMPORT_LEASE_MS): Promise<boolean> {
    return octoConnectionRepository.claimImport(this.options.database.db, engineId, now, new Date(now.getTime() - leaseMs));
  }

  /** Ends a claimed import; `completed` records when the catalogue last matched the supplier. */
  async releaseImport(engineId: number, now: Date, completed: boolean): Promise<void> {
    await octoConnectionRepository.releaseImport(this.options.database.db, engineId, now, completed);
  }

  /** Fails before anything is asked of a supplier when keys could not be kept. */
  async ensureSecretsUsable(): Promise<void> {
    await this.secrets.usable();
  }

  private async open(sealed: string, engineName: string): Promise<string> {
    try {
      return await this.secrets.open(sealed);
    } catch (error) {
      throw new EngineSecretsUnavailable(`The API key of engine ${engineName} cannot be opened: ${(error as Error).message}. Start the service with the ENGINE_SECRETS_KEY it was registered under, or register the engine again.`);
    }
  }
}

/** The engines of a service started with this configuration. */
export function octoEnginesFor(config: Pick<Config, "environment" | "engineSecretsKey" | "octoCallTimeoutMs">, database: Database, logger: Logger, clock: Clock, metrics?: ServiceMetrics): OctoEngines {
  return new OctoEngines({ database, logger, clock, environment: config.environment, secretsKey: config.engineSecretsKey, client: { timeoutMs: config.octoCallTimeoutMs, ...(metrics ? { metrics } : {}) } });
}

export { EngineSecretsUnavailable };
