import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import type { Caller } from "../core/caller.js";
import { epochSeconds, type Clock } from "../core/clock.js";
import { grantableScopes } from "../core/roles.js";
import type { Database } from "../drizzle/database.js";
import { accountRepository } from "./account.repository.js";
import { HashingShareTaken, PasswordHashingBusy, type HashingShare, type PasswordHashing } from "./passwords.js";
import { publishRevocation, type Revocation, type SessionRevocations } from "./session-revocations.js";
import { SignInThrottled, type SignInThrottle } from "./sign-in-throttle.js";
import { refreshTokenRepository as refreshRepo } from "./refresh-token.repository.js";
import { SIGNING_ALGORITHM, type SigningKeyStore } from "./signing-keys.js";
import { ACCESS_TOKEN_AUDIENCE } from "./token-verifier.js";
import { newSecret, secretHash } from "./tokens.js";

/** The one OAuth client of the contract (spec 1, Authentication). */
export const CLIENT_ID = "content-partner-api";
export const ACCESS_TOKEN_SECONDS = 300;
/** A session's refreshes end this long after its password grant. */
export const SESSION_MAX_SECONDS = 30 * 60;

export interface TokenResponse {
  access_token: string;
  expires_in: number;
  refresh_token: string;
  refresh_expires_in: number;
  token_type: "Bearer";
  session_state: string;
  scope: string;
}

/** An OAuth 2.0 error (RFC 6749 section 5.2), carried to the token endpoint as is. */
export class OAuthError extends Error {
  constructor(
    readonly error:
      | "invalid_request"
      | "invalid_client"
      | "invalid_grant"
      | "unsupported_grant_type"
      | "unauthorized_client"
      | "invalid_scope"
      | "slow_down"
      | "temporarily_unavailable",
    readonly description: string,
    readonly status: 400 | 401 | 429 | 503 = 400,
    /** Seconds to wait before asking again (429 and 503 answers carry it as Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
    this.name = "OAuthError";
  }
}

type Environment = "sandbox" | "production";

export interface TokenServiceSettings {
  clock: Clock;
  environment: Environment;
  issuer: () => string;
  throttle: SignInThrottle;
  /** The process's password hashing, shared fairly between accounts and client addresses. */
  hashing: PasswordHashing;
  /** This process's revocations, told of a session ended by a replayed refresh token as soon as it commits. */
  revocations?: Pick<SessionRevocations, "learn">;
}

export class TokenService {
  constructor(
    private readonly database: Database,
    private readonly keys: SigningKeyStore,
    private readonly settings: TokenServiceSettings,
  ) {}

  /**
   * `requestedScope`: the space-separated `scope` form field; absent means every scope the roles
   * allow. `clientAddress`: where the request came from, for throttling guesses.
   */
  async passwordGrant(username: string, password: string, requestedScope: string | undefined, clientAddress: string): Promise<TokenResponse> {
    const { throttle, clock } = this.settings;
    const guard = {
      admit: () => throttle.check(username, clientAddress, clock.now()),
      recordFailure: () => throttle.recordFailure(username, clientAddress, clock.now()),
    };
    let valid: boolean;
    let account: Awaited<ReturnType<typeof accountRepository.byUsername>>;
    let share: HashingShare | undefined;
    try {
      // Before anything is read: an account or address over its share of the hashing pool costs nothing more.
      share = this.settings.hashing.share({ account: `${this.settings.environment}:${username.toLowerCase()}`, address: clientAddress });
      // Refused at once when over the limit, and judged again once a hashing slot is free.
      await guard.admit();
      // Another environment's account of that name is as unknown here as no account at all.
      account = await accountRepository.byUsername(this.database.db, this.settings.environment, username);
      valid = await share.verify(account?.passwordHash, password, guard);
    } catch (error) {
      if (error instanceof SignInThrottled) throw new OAuthError("slow_down", error.message, 429, error.retryAfterSeconds);
      if (error instanceof HashingShareTaken) throw new OAuthError("slow_down", error.message, 429, 1);
      if (error instanceof PasswordHashingBusy) throw new OAuthError("temporarily_unavailable", error.message, 503, 1);
      throw error;
    } finally {
      share?.release();
    }
    if (!account || !valid) throw new OAuthError("invalid_grant", "Invalid user credentials");
    await throttle.recordSuccess(username);
    if (account.disabledAt) throw new OAuthError("invalid_grant", "Account disabled");
    const scope = grantedScope(account.roles, requestedScope);
    const now = this.settings.clock.now();
    const session = { id: randomUUID(), startedAt: now, scope };
    return this.database.db.transaction(async (tx) => {
      const refreshToken = await this.storeRefreshToken(tx, account.id, session, now);
      return this.respond(account, session, refreshToken, now);
    });
  }

  async refreshGrant(refreshToken: string): Promise<TokenResponse> {
    const now = this.settings.clock.now();
    let revoked: Revocation | undefined;
    const outcome = await this.database.db.transaction(async (tx) => {
      const row = await refreshRepo.forUpdate(tx, secretHash(refreshToken));
      if (!row) return new OAuthError("invalid_grant", "Invalid refresh token");
      if (row.environment !== this.settings.environment) {
        return new OAuthError("invalid_grant", `Refresh token was issued by the ${row.environment} environment`);
      }
      if (row.revoked) return new OAuthError("invalid_grant", "Session has been revoked");
      if (row.usedAt) {
        // Replay of a rotated token: whoever holds the chain may be an attacker, so end it (RFC 6819 5.2.2.3).
        await refreshRepo.revokeSession(tx, row.sessionId);
        revoked = { kind: "session", sessionId: row.sessionId, accountId: row.accountId, endsAt: row.expiresAt.getTime() };
        await publishRevocation(this.database, tx, revoked);
        return new OAuthError("invalid_grant", "Refresh token has already been used; the session is revoked");
      }
      if (row.expiresAt <= now) return new OAuthError("invalid_grant", "Session max lifespan reached (30 minutes after sign-in)");
      const account = await accountRepository.byId(tx, row.accountId);
      if (!account || account.disabledAt) return new OAuthError("invalid_grant", "Account disabled");
      // A session begun before the account was moved to the other environment ends with the move.
      if (account.environment !== this.settings.environment) return new OAuthError("invalid_grant", `The account belongs to the ${account.environment} environment`);
      await refreshRepo.markUsed(tx, row.tokenHash, now);
      const session = { id: row.sessionId, startedAt: row.sessionStartedAt, scope: row.scope };
      const next = await this.storeRefreshToken(tx, account.id, session, now);
      return this.respond(account, session, next, now);
    });
    if (revoked) this.settings.revocations?.learn(revoked);
    if (outcome instanceof OAuthError) throw outcome;
    return outcome;
  }

  /**
   * A short-lived access token for a caller already verified, used by the edge for work it does
   * on the caller's behalf after the original token may have expired (subscription messages).
   * It never outlives the session cap of the password grant.
   */
  async delegatedAccessToken(caller: Caller, lifetimeSeconds = 60): Promise<string> {
    const now = this.settings.clock.now();
    const capAt = epochSeconds(sessionEnd(caller.authTime));
    if (epochSeconds(now) >= capAt) throw new OAuthError("invalid_grant", "Session max lifespan reached (30 minutes after sign-in)");
    const issuedAt = epochSeconds(now);
    return this.sign(
      { id: caller.accountId, username: caller.username, roles: caller.roles, organisationId: caller.organisationId },
      { id: caller.sessionId, startedAt: caller.authTime, scope: caller.scopes.join(" ") },
      issuedAt,
      Math.min(issuedAt + lifetimeSeconds, capAt),
    );
  }

  private async storeRefreshToken(
    tx: Parameters<typeof refreshRepo.insert>[0],
    accountId: string,
    session: Session,
    now: Date,
  ): Promise<string> {
    const token = newSecret();
    await refreshRepo.insert(tx, {
      tokenHash: secretHash(token),
      sessionId: session.id,
      accountId,
      environment: this.settings.environment,
      sessionStartedAt: session.startedAt,
      scope: session.scope,
      expiresAt: sessionEnd(session.startedAt),
      createdAt: now,
    });
    return token;
  }

  private async respond(
    account: { id: string; username: string; roles: string[]; organisationId: number | null },
    session: Session,
    refreshToken: string,
    now: Date,
  ): Promise<TokenResponse> {
    const issuedAt = epochSeconds(now);
    const capAt = epochSeconds(sessionEnd(session.startedAt));
    const expiresAt = Math.min(issuedAt + ACCESS_TOKEN_SECONDS, capAt);
    return {
      access_token: await this.sign(account, session, issuedAt, expiresAt),
      expires_in: expiresAt - issuedAt,
      refresh_token: refreshToken,
      refresh_expires_in: Math.max(0, capAt - issuedAt),
      token_type: "Bearer",
      session_state: session.id,
      scope: session.scope,
    };
  }

  private async sign(
    account: { id: string; username: string; roles: string[]; organisationId: number | null },
    session: Session,
    issuedAt: number,
    expiresAt: number,
  ): Promise<string> {
    const { kid, key } = await this.keys.signingKey();
    return new SignJWT({
      azp: CLIENT_ID,
      sid: session.id,
      auth_time: epochSeconds(session.startedAt),
      preferred_username: account.username,
      realm_access: { roles: account.roles },
      org_id: account.organisationId,
      env: this.settings.environment,
      scope: session.scope,
    })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ: "at+jwt" })
      .setIssuer(this.settings.issuer())
      .setSubject(account.id)
      .setAudience(ACCESS_TOKEN_AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(randomUUID())
      .sign(key);
  }
}

interface Session {
  id: string;
  startedAt: Date;
  /** Space-separated OAuth scopes, fixed at the password grant. */
  scope: string;
}

function grantedScope(accountRoles: string[], requested: string | undefined): string {
  const allowed = grantableScopes(accountRoles);
  if (requested === undefined || requested.trim() === "") return allowed.join(" ");
  const asked = [...new Set(requested.split(" ").filter(Boolean))];
  const refused = asked.filter((scope) => !(allowed as string[]).includes(scope));
  if (refused.length) throw new OAuthError("invalid_scope", `Scope not allowed for this account: ${refused.join(" ")}`);
  return allowed.filter((scope) => asked.includes(scope)).join(" ");
}

const sessionEnd = (startedAt: Date): Date => new Date(startedAt.getTime() + SESSION_MAX_SECONDS * 1000);
