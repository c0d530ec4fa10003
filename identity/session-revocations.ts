import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Database, Executor } from "../drizzle/database.js";
import { channels } from "../drizzle/events.js";
import { accountRepository } from "./account.repository.js";
import { refreshTokenRepository } from "./refresh-token.repository.js";

/** A session ended before its tokens expired (a replayed refresh token), or an account disabled. */
export type Revocation = { kind: "session"; sessionId: string; accountId: string; endsAt: number } | { kind: "account"; accountId: string };

/** Sent in the transaction that revokes, so that listeners hear of it once it is committed. */
export function publishRevocation(database: Database, executor: Executor, revocation: Revocation): Promise<void> {
  return database.events.publish(executor, channels.identityEvents, revocation);
}

/** Picked up even if a notification was lost (a dropped LISTEN connection). */
const RELOAD_INTERVAL_MS = 30_000;

/**
 * What this process knows of ended sessions and disabled accounts, so that tokens issued to them
 * stop working at once everywhere instead of running out their 300 seconds: loaded from the
 * database at start and every 30 s, and told of each revocation by the identity event channel.
 * Access tokens are otherwise verified without the database; this is a lookup in memory.
 */
export class SessionRevocations {
  /** Session id → when the session would have ended anyway (then it is forgotten). */
  private readonly sessions = new Map<string, number>();
  private readonly disabledAccounts = new Set<string>();
  private readonly listeners = new Set<(revocation: Revocation) => void>();
  private stopListening?: () => Promise<void>;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
  ) {}

  async start(logger: Logger): Promise<void> {
    this.stopListening = await this.database.events.subscribe(channels.identityEvents, (payload) => {
      if (isRevocation(payload)) this.apply(payload);
    });
    await this.reload();
    this.timer = setInterval(() => this.reload().catch((error) => logger.error({ err: error }, "reloading revoked sessions failed")), RELOAD_INTERVAL_MS);
    this.timer.unref();
  }

  /** Why tokens of this caller are no longer accepted, or undefined while they are. */
  reasonAgainst(caller: { sessionId: string; accountId: string }): "account disabled" | "session revoked" | undefined {
    if (this.disabledAccounts.has(caller.accountId)) return "account disabled";
    const endsAt = this.sessions.get(caller.sessionId);
    if (endsAt === undefined) return undefined;
    if (endsAt > this.clock.now().getTime()) return "session revoked";
    this.sessions.delete(caller.sessionId);
    return undefined;
  }

  /**
   * A revocation this process committed itself: applied at once, since its own notification comes
   * back later, and a request in between must not pass with the revoked token.
   */
  learn(revocation: Revocation): void {
    this.apply(revocation);
  }

  /** Called for each revocation learnt from now on (open connections close on it). */
  onRevocation(listener: (revocation: Revocation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.stopListening?.();
  }

  private apply(revocation: Revocation): void {
    const known = revocation.kind === "account" ? this.disabledAccounts.has(revocation.accountId) : this.sessions.has(revocation.sessionId);
    if (revocation.kind === "account") this.disabledAccounts.add(revocation.accountId);
    else this.sessions.set(revocation.sessionId, revocation.endsAt);
    if (!known) for (const listener of this.listeners) listener(revocation);
  }

  /**
   * Whether the account behind a verified token is still in the account store. Rows leave it only
   * by database administration (no event), so this is asked when a rule needs it, not tracked.
   */
  async accountExists(accountId: string): Promise<boolean> {
    return accountRepository.exists(this.database.db, accountId);
  }

  private async reload(): Promise<void> {
    const now = this.clock.now();
    for (const row of await refreshTokenRepository.revokedSessions(this.database.db, now)) this.apply({ kind: "session", sessionId: row.sessionId, accountId: row.accountId, endsAt: row.endsAt.getTime() });
    for (const accountId of await accountRepository.disabledIds(this.database.db)) this.apply({ kind: "account", accountId });
  }
}

function isRevocation(payload: unknown): payload is Revocation {
  if (typeof payload !== "object" || payload === null) return false;
  const value = payload as Record<string, unknown>;
  if (value.kind === "account") return typeof value.accountId === "string";
  return value.kind === "session" && typeof value.sessionId === "string" && typeof value.accountId === "string" && typeof value.endsAt === "number";
}
