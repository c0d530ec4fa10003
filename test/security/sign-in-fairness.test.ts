import { describe, expect, it } from "vitest";
import { useStack, type Stack } from "../support/stack.js";

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { error?: string; error_description?: string; access_token?: string };
}

async function signIn(stack: Stack, username: string, password: string, address: string): Promise<Answer> {
  const response = await fetch(stack.tokenUrl, {
    method: "POST",
    headers: { "x-forwarded-for": address },
    body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password }),
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Answer["body"] };
}

/**
 * Issue 41, item 4: successful sign-ins were not throttled. 48 concurrent correct sign-ins of one
 * account filled the password-hashing pool, and other accounts' sign-ins got 503. Each account and
 * each client address now has a share of the pool (SIGN_IN_MAX_CONCURRENT_PER_ACCOUNT, 4;
 * SIGN_IN_MAX_CONCURRENT_PER_ADDRESS, 16): beyond it a sign-in is answered 429 `slow_down` with
 * Retry-After at once, and the addresses waiting are served in turn.
 */
describe("sign-in fairness", () => {
  // The client address comes from X-Forwarded-For, as behind a proxy: one loopback, many clients.
  const t = useStack({ env: { TRUST_PROXY: "127.0.0.1", WORKER_LOOPS: "false" } });

  /** `workers` loops signing in until `stop` says so; every answer is kept. */
  function flood(workers: number, attempt: (worker: number) => Promise<Answer>) {
    const answers: Answer[] = [];
    let stopped = false;
    const running = Promise.all(
      Array.from({ length: workers }, async (_, worker) => {
        while (!stopped) answers.push(await attempt(worker));
      }),
    );
    return {
      answers,
      stop: async () => {
        stopped = true;
        await running;
        return answers;
      },
    };
  }

  it("signs in another account from elsewhere while one account floods with 48 concurrent correct sign-ins", async () => {
    const flooded = await t.stack.createAccount("CONSUMER");
    const other = await t.stack.createAccount("CONSUMER");
    const attack = flood(48, () => signIn(t.stack, flooded.username, flooded.password, "203.0.113.5"));
    try {
      // The flood is established once every worker has been answered about once.
      await expect.poll(() => attack.answers.length, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(48);
      for (let i = 0; i < 3; i++) {
        const victim = await signIn(t.stack, other.username, other.password, "198.51.100.20");
        expect(victim.status, JSON.stringify(victim.body)).toBe(200);
        expect(victim.body.access_token).toEqual(expect.any(String));
      }
    } finally {
      await attack.stop();
    }
    const statuses = new Set(attack.answers.map((answer) => answer.status));
    // The flooding account itself still signs in, a few at a time; the rest is told to slow down.
    expect([...statuses].sort()).toEqual([200, 429]);
    for (const refused of attack.answers.filter((answer) => answer.status === 429)) {
      expect(refused).toMatchObject({ retryAfter: "1", body: { error: "slow_down", error_description: expect.stringContaining("of this account") } });
    }
    expect(t.stack.service.identity.hashing.stats()).toMatchObject({ running: 0, waiting: 0, accounts: 0, addresses: 0 });
  }, 120_000);

  it("gives an address trying many accounts its share, and still signs in another address's account", async () => {
    const other = await t.stack.createAccount("CONSUMER");
    const spray = flood(40, (worker) => signIn(t.stack, `sprayed-${worker}-${Date.now()}`, "Winter2026!", "203.0.113.77"));
    try {
      await expect.poll(() => spray.answers.length, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(40);
      const victim = await signIn(t.stack, other.username, other.password, "198.51.100.21");
      expect(victim.status, JSON.stringify(victim.body)).toBe(200);
    } finally {
      await spray.stop();
    }
    expect([...new Set(spray.answers.map((answer) => answer.status))].sort()).toEqual([400, 429]);
    expect(spray.answers.find((answer) => answer.status === 429)).toMatchObject({ retryAfter: "1", body: { error: "slow_down", error_description: expect.stringContaining("from this address") } });
  }, 120_000);

  it("never refuses a single user's ordinary sign-ins: a few at once, and one after another", async () => {
    const user = await t.stack.createAccount("CONSUMER");
    const together = await Promise.all(Array.from({ length: 4 }, () => signIn(t.stack, user.username, user.password, "192.0.2.44")));
    expect(together.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    for (let i = 0; i < 10; i++) expect((await signIn(t.stack, user.username, user.password, "192.0.2.44")).status).toBe(200);
  }, 60_000);
});
