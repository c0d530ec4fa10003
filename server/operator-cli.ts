import { parseArgs } from "node:util";
import { runWhenStarted } from "../core/command-line.js";
import { systemClock } from "../core/clock.js";
import { ConfigError, loadConfig, type Config } from "../core/config.js";
import { DataFolderUnusable } from "../drizzle/data-folder.js";
import { openDatabase, type Database } from "../drizzle/database.js";
import { AccountError, type AccountService } from "../identity/account.service.js";
import { createIdentity } from "../identity/identity.js";
import { partnerDirectory } from "../subgraphs/catalogue/organisation/organisation.partner-directory.js";
import { publicAddressRepository } from "../identity/public-address.repository.js";
import { createLogger } from "../core/logger.js";
import { OctoEngines } from "../subgraphs/common/octo/octo.engines.js";
import { OctoRegistrationRefused, registerOctoEngine } from "../subgraphs/catalogue/booking-engine/octo-engine.service.js";

const USAGE = `Usage: npm run operator -- <command> [options]

Accounts belong to one environment, the one ENVIRONMENT names (sandbox unless set), as the
service's do: run the account commands with the ENVIRONMENT of the service whose accounts they
are. Links start with PUBLIC_URL, or with the one that environment's service last started with.

Commands:
  create-account --username U --role ROLE [--organisation NAME] [--country CC]
                 [--model agent|reseller] [--booking-engine NAME] [--password P]
      Creates an account. Without --password, prints a one-time link where the user sets one.
      ROLE is PLATFORM_CATALOG_MANAGEMENT, CONTENT_PARTNER, CONSUMER or OPERATOR.
      A new --organisation needs --country (ISO 3166-1 alpha-2) and --model.
  list-accounts [--json]
      Lists the environment's accounts with their roles, organisation and state.
  disable-account --username U
      Stops the account from getting tokens; refreshes are refused from then on.
  password-link --username U
      Prints a new one-time password-setup link for the account.
  move-account --username U
      Makes the other environment's account U one of this environment (its password stays, its
      sessions end): for an account created in the wrong environment, or put in the sandbox when
      environments were introduced on a database both share.
  set-tracking --organisation NAME --enabled true|false
      Turns the trackingId feature on or off: product reads then carry a per-call id.
  register-octo-engine --name NAME --base-url URL --country CC [--capabilities LIST]
      Registers a supplier system speaking OCTO as booking engine NAME (or replaces its URL, key
      and capabilities). The API key is read from OCTO_API_KEY, never from the command line.
      LIST: comma-separated, e.g. octo/pricing,octo/content (default: all we use that it offers).

The database is the service's: DATABASE_URL, or the embedded one in DATA_DIR (default ./data).`;

/**
 * The options each command cannot run without, checked before the database opens: a mistyped
 * command is answered at once, even while a running service holds the embedded database.
 */
const REQUIRED_OPTIONS = {
  "create-account": ["username", "role"],
  "list-accounts": [],
  "disable-account": ["username"],
  "password-link": ["username"],
  "move-account": ["username"],
  "set-tracking": ["organisation", "enabled"],
  "register-octo-engine": ["name", "base-url", "country"],
} as const satisfies Record<string, readonly string[]>;
type Command = keyof typeof REQUIRED_OPTIONS;
const isCommand = (command: string | undefined): command is Command => command !== undefined && Object.hasOwn(REQUIRED_OPTIONS, command);

type Values = Record<string, string | boolean | undefined>;
type RequiredOption = (typeof REQUIRED_OPTIONS)[Command][number];
interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** A command line that names a command and gives every option that command needs. */
interface Invocation {
  command: Command;
  values: Values;
  /** An option given with a value, else undefined. */
  given: (name: string) => string | undefined;
  /** A required option, present once the invocation has been checked. */
  need: (name: RequiredOption) => string;
}

/** What a command runs with, once the database is open. */
interface CommandRun extends Invocation {
  config: Config;
  database: Database;
  accounts: AccountService;
  env: NodeJS.ProcessEnv;
  io: Io;
}

/** Runs one operator command; returns the process exit code. Output goes to `out`, problems to `err`. */
export async function runOperatorCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Io = { out: console.log, err: console.error }): Promise<number> {
  const invocation = readInvocation(argv, env, io);
  if (typeof invocation === "number") return invocation;
  const opened = await openServiceDatabase(env, io);
  if (typeof opened === "number") return opened;
  const { database } = opened;
  try {
    const config = await withLinkAddress(invocation, opened.config, database, io);
    if (config === undefined) return 2;
    const { accounts } = createIdentity(config, database, systemClock, partnerDirectory);
    return (await COMMANDS[invocation.command]({ ...invocation, config, database, accounts, env, io })) ?? 0;
  } catch (error) {
    if (error instanceof AccountError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

const OPTIONS = {
  username: { type: "string" },
  role: { type: "string" },
  organisation: { type: "string" },
  country: { type: "string" },
  model: { type: "string" },
  "booking-engine": { type: "string" },
  password: { type: "string" },
  json: { type: "boolean" },
  enabled: { type: "string" },
  name: { type: "string" },
  "base-url": { type: "string" },
  capabilities: { type: "string" },
} as const;

/** The command and its options, checked before the database opens; an exit code when they are wrong. */
function readInvocation(argv: string[], env: NodeJS.ProcessEnv, io: Io): Invocation | number {
  const [command, ...rest] = argv;
  let values: Values;
  try {
    ({ values } = parseArgs({ args: rest, strict: true, options: OPTIONS }));
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (!isCommand(command)) {
    io.err(command ? `Unknown command ${command}\n\n${USAGE}` : USAGE);
    return 2;
  }
  const given = (name: string): string | undefined => (typeof values[name] === "string" && values[name] !== "" ? (values[name] as string) : undefined);
  const missing = REQUIRED_OPTIONS[command].filter((name) => given(name) === undefined);
  if (missing.length) {
    for (const name of missing) io.err(`--${name} is required for ${command}`);
    return 2;
  }
  const need = (name: RequiredOption): string => given(name)!;
  if (command === "set-tracking" && need("enabled") !== "true" && need("enabled") !== "false") {
    io.err("--enabled must be true or false");
    return 2;
  }
  if (command === "register-octo-engine" && !env.OCTO_API_KEY) {
    io.err("OCTO_API_KEY must hold the supplier system's API key (it is not taken as an option, so that it stays out of shell history and process lists)");
    return 2;
  }
  return { command, values, given, need };
}

/** The service's configuration and database; an exit code when either cannot be had. */
async function openServiceDatabase(env: NodeJS.ProcessEnv, io: Io): Promise<{ config: Config; database: Database } | number> {
  let config: Config;
  try {
    config = loadConfig({ ...env, ROLE: undefined });
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
  try {
    return { config, database: await openDatabase({ databaseUrl: config.databaseUrl, directUrl: config.databaseDirectUrl, dataDir: config.dataDir }) };
  } catch (error) {
    // The operator's to fix (a server down, a service holding the embedded database): said in a line, not a stack.
    const cause = error instanceof DataFolderUnusable ? `DATA_DIR=${JSON.stringify(error.folder)}: ${error.message}` : error instanceof Error ? error.message : String(error);
    io.err(`Cannot open the database: ${cause}`);
    return 1;
  }
}

/** The configuration with the address of the links a command prints; undefined when there is none to use. */
async function withLinkAddress({ command, given }: Invocation, config: Config, database: Database, io: Io): Promise<Config | undefined> {
  const printsLink = command === "password-link" || (command === "create-account" && given("password") === undefined);
  if (!printsLink) return config;
  const address = await linkAddress(config, database);
  if (address.url === undefined) {
    io.err(address.note);
    return undefined;
  }
  if (address.note) io.out(address.note);
  return { ...config, publicUrl: address.url };
}

/** Each command; its exit code when not 0. */
const COMMANDS: Record<Command, (run: CommandRun) => Promise<number | void>> = {
  "create-account": createAccount,
  "list-accounts": listAccounts,
  "disable-account": async ({ accounts, need, io }) => {
    const account = await accounts.disableAccount(need("username"));
    io.out(`The ${account.environment} account ${account.username} is disabled (since ${account.disabledAt!.toISOString()}).`);
  },
  "password-link": async ({ accounts, need, config, io }) => {
    const username = need("username");
    const link = await accounts.issuePasswordSetupLink(username);
    io.out(`One-time link for the ${config.environment} account ${username} (valid until ${link.expiresAt.toISOString()}):`);
    io.out(link.url);
  },
  "move-account": async ({ accounts, need, io }) => {
    const account = await accounts.moveAccountHere(need("username"));
    io.out(`${account.username} is now a ${account.environment} account; its sessions in the other environment have ended.`);
  },
  "set-tracking": async ({ accounts, need, io }) => {
    const row = await accounts.setTrackingIds(need("organisation"), need("enabled") === "true");
    io.out(`trackingId feature ${row.trackingIdsEnabled ? "on" : "off"} for ${row.name}.`);
  },
  "register-octo-engine": registerOcto,
};

async function createAccount({ accounts, need, values, io }: CommandRun): Promise<void> {
  const created = await accounts.createAccount({
    username: need("username"),
    role: need("role").toUpperCase(),
    organisation: values.organisation as string | undefined,
    country: values.country as string | undefined,
    model: values.model as string | undefined,
    bookingEngine: values["booking-engine"] as string | undefined,
    password: values.password as string | undefined,
  });
  io.out(`Created ${created.account.environment} account ${created.account.username} (${created.account.roles.join(", ")})${created.organisation ? ` in ${created.organisation.name}` : ""}.`);
  if (created.passwordSetupUrl) {
    io.out(`Send the user this one-time link to set a password (valid until ${created.passwordSetupExpiresAt!.toISOString()}):`);
    io.out(created.passwordSetupUrl);
  }
}

async function listAccounts({ accounts, values, config, io }: CommandRun): Promise<void> {
  const rows = await accounts.listAccounts();
  const items = rows.map(({ account, organisation }) => ({
    username: account.username,
    environment: account.environment,
    roles: account.roles,
    organisation: organisation?.name ?? null,
    country: organisation?.countryCode ?? null,
    state: account.disabledAt ? "disabled" : account.passwordHash ? "active" : "awaiting password",
    createdAt: account.createdAt.toISOString(),
  }));
  if (values.json) io.out(JSON.stringify(items, null, 2));
  else if (!items.length) io.out(`No accounts in the ${config.environment} environment.`);
  else {
    io.out(`Accounts of the ${config.environment} environment:`);
    for (const item of items) io.out(`${item.username.padEnd(24)} ${item.roles.join(",").padEnd(28)} ${(item.organisation ?? "-").padEnd(28)} ${item.state}`);
  }
}

async function registerOcto({ need, values, config, database, env, io }: CommandRun): Promise<number | void> {
  const octo = new OctoEngines({ database, logger: createLogger(config.logLevel === "info" ? "warn" : config.logLevel), clock: systemClock, environment: config.environment, secretsKey: config.engineSecretsKey });
  const capabilities = typeof values.capabilities === "string" ? values.capabilities.split(",").map((capability) => capability.trim()).filter(Boolean) : null;
  const request = { name: need("name"), baseUrl: need("base-url"), apiKey: env.OCTO_API_KEY!, capabilities, country: need("country").toUpperCase() };
  try {
    const { engine, settings, created } = await registerOctoEngine(database, octo, request, systemClock.now());
    io.out(`${created ? "Registered" : "Updated"} OCTO engine ${engine.name} (id ${engine.id}): ${settings.octoSupplierName} at ${settings.baseUrl}, capabilities ${settings.capabilities.join(", ")}.`);
  } catch (error) {
    if (!(error instanceof OctoRegistrationRefused)) throw error;
    const problems = (error.error.extensions.problems as { field: string; message: string }[] | undefined) ?? [];
    io.err([error.message, ...problems.map((problem) => `  ${problem.field}: ${problem.message}`)].join("\n"));
    return 1;
  }
}

/**
 * Where the links the CLI prints point: PUBLIC_URL when given, else the address the last service
 * of this environment started with (recorded at its start), else, in the sandbox only, the
 * localhost default of `npm start`. A production link to localhost would reach nobody, so there
 * the CLI refuses before it changes anything.
 */
async function linkAddress(config: Config, database: Database): Promise<{ url: string; note?: string } | { url?: undefined; note: string }> {
  if (config.publicUrlGiven) return { url: config.publicUrl };
  const recorded = await publicAddressRepository.of(database.db, config.environment);
  if (recorded) return { url: recorded.publicUrl, note: `Links use ${recorded.publicUrl}, the PUBLIC_URL the ${config.environment} service last started with (${recorded.recordedAt.toISOString()}); set PUBLIC_URL for another.` };
  if (config.environment === "production") {
    return { note: "PUBLIC_URL is not set, and no production service has started with one on this database: set PUBLIC_URL to the address users reach the service at (the link is built from it). Nothing was changed." };
  }
  return { url: config.publicUrl, note: `No PUBLIC_URL is known for the sandbox: links assume the service at ${config.publicUrl}; set PUBLIC_URL for another.` };
}

runWhenStarted(import.meta.url, (argv) => runOperatorCommand(argv));
