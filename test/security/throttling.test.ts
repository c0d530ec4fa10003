import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../core/clock.js";
import { PASSWORD_HASHING } from "../../identity/passwords.js";
import { restClient } from "../support/catalogue.js";
import { openOwnTestDatabase, startStack, type Stack } from "../support/stack.js";
import type { Database } from "../../drizzle/database.js";

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { error?: string; error_description?: string; access_token?: string };
}

async function tokenRequest(stack: Stack, username: string, password: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(stack.tokenUrl, {
    method: "POST",
    headers,
    body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password }),
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Answer["body"] };
}

/** Each block its own database: the failures it counts are its own. */
function throttledStack(env: Record<string, string>, clock?: ManualClock) {
  const handle = {} as { stack: Stack; database: Database; drop: () => Promise<void> };
  beforeAll(async () => {
    const own = await openOwnTestDatabase();
    Object.assign(handle, { database: own.database, drop: own.drop });
    handle.stack = await startStack({ database: own.database, clock, env: { WORKER_LOOPS: "false", ...env } });
  });
  afterAll(async () => {
    await handle.stack?.close();
    await handle.database?.close();
    await handle.drop?.();
  });
  return handle;
}

describe("sign-in throttling", () => {
  describe("per account", () => {
    const clock = new ManualClock(new Date("2026-11-23T10:00:00Z"));
    const t = throttledStack({ SIGN_IN_MAX_FAILURES_PER_ACCOUNT: "3", SIGN_IN_WINDOW_SECONDS: "900" }, clock);

    it("answers 429 with Retry-After after the allowed failures, even for the right password, and lets the user in once the window has passed", async () => {
      const { username, password } = await t.stack.createAccount("CONSUMER");
      for (let i = 0; i < 3; i++) expect((await tokenRequest(t.stack, username, `wrong-${i}`)).body.error).toBe("invalid_grant");
      const throttled = await tokenRequest(t.stack, username, "wrong-again");
      expect(throttled).toMatchObject({ status: 429, retryAfter: "900", body: { error: "slow_down", error_description: expect.stringContaining("900 seconds") } });
      // The right password is not checked while throttled: the answer cannot confirm a guess.
      const right = await tokenRequest(t.stack, username, password);
      expect(right.status).toBe(429);
      clock.advance(600);
      expect((await tokenRequest(t.stack, username, password)).retryAfter).toBe("300");
      clock.advance(300.001);
      const afterWindow = await tokenRequest(t.stack, username, password);
      expect(afterWindow.status).toBe(200);
      // Success forgives the account's failures: three more guesses are allowed again.
      expect((await tokenRequest(t.stack, username, "wrong-after")).status).toBe(400);
    });

    it("counts unknown usernames like real ones, so throttling reveals no account", async () => {
      const unknown = `nobody-${Date.now()}`;
      for (let i = 0; i < 3; i++) expect((await tokenRequest(t.stack, unknown, "guess")).status).toBe(400);
      expect((await tokenRequest(t.stack, unknown, "guess")).status).toBe(429);
    });

    it("does not let a flood of parallel guesses past the limit: each is judged once it may hash", async () => {
      const { username } = await t.stack.createAccount("CONSUMER");
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => tokenRequest(t.stack, username, `parallel-${i}`)));
      const statuses = answers.map((a) => a.status);
      expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
      // At most one guess per hashing slot can be judged before the failure ahead of it is recorded.
      expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(3 + PASSWORD_HASHING.maxRunning - 1);
    });
  });

  describe("per client address", () => {
    const t = throttledStack({ SIGN_IN_MAX_FAILURES_PER_ADDRESS: "5" });

    it("throttles an address guessing across usernames, whatever X-Forwarded-For says when no proxy is trusted", async () => {
      for (let i = 0; i < 5; i++) {
        expect((await tokenRequest(t.stack, `spray-${i}-${Date.now()}`, "Winter2026!", { "x-forwarded-for": `203.0.113.${i}` })).status).toBe(400);
      }
      const throttled = await tokenRequest(t.stack, `spray-next-${Date.now()}`, "Winter2026!", { "x-forwarded-for": "198.51.100.7" });
      expect(throttled.status).toBe(429);
      expect(Number(throttled.retryAfter)).toBeGreaterThan(0);
    });
  });

  describe("behind a trusted proxy", () => {
    const t = throttledStack({ SIGN_IN_MAX_FAILURES_PER_ADDRESS: "2", TRUST_PROXY: "127.0.0.1" });

    it("counts the client address the proxy reports", async () => {
      for (let i = 0; i < 2; i++) expect((await tokenRequest(t.stack, `proxied-${i}-${Date.now()}`, "guess", { "x-forwarded-for": "203.0.113.10" })).status).toBe(400);
      expect((await tokenRequest(t.stack, `proxied-x-${Date.now()}`, "guess", { "x-forwarded-for": "203.0.113.10" })).status).toBe(429);
      // Another client behind the same proxy is not held up by the first one's failures.
      expect((await tokenRequest(t.stack, `proxied-y-${Date.now()}`, "guess", { "x-forwarded-for": "203.0.113.11" })).status).toBe(400);
    });
  });

  describe("password hashing under a flood", () => {
    // Each sign-in from an address of its own: one address alone gets only its share (sign-in-fairness.test.ts).
    const t = throttledStack({ TRUST_PROXY: "127.0.0.1" });

    it("refuses sign-ins beyond the hashing queue with 503 and Retry-After instead of queueing without end", async () => {
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => tokenRequest(t.stack, `flood-${i}-${Date.now()}`, "flood password", { "x-forwarded-for": `198.18.${i >> 8}.${i & 255}` })),
      );
      const statuses = new Set(answers.map((a) => a.status));
      expect([...statuses].sort()).toEqual([400, 503]);
      const busy = answers.find((a) => a.status === 503)!;
      expect(busy).toMatchObject({ retryAfter: "1", body: { error: "temporarily_unavailable" } });
    });
  });
});

describe("API rate limit per account", () => {
  const clock = new ManualClock(new Date("2026-11-23T10:00:00Z"));
  const t = throttledStack({ API_RATE_LIMIT: "5", API_RATE_LIMIT_WINDOW_SECONDS: "60" }, clock);

  it("tells the account its budget in RateLimit headers and answers 429 with Retry-After beyond it, on REST and GraphQL alike", async () => {
    const token = await t.stack.tokenFor("CONSUMER");
    const rest = restClient(t.stack, token);
    const first = await rest.get("/api/me");
    expect(first.status).toBe(200);
    expect(Object.fromEntries(["ratelimit-limit", "ratelimit-remaining", "ratelimit-policy"].map((h) => [h, first.headers.get(h)]))).toEqual({
      "ratelimit-limit": "5",
      "ratelimit-remaining": "4",
      "ratelimit-policy": "5;w=60",
    });
    expect(Number(first.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) expect((await rest.get("/api/me")).status).toBe(200);
    const refused = await rest.get("/api/me");
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ status: 429, code: "TOO_MANY_REQUESTS", requestId: expect.any(String) });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const graphql = await fetch(`${t.stack.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ me { id } }" }),
    });
    expect(graphql.status).toBe(429);
    expect(((await graphql.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe("TOO_MANY_REQUESTS");

    // Another account has its own budget; the next window starts afresh.
    expect((await restClient(t.stack, await t.stack.tokenFor("CONSUMER")).get("/api/me")).status).toBe(200);
    clock.advance(60);
    expect((await rest.get("/api/me")).status).toBe(200);
  });
});
