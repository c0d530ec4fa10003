import { errors, jwtVerify, type JWTPayload } from "jose";
import type { Caller } from "../core/caller.js";
import type { Clock } from "../core/clock.js";
import { isRole } from "../core/roles.js";
import type { SessionRevocations } from "./session-revocations.js";
import { SIGNING_ALGORITHM, type SigningKeyStore } from "./signing-keys.js";

export const ACCESS_TOKEN_AUDIENCE = "activities-api";

export class InvalidTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidTokenError";
  }
}

interface AccessTokenClaims extends JWTPayload {
  typ?: string;
  sid?: string;
  auth_time?: number;
  preferred_username?: string;
  env?: string;
  org_id?: number | null;
  realm_access?: { roles?: string[] };
  scope?: string;
}

/**
 * Verifies bearer access tokens: signature by a key of this environment (ES256 only, so `none`
 * and HMAC tricks fail), issuer, audience, expiry, and the environment claim. Used by the edge
 * and by every subgraph, which never trust a caller they did not verify themselves.
 */
export class TokenVerifier {
  constructor(
    private readonly keys: SigningKeyStore,
    private readonly settings: { issuer: () => string; environment: "sandbox" | "production"; clock: Clock },
    /** Ended sessions and disabled accounts, whose tokens are refused before they expire. */
    private readonly revocations?: SessionRevocations,
  ) {}

  /**
   * Tokens whose signature was checked, by their exact text: a client sends the same token for
   * its whole life (minutes), and the edge and then each subgraph it reaches verify it, so ES256
   * checks were 3 % of the service's CPU in the booking flow. A hit still answers only what the
   * signature would: the text (signature included) is the one verified, and expiry, issuer and
   * the signing key's standing are checked again, revocation on every call below.
   */
  private readonly verified = new Map<string, { payload: AccessTokenClaims; kid: string }>();
  private static readonly REMEMBERED_TOKENS = 5_000;

  private async alreadyVerified(token: string): Promise<AccessTokenClaims | undefined> {
    const entry = this.verified.get(token);
    if (!entry) return undefined;
    const now = Math.floor(this.settings.clock.now().getTime() / 1000);
    const { payload } = entry;
    const current = payload.exp! > now && (payload.nbf === undefined || payload.nbf <= now) && payload.iss === this.settings.issuer();
    if (current && (await this.keys.verificationKey(entry.kid))) return payload;
    // Expired, or the key or issuer changed: the full check decides, and says why.
    this.verified.delete(token);
    return undefined;
  }

  private remember(token: string, payload: AccessTokenClaims, kid: string): void {
    if (this.verified.size >= TokenVerifier.REMEMBERED_TOKENS) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { payload, kid });
  }

  get environment(): "sandbox" | "production" {
    return this.settings.environment;
  }

  /** For the one contract rule that tells a removed account apart (ACCOUNT_NOT_FOUND): subgraphs ask identity, not its tables. */
  accountExists(accountId: string): Promise<boolean> {
    return this.revocations ? this.revocations.accountExists(accountId) : Promise.resolve(true);
  }

  async verify(token: string): Promise<Caller> {
    let payload = await this.alreadyVerified(token);
    if (!payload) {
      let kid: string | undefined;
      try {
        ({ payload } = await jwtVerify<AccessTokenClaims>(
          token,
          async (header) => {
            kid = header.kid;
            const key = await this.keys.verificationKey(header.kid);
            if (!key) throw new InvalidTokenError("token was not signed by a key of this environment");
            return key;
          },
          {
            algorithms: [SIGNING_ALGORITHM],
            issuer: this.settings.issuer(),
            audience: ACCESS_TOKEN_AUDIENCE,
            currentDate: this.settings.clock.now(),
            typ: "at+jwt",
            requiredClaims: ["exp", "iat", "sub", "sid", "auth_time", "env"],
          },
        ));
      } catch (error) {
        throw new InvalidTokenError(describe(error));
      }
      this.remember(token, payload, kid!);
    }
    if (payload.env !== this.settings.environment) {
      throw new InvalidTokenError(`token was issued for the ${payload.env} environment`);
    }
    const revoked = this.revocations?.reasonAgainst({ sessionId: payload.sid!, accountId: payload.sub! });
    if (revoked) throw new InvalidTokenError(revoked === "account disabled" ? "the account is disabled" : "the session has been revoked");
    const tokenRoles = payload.realm_access?.roles ?? [];
    return {
      accountId: payload.sub!,
      username: payload.preferred_username ?? payload.sub!,
      roles: tokenRoles.filter(isRole),
      scopes: typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : [],
      organisationId: typeof payload.org_id === "number" ? payload.org_id : null,
      environment: this.settings.environment,
      sessionId: payload.sid!,
      authTime: new Date(payload.auth_time! * 1000),
      expiresAt: new Date(payload.exp! * 1000),
    };
  }
}

function describe(error: unknown): string {
  if (error instanceof InvalidTokenError) return error.message;
  if (error instanceof errors.JWTExpired) return "token has expired";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "token signature is invalid";
  if (error instanceof errors.JOSEAlgNotAllowed) return "token signing algorithm is not accepted";
  if (error instanceof errors.JWTClaimValidationFailed) return `token claim ${error.claim} is invalid`;
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return "token is malformed";
  return "token is invalid";
}

/** Reads `Authorization: Bearer <token>`; anything else is treated as no token. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value?.match(/^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i);
  return match?.[1];
}
