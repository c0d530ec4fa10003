import countries from "i18n-iso-countries";
import type { Clock } from "../core/clock.js";
import { isRole, organisationRoles, type Role } from "../core/roles.js";
import type { Database } from "../drizzle/database.js";
import type { Executor } from "../drizzle/executor.js";
import { channels } from "../drizzle/events.js";
import { BOOKING_ENGINE_NAME } from "../core/booking-engine-name.js";
import type { OrganisationRecord, PartnerDirectory } from "./partner-directory.js";
import { accountRepository as repo, type AccountRow, type Environment } from "./account.repository.js";
import { refreshTokenRepository } from "./refresh-token.repository.js";
import { hashPassword, passwordProblem, type PasswordHashing } from "./passwords.js";
import { publishRevocation, type Revocation, type SessionRevocations } from "./session-revocations.js";
import { newSecret, secretHash } from "./tokens.js";

/** A refused account operation; the message says which input is wrong and why. */
export class AccountError extends Error {
  constructor(
    readonly code: "INVALID_INPUT" | "CONFLICT" | "NOT_FOUND" | "LINK_INVALID" | "LINK_USED" | "LINK_EXPIRED",
    message: string,
  ) {
    super(message);
    this.name = "AccountError";
  }
}

export interface CreateAccountInput {
  username: string;
  role: string;
  organisation?: string;
  country?: string;
  model?: string;
  bookingEngine?: string;
  password?: string;
}

export interface CreatedAccount {
  account: AccountRow;
  organisation: OrganisationRecord | undefined;
  /** Present when no password was given: the one-time link the user sets a password through. */
  passwordSetupUrl?: string;
  passwordSetupExpiresAt?: Date;
}

const USERNAME = /^[A-Za-z0-9._@+-]{3,128}$/;

export interface AccountServiceSettings {
  clock: Clock;
  /** The environment whose accounts this service creates, finds and changes: the others' are not there for it. */
  environment: Environment;
  /** This process's revocations, told of a disabled account as soon as it commits. */
  revocations?: Pick<SessionRevocations, "learn">;
  passwordSetupTtlSeconds: number;
  /** Base of the password-setup page, e.g. https://host/auth/realms/activities/password-setup */
  passwordSetupPageUrl: () => string;
  /** The process's password hashing (the sign-ins' pool), when it has one. */
  hashing?: PasswordHashing;
  /** The organisations accounts belong to, and partners' booking engines (the catalogue's). */
  partners: PartnerDirectory;
}

/** The input's username, role, country and model, each checked; an AccountError names the first that is wrong. */
function checkedAccountInput(input: CreateAccountInput): { username: string; role: Role; country: string | undefined; model: string | undefined } {
  const username = input.username?.trim() ?? "";
  if (!USERNAME.test(username)) {
    throw new AccountError("INVALID_INPUT", "--username must be 3 to 128 letters, digits or . _ @ + -");
  }
  if (!isRole(input.role)) {
    throw new AccountError("INVALID_INPUT", `--role must be one of PLATFORM_CATALOG_MANAGEMENT, CONTENT_PARTNER, CONSUMER, OPERATOR`);
  }
  const role: Role = input.role;
  if (organisationRoles.includes(role) && !input.organisation) {
    throw new AccountError("INVALID_INPUT", `--organisation is required for a ${role} account`);
  }
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password, username);
    if (problem) throw new AccountError("INVALID_INPUT", `--password ${problem}`);
  }
  const country = input.country?.toUpperCase();
  if (country !== undefined && !countries.isValid(country)) {
    throw new AccountError("INVALID_INPUT", "--country must be an ISO 3166-1 alpha-2 code");
  }
  const model = input.model?.toUpperCase();
  if (model !== undefined && model !== "AGENT" && model !== "RESELLER") {
    throw new AccountError("INVALID_INPUT", "--model must be agent or reseller");
  }
  if (input.bookingEngine !== undefined && !BOOKING_ENGINE_NAME.test(input.bookingEngine)) {
    throw new AccountError("INVALID_INPUT", "--booking-engine must be an upper-case identifier (A-Z, 0-9, _)");
  }
  if (!input.organisation && (country || model || input.bookingEngine)) {
    throw new AccountError("INVALID_INPUT", "--country, --model and --booking-engine describe an organisation: give --organisation too");
  }
  return { username, role, country, model };
}

/** Accounts, organisations and password-setup links: what the operator CLI and demo seed drive. */
export class AccountService {
  constructor(
    private readonly database: Database,
    private readonly settings: AccountServiceSettings,
  ) {}

  async createAccount(input: CreateAccountInput): Promise<CreatedAccount> {
    const { username, role, country, model } = checkedAccountInput(input);
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password, this.settings.hashing);
    const now = this.settings.clock.now();

    return this.database.db.transaction(async (tx) => {
      if (await repo.byUsername(tx, this.settings.environment, username)) {
        throw new AccountError("CONFLICT", `the ${this.settings.environment} environment already has an account named ${username}`);
      }
      const organisation = input.organisation ? await this.organisationFor(tx, input.organisation, country, model, input.bookingEngine) : undefined;
      const account = await repo.insert(tx, {
        username,
        environment: this.settings.environment,
        roles: [role],
        organisationId: organisation?.id ?? null,
        passwordHash,
        createdAt: now,
        updatedAt: now,
      });
      if (passwordHash) return { account, organisation };
      const link = await this.issueLink(tx, account.id, now);
      return { account, organisation, passwordSetupUrl: link.url, passwordSetupExpiresAt: link.expiresAt };
    });
  }

  /**
   * The organisation of that name: an existing one must agree with what is given of it, a new one
   * is created from it (country and model required). The booking engine named is registered first.
   */
  private async organisationFor(tx: Executor, name: string, country: string | undefined, model: string | undefined, bookingEngine: string | undefined): Promise<OrganisationRecord> {
    const organisation = await this.settings.partners.organisationByName(tx, name);
    const engineId = bookingEngine ? await this.ensureBookingEngine(tx, bookingEngine) : null;
    if (organisation) {
      const conflicts = [
        country && country !== organisation.countryCode ? `country ${organisation.countryCode}` : undefined,
        model && model !== organisation.commercialModel ? `model ${organisation.commercialModel.toLowerCase()}` : undefined,
        engineId !== null && engineId !== organisation.bookingEngineId ? "another booking engine" : undefined,
      ].filter(Boolean);
      if (conflicts.length) {
        throw new AccountError("CONFLICT", `organisation ${organisation.name} already exists with ${conflicts.join(", ")}`);
      }
      return organisation;
    }
    if (!country || !model) {
      throw new AccountError("INVALID_INPUT", `organisation ${name} is new: --country and --model are required to create it`);
    }
    return this.settings.partners.createOrganisation(tx, { name, countryCode: country, commercialModel: model, bookingEngineId: engineId });
  }

  /** The booking engine's id; a new one is announced, as the catalogue announces the engines it registers. */
  private async ensureBookingEngine(tx: Executor, name: string): Promise<number> {
    const { engineId, created } = await this.settings.partners.ensureBookingEngine(tx, name);
    if (created) {
      await this.database.events.publish(tx, channels.bookingEvents, {
        type: "booking-engine.registered",
        bookingEngineId: engineId,
      });
    }
    return engineId;
  }

  async listAccounts() {
    const accounts = await repo.list(this.database.db, this.settings.environment);
    const ids = [...new Set(accounts.flatMap((account) => (account.organisationId === null ? [] : [account.organisationId])))];
    const organisations = new Map((await this.settings.partners.organisationsByIds(this.database.db, ids)).map((row) => [row.id, row]));
    return accounts.map((account) => ({ account, organisation: account.organisationId === null ? null : (organisations.get(account.organisationId) ?? null) }));
  }

  async disableAccount(username: string): Promise<AccountRow> {
    const account = await this.named(username);
    if (!account.disabledAt) {
      const now = this.settings.clock.now();
      // Every process stops accepting the account's tokens once this commits.
      const revocation = { kind: "account" as const, accountId: account.id };
      await this.database.db.transaction(async (tx) => {
        await repo.update(tx, account.id, { disabledAt: now, updatedAt: now });
        await publishRevocation(this.database, tx, revocation);
      });
      this.settings.revocations?.learn(revocation);
      return { ...account, disabledAt: now };
    }
    return account;
  }

  /** Turns the trackingId feature (spec 3, product read) on or off for an organisation. */
  async setTrackingIds(organisationName: string, enabled: boolean): Promise<OrganisationRecord> {
    const organisation = await this.settings.partners.organisationByName(this.database.db, organisationName);
    if (!organisation) throw new AccountError("NOT_FOUND", `no organisation named ${organisationName}`);
    return this.settings.partners.setTrackingIds(this.database.db, organisation.id, enabled);
  }

  /** A fresh link for an account that lost or never used its first one. */
  async issuePasswordSetupLink(username: string) {
    const account = await this.named(username);
    return this.issueLink(this.database.db, account.id, this.settings.clock.now());
  }

  /**
   * Makes the other environment's account of that name one of this environment (one created in
   * the wrong environment, or put in the sandbox by the migration that introduced environments).
   * Its password stays; its sessions end at once, since their tokens are the old environment's.
   */
  async moveAccountHere(username: string): Promise<AccountRow> {
    const here = this.settings.environment;
    const there: Environment = here === "sandbox" ? "production" : "sandbox";
    const now = this.settings.clock.now();
    const revocations: Revocation[] = [];
    const moved = await this.database.db.transaction(async (tx) => {
      const account = await repo.byUsername(tx, there, username);
      if (!account) throw new AccountError("NOT_FOUND", `the ${there} environment has no account named ${username}`);
      if (await repo.byUsername(tx, here, username)) throw new AccountError("CONFLICT", `the ${here} environment already has an account named ${username}`);
      await repo.update(tx, account.id, { environment: here, updatedAt: now });
      for (const session of await refreshTokenRepository.liveSessions(tx, account.id, now)) {
        await refreshTokenRepository.revokeSession(tx, session.sessionId);
        const revocation: Revocation = { kind: "session", sessionId: session.sessionId, accountId: account.id, endsAt: session.endsAt.getTime() };
        await publishRevocation(this.database, tx, revocation);
        revocations.push(revocation);
      }
      return { ...account, environment: here, updatedAt: now };
    });
    for (const revocation of revocations) this.settings.revocations?.learn(revocation);
    return moved;
  }

  /** Tells the setup page whether to show the form; spends nothing. */
  async checkPasswordSetupToken(token: string): Promise<AccountRow> {
    const row = await repo.passwordSetupToken(this.database.db, secretHash(token));
    this.assertUsable(row);
    return this.ownAccount(await repo.byId(this.database.db, row!.accountId));
  }

  async setPasswordWithToken(token: string, password: string): Promise<AccountRow> {
    return this.database.db.transaction(async (tx) => {
      const row = await repo.passwordSetupTokenForUpdate(tx, secretHash(token));
      this.assertUsable(row);
      const account = this.ownAccount(await repo.byId(tx, row!.accountId));
      const problem = passwordProblem(password, account.username);
      if (problem) throw new AccountError("INVALID_INPUT", `The password ${problem}.`);
      const now = this.settings.clock.now();
      await repo.update(tx, account.id, { passwordHash: await hashPassword(password, this.settings.hashing), updatedAt: now });
      await repo.spendPasswordSetupTokens(tx, account.id, now);
      return account;
    });
  }

  private async named(username: string): Promise<AccountRow> {
    const account = await repo.byUsername(this.database.db, this.settings.environment, username);
    if (!account) throw new AccountError("NOT_FOUND", `the ${this.settings.environment} environment has no account named ${username}`);
    return account;
  }

  /** A link's account, when it is one of this environment: another environment's page does not set its password. */
  private ownAccount(account: AccountRow | undefined): AccountRow {
    if (!account) throw new AccountError("LINK_INVALID", "This link is not valid.");
    if (account.environment !== this.settings.environment) {
      throw new AccountError("LINK_INVALID", `This link is for an account of the ${account.environment} environment: open it on that environment's address.`);
    }
    return account;
  }

  private assertUsable(row: { usedAt: Date | null; expiresAt: Date } | undefined): void {
    if (!row) throw new AccountError("LINK_INVALID", "This link is not valid.");
    if (row.usedAt) throw new AccountError("LINK_USED", "This link has already been used. Ask the operator for a new one.");
    if (row.expiresAt <= this.settings.clock.now()) {
      throw new AccountError("LINK_EXPIRED", "This link has expired. Ask the operator for a new one.");
    }
  }

  private async issueLink(db: Parameters<typeof repo.insertPasswordSetupToken>[0], accountId: string, now: Date) {
    const token = newSecret();
    const expiresAt = new Date(now.getTime() + this.settings.passwordSetupTtlSeconds * 1000);
    await repo.insertPasswordSetupToken(db, { tokenHash: secretHash(token), accountId, expiresAt, createdAt: now });
    return { url: `${this.settings.passwordSetupPageUrl()}?token=${token}`, expiresAt };
  }
}
