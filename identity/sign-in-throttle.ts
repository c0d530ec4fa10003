import { createHash } from "node:crypto";
import type { Executor } from "../drizzle/database.js";
import type { Environment } from "./account.repository.js";
import { signInFailureRepository } from "./sign-in-failure.repository.js";

export interface SignInThrottleSettings {
  /** Failed sign-ins one username may have in the window before it waits. */
  maxFailuresPerAccount: number;
  /** Failed sign-ins one client address may have in the window, whatever the usernames. */
  maxFailuresPerAddress: number;
  windowSeconds: number;
}

/** A sign-in refused before its password was checked; the caller may try again after `retryAfterSeconds`. */
export class SignInThrottled extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed sign-ins; try again in ${retryAfterSeconds} seconds`);
    this.name = "SignInThrottled";
  }
}

/**
 * Limits password guessing by counting failed sign-ins in a sliding window, per username and per
 * client address, in the shared database (every replica counts the same failures). A key over its
 * limit waits until its oldest failure leaves the window: never a permanent lockout, so a stranger
 * failing on purpose can delay a real user by one window at most; a successful sign-in clears its
 * username's failures. Unknown usernames count like known ones, so the answer reveals nothing.
 * A username is counted per environment, as accounts are kept: guesses in the sandbox do not delay
 * the production account of the same name.
 */
export class SignInThrottle {
  constructor(
    private readonly db: Executor,
    private readonly settings: SignInThrottleSettings,
    private readonly environment: Environment,
  ) {}

  /** Throws SignInThrottled when the username or the address is over its limit. */
  async check(username: string, address: string, now: Date): Promise<void> {
    const keys = { [this.accountKey(username)]: this.settings.maxFailuresPerAccount, [addressKey(address)]: this.settings.maxFailuresPerAddress };
    const rows = await signInFailureRepository.countsSince(this.db, Object.keys(keys), this.windowStart(now));
    let waitMs = 0;
    for (const row of rows) {
      if (row.failures < keys[row.key] || !row.oldest) continue;
      waitMs = Math.max(waitMs, row.oldest.getTime() + this.settings.windowSeconds * 1000 - now.getTime());
    }
    if (waitMs > 0) throw new SignInThrottled(Math.max(1, Math.ceil(waitMs / 1000)));
  }

  async recordFailure(username: string, address: string, now: Date): Promise<void> {
    await signInFailureRepository.insert(this.db, [this.accountKey(username), addressKey(address)], now);
  }

  /** The username's failures are forgiven once its password is given; the address's are not. */
  async recordSuccess(username: string): Promise<void> {
    await signInFailureRepository.deleteOfKey(this.db, this.accountKey(username));
  }

  private windowStart(now: Date): Date {
    return windowStart(this.settings, now);
  }

  /** Digested: any string a caller sends is a key of fixed size; `Demo` and `demo` share one count. */
  private accountKey(username: string): string {
    return `account:${createHash("sha256").update(`${this.environment}:${username.toLowerCase()}`).digest("hex")}`;
  }
}

/** Removes failures that no longer count, of every environment (the worker runs this). */
export async function removeExpiredSignInFailures(db: Executor, settings: Pick<SignInThrottleSettings, "windowSeconds">, now: Date): Promise<number> {
  return signInFailureRepository.deleteUntil(db, windowStart(settings, now));
}

const windowStart = (settings: Pick<SignInThrottleSettings, "windowSeconds">, now: Date): Date => new Date(now.getTime() - settings.windowSeconds * 1000);
const addressKey = (address: string) => `address:${address}`;
