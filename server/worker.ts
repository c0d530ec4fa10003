import { lt } from "drizzle-orm";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../drizzle/database.js";
import { passwordSetupTokens } from "../drizzle/schema.js";
import { refreshTokenRepository } from "../identity/refresh-token.repository.js";

export interface Worker {
  /** Runs every task once now; the loop calls this on its interval. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/** Keeps a spent link a week, so the page can still say "already used" rather than "unknown". */
const SPENT_LINK_RETENTION_MS = 7 * 24 * 3600 * 1000;

/**
 * Background work of the service. Now: removing expired refresh tokens and old password-setup
 * links. Every task is idempotent, so any number of workers may run at once.
 */
export function startWorker(deps: { database: Database; logger: Logger; clock: Clock; intervalMs?: number }): Worker {
  const logger = deps.logger.child({ role: "worker" });
  let running: Promise<void> | undefined;
  const runOnce = async () => {
    const now = deps.clock.now();
    const refreshRemoved = await refreshTokenRepository.deleteExpired(deps.database.db, now);
    const linksRemoved = await deps.database.db
      .delete(passwordSetupTokens)
      .where(lt(passwordSetupTokens.expiresAt, new Date(now.getTime() - SPENT_LINK_RETENTION_MS)))
      .returning({ hash: passwordSetupTokens.tokenHash });
    if (refreshRemoved || linksRemoved.length) {
      logger.info({ refreshRemoved, linksRemoved: linksRemoved.length }, "removed expired credentials");
    }
  };
  const tick = () => {
    running = runOnce()
      .catch((error) => logger.error({ err: error }, "worker task failed"))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, deps.intervalMs ?? 10 * 60 * 1000);
  timer.unref();
  tick();
  return {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
