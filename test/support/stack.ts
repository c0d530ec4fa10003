import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll } from "vitest";
import { ManualClock, systemClock, type Clock } from "../../core/clock.js";
import { loadConfig, type Config } from "../../core/config.js";
import { createLogger } from "../../core/logger.js";
import type { Role } from "../../core/roles.js";
import { openDatabase, type Database } from "../../drizzle/database.js";
import { createService, type Service } from "../../server/service.js";

export { ManualClock };

let sharedEmbedded: Promise<Database> | undefined;

/**
 * The database every test file shares: PostgreSQL when DATABASE_URL is set, else an in-memory
 * PGlite. Test files run one after another in each worker process (vitest `isolate: false`), and
 * opening and migrating a PGlite takes about 5 s, so a worker opens one and lends it to every file;
 * its close is the process's exit. Tests already isolate by fresh ids, as on the PostgreSQL run
 * where every file shares one database.
 */
export function openTestDatabase(): Promise<Database> {
  // Behind a pooler (test/support/with-pgbouncer.ts) DATABASE_DIRECT_URL names the server itself.
  if (process.env.DATABASE_URL) return openDatabase({ databaseUrl: process.env.DATABASE_URL, directUrl: process.env.DATABASE_DIRECT_URL, dataDir: "memory", maxConnections: 5 });
  sharedEmbedded ??= openDatabase({ dataDir: "memory" }).then((database) => {
    const lent: Database = {
      db: database.db,
      get forKeyLookups() {
        return lent;
      },
      get forLaggingReads() {
        return lent;
      },
      get primary() {
        return lent;
      },
      replicaState: () => undefined,
      driver: database.driver,
      events: database.events,
      ping: () => database.ping(),
      poolUse: () => database.poolUse(),
      forAccount: (account) => database.forAccount(account),
      close: async () => {},
    };
    return lent;
  });
  return sharedEmbedded;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: "memory",
    SEED_DEMO: "false",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    PORT: "0",
    HOST: "127.0.0.1",
    // Every test file signs in from 127.0.0.1, on one shared database under PostgreSQL: the
    // address's failures would add up across files. Throttling is tested with its own numbers.
    SIGN_IN_MAX_FAILURES_PER_ADDRESS: "1000000",
    API_RATE_LIMIT: "1000000",
    // The budget stays on, so every operation of the suite is charged and reports its cost; the
    // tests of the limits set their own numbers. Fuzzers and floods run many operations at once.
    API_COST_BUDGET: "1000000000",
    API_COST_RESTORE_PER_SECOND: "1000000000",
    API_MAX_IN_FLIGHT_PER_ACCOUNT: "0",
    // Likewise every file's connections come from 127.0.0.1, some a hundred at once; and the
    // tests share the service's event loop with work of their own (generators, fuzzers), which
    // the load-shedding threshold is not set for. Both are tested with their own numbers.
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0",
    LOAD_SHED_EVENT_LOOP_DELAY_MS: "0",
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    // The server behind the suite's pooler, with the suite's DATABASE_URL only.
    ...(process.env.DATABASE_DIRECT_URL && !("DATABASE_URL" in overrides) ? { DATABASE_DIRECT_URL: process.env.DATABASE_DIRECT_URL } : {}),
    ...overrides,
  });
}

export interface Stack {
  url: string;
  service: Service;
  config: Config;
  clock: Clock;
  tokenUrl: string;
  /** Creates an account with a fresh unique name and a password; returns its credentials. */
  createAccount(role: Role, organisation?: { name?: string; country?: string; model?: "agent" | "reseller"; bookingEngine?: string }): Promise<{ username: string; password: string; organisationName?: string }>;
  /** Password grant; returns the parsed token response. */
  login(username: string, password: string): Promise<TokenBody>;
  /** A fresh account of the role, signed in; returns its access token. */
  tokenFor(role: Role): Promise<string>;
  close(): Promise<void>;
}

export interface TokenBody {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  refresh_expires_in: number;
  token_type: string;
}

/** The whole service listening on a loopback port, over a shared database. */
export async function startStack(options: { database: Database; clock?: Clock; env?: Record<string, string>; logLines?: string[] }): Promise<Stack> {
  const config = testConfig(options.env);
  const clock = options.clock ?? systemClock;
  // Tests that read the logs (a secret must not be in them) get every line at debug level.
  const lines = options.logLines;
  const logger = lines ? createLogger("debug", { write: (line: string) => void lines.push(line) }) : createLogger(config.logLevel);
  const service = await createService(config, { clock, database: options.database, logger });
  await service.listen();
  const url = service.url!;
  // The issuer must be the address clients reach; a test server learns it only once listening.
  if (!options.env?.PUBLIC_URL) config.publicUrl = url;
  const tokenUrl = `${url}${service.identity.paths.token}`;

  const stack: Stack = {
    url,
    service,
    config,
    clock,
    tokenUrl,
    async createAccount(role, organisation) {
      const username = `${role.toLowerCase().replace(/_/g, "-")}-${randomUUID().slice(0, 8)}`;
      const password = `pw-${randomUUID()}`;
      const needsOrganisation = role === "CONSUMER" || role === "CONTENT_PARTNER" || organisation;
      const organisationName = needsOrganisation ? (organisation?.name ?? `Org ${randomUUID().slice(0, 8)}`) : undefined;
      await service.identity.accounts.createAccount({
        username,
        role,
        password,
        organisation: organisationName,
        country: needsOrganisation ? (organisation?.country ?? "NL") : undefined,
        model: needsOrganisation ? (organisation?.model ?? "agent") : undefined,
        bookingEngine: organisation?.bookingEngine,
      });
      return { username, password, organisationName };
    },
    async login(username, password) {
      const response = await fetch(tokenUrl, {
        method: "POST",
        body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password }),
      });
      if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
      return (await response.json()) as TokenBody;
    },
    async tokenFor(role) {
      const { username, password } = await stack.createAccount(role);
      return (await stack.login(username, password)).access_token;
    },
    close: () => service.close(),
  };
  return stack;
}

/** Posts a GraphQL operation to the stack's /graphql (or another path) and returns status and body. */
export async function graphql(
  url: string,
  token: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ status: number; body: { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string; [key: string]: unknown } }[] } }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as never };
}

export async function getJson(url: string, token?: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/**
 * One database and one running service for the tests of a `describe` block, started before them
 * and stopped after. Read `.stack` and `.database` inside tests and hooks.
 */
export function useStack(options: { clock?: Clock; env?: Record<string, string>; ownDatabase?: boolean; logLines?: string[] } = {}): { stack: Stack; database: Database } {
  const handle = {} as { stack: Stack; database: Database; drop?: () => Promise<void> };
  beforeAll(async () => {
    if (options.ownDatabase) {
      const own = await openOwnTestDatabase();
      handle.database = own.database;
      handle.drop = own.drop;
    } else {
      handle.database = await openTestDatabase();
    }
    handle.stack = await startStack({ database: handle.database, clock: options.clock, env: options.env, logLines: options.logLines });
  });
  afterAll(async () => {
    await handle.stack?.close();
    await handle.database?.close();
    await handle.drop?.();
  });
  return handle;
}

/**
 * A database no other test file writes to. Files that move the clock need one on PostgreSQL:
 * their worker would otherwise expire or confirm other files' bookings at the wrong time.
 * PGlite databases are per file already.
 */
export async function openOwnTestDatabase(): Promise<{ database: Database; url?: string; directUrl?: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) return { database: await openDatabase({ dataDir: "memory" }), drop: async () => {} };
  const name = `test_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  const serverUrl = process.env.DATABASE_DIRECT_URL ?? base;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const named = (address: string) => {
    const url = new URL(address);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const direct = process.env.DATABASE_DIRECT_URL ? named(process.env.DATABASE_DIRECT_URL) : undefined;
  const database = await openDatabase({ databaseUrl: named(base), directUrl: direct, dataDir: "memory", maxConnections: 8 });
  return {
    database,
    url: named(base),
    directUrl: direct,
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
