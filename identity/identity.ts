import type { Clock } from "../core/clock.js";
import type { Config } from "../core/config.js";
import type { Database } from "../drizzle/database.js";
import { AccountService } from "./account.service.js";
import { PASSWORD_HASHING, PasswordHashing } from "./passwords.js";
import { SessionRevocations } from "./session-revocations.js";
import { SignInThrottle } from "./sign-in-throttle.js";
import { SigningKeyStore } from "./signing-keys.js";
import { TokenService } from "./token.service.js";
import { TokenVerifier } from "./token-verifier.js";
import type { PartnerDirectory } from "./partner-directory.js";

/** The identity pieces every role needs, wired once per process. */
export interface Identity {
  keys: SigningKeyStore;
  verifier: TokenVerifier;
  /** Started by processes that verify tokens (not the worker, not the CLI). */
  revocations: SessionRevocations;
  tokens: TokenService;
  accounts: AccountService;
  /** The process's password hashing, shared per account and client address. */
  hashing: PasswordHashing;
  paths: IdentityPaths;
}

export interface IdentityPaths {
  realmBase: string;
  token: string;
  certs: string;
  discovery: string;
  passwordSetup: string;
}

export function identityPaths(realm: string): IdentityPaths {
  const realmBase = `/auth/realms/${realm}`;
  return {
    realmBase,
    token: `${realmBase}/protocol/openid-connect/token`,
    certs: `${realmBase}/protocol/openid-connect/certs`,
    discovery: `${realmBase}/.well-known/openid-configuration`,
    passwordSetup: `${realmBase}/password-setup`,
  };
}

/** `config.publicUrl` is read on each use: a test server learns its address only after it listens. */
export function createIdentity(config: Config, database: Database, clock: Clock, partners: PartnerDirectory): Identity {
  const paths = identityPaths(config.authRealm);
  const issuer = () => `${config.publicUrl}${paths.realmBase}`;
  const keys = new SigningKeyStore(database.db, config.environment);
  const revocations = new SessionRevocations(database, clock);
  const hashing = new PasswordHashing({ ...PASSWORD_HASHING, perAccount: config.signIn.maxConcurrentPerAccount, perAddress: config.signIn.maxConcurrentPerAddress });
  return {
    keys,
    paths,
    revocations,
    hashing,
    verifier: new TokenVerifier(keys, { issuer, environment: config.environment, clock }, revocations),
    tokens: new TokenService(database, keys, { clock, environment: config.environment, issuer, throttle: new SignInThrottle(database.db, config.signIn, config.environment), hashing, revocations }),
    accounts: new AccountService(database, {
      clock,
      environment: config.environment,
      revocations,
      passwordSetupTtlSeconds: config.passwordSetupTtlSeconds,
      passwordSetupPageUrl: () => `${config.publicUrl}${paths.passwordSetup}`,
      hashing,
      partners,
    }),
  };
}
