import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../core/clock.js";
import { createLogger } from "../../core/logger.js";
import type { Database } from "../../drizzle/database.js";
import { accounts, passwordSetupTokens, refreshTokens, signInFailures } from "../../drizzle/schema.js";
import { startWorker } from "../../server/worker.js";
import { inProcessServiceGraphs } from "../../subgraphs/common/service.graph.js";
import { openOwnTestDatabase } from "../support/stack.js";

describe("worker housekeeping", () => {
  // Its own database: a purge at a clock of 2030 would end every other file's sessions.
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await openOwnTestDatabase());
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it("removes expired refresh tokens, long-expired setup links and sign-in failures past their window, and keeps live ones", async () => {
    const clock = new ManualClock(new Date("2030-01-01T12:00:00Z"));
    const [account] = await database.db.insert(accounts).values({ username: `worker-${randomUUID()}`, environment: "sandbox", roles: ["OPERATOR"] }).returning();
    const at = (minutes: number) => new Date(clock.now().getTime() + minutes * 60_000);
    const refresh = (hash: string, expiresAt: Date) => ({
      tokenHash: hash,
      sessionId: randomUUID(),
      accountId: account.id,
      environment: "sandbox" as const,
      sessionStartedAt: at(-60),
      expiresAt,
    });
    const ids = { expired: randomUUID(), live: randomUUID(), oldLink: randomUUID(), recentLink: randomUUID() };
    await database.db.insert(refreshTokens).values([refresh(ids.expired, at(-1)), refresh(ids.live, at(10))]);
    await database.db.insert(passwordSetupTokens).values([
      { tokenHash: ids.oldLink, accountId: account.id, expiresAt: at(-8 * 24 * 60) },
      { tokenHash: ids.recentLink, accountId: account.id, expiresAt: at(-60) },
    ]);

    const failureKey = `address:worker-test-${randomUUID()}`;
    await database.db.insert(signInFailures).values([
      { key: failureKey, failedAt: at(-16) },
      { key: failureKey, failedAt: at(-14) },
    ]);

    const worker = startWorker({ database, clock, logger: createLogger("silent"), loops: false, signIn: { maxFailuresPerAccount: 10, maxFailuresPerAddress: 100, windowSeconds: 900 }, graphs: inProcessServiceGraphs(() => undefined) });
    await worker.removeExpiredCredentials();
    await worker.stop();

    // Failed sign-ins older than the 15-minute window no longer count, and go.
    const failuresLeft = await database.db.select().from(signInFailures).where(eq(signInFailures.key, failureKey));
    expect(failuresLeft.map((f) => f.failedAt)).toEqual([at(-14)]);

    const refreshLeft = await database.db.select().from(refreshTokens).where(inArray(refreshTokens.tokenHash, [ids.expired, ids.live]));
    expect(refreshLeft.map((r) => r.tokenHash)).toEqual([ids.live]);
    const linksLeft = await database.db.select().from(passwordSetupTokens).where(eq(passwordSetupTokens.accountId, account.id));
    // A recently expired link stays a while, so the page can still say "expired" rather than "unknown".
    expect(linksLeft.map((l) => l.tokenHash)).toEqual([ids.recentLink]);
  });

  it("leaves credentials alone at start and in runOnce: only their own pass removes them", async () => {
    const clock = new ManualClock(new Date("2031-01-01T12:00:00Z"));
    const [account] = await database.db.insert(accounts).values({ username: `worker-${randomUUID()}`, environment: "sandbox", roles: ["CONSUMER"] }).returning();
    // A session of today: long expired by the worker's clock.
    const hash = randomUUID();
    await database.db.insert(refreshTokens).values({ tokenHash: hash, sessionId: randomUUID(), accountId: account.id, environment: "sandbox", sessionStartedAt: new Date(), expiresAt: new Date(Date.now() + 30 * 60_000) });
    const left = async () => (await database.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hash))).length;

    const worker = startWorker({ database, clock, logger: createLogger("silent"), loops: true, signIn: { maxFailuresPerAccount: 10, maxFailuresPerAddress: 100, windowSeconds: 900 }, graphs: inProcessServiceGraphs(() => undefined) });
    await worker.runOnce();
    expect(await left()).toBe(1);
    await worker.removeExpiredCredentials();
    expect(await left()).toBe(0);
    await worker.stop();
  });
});
