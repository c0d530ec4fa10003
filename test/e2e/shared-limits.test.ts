import { setTimeout as sleep } from "node:timers/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAccount, PASSWORD, startService, TOKEN_PATH } from "../../bench/cores/cores-core.js";
import { openOwnTestDatabase } from "../support/stack.js";

interface Answer {
  status: number;
  body: { extensions?: { cost?: { requestedQueryCost: number; actualQueryCost: number | null } }; errors?: { extensions: { reason?: string } }[] };
}

/** Each request on a connection of its own: the cluster hands connections to its processes in turn. */
function send(base: string, method: string, pathname: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${pathname}`, { method, headers: { ...headers, connection: "close" }, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : {} }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * The account's request rate and cost budget hold for the service as a whole, not per process:
 * `npm start` with WEB_CONCURRENCY=2 on PostgreSQL, requests alternating between the processes.
 * It runs with the PostgreSQL run only (vitest.config.ts): the embedded database serves one
 * process, whose limits test/security/throttling.test.ts holds.
 */
describe("API limits across the processes of a service", { timeout: 240_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "shared-limits-"));
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    for (const drop of drops) await drop();
  });

  it("admits about one limit of requests and one bucket of cost between both processes, not one each", async () => {
    const own = await openOwnTestDatabase();
    await own.database.close();
    drops.push(own.drop);
    const databaseUrl = own.url;
    const processes = 2;
    const options = { databaseUrl, dataDir };
    const username = await createAccount(options, "CONSUMER");
    // Windows are fixed, aligned to the clock: 40 requests straddling a boundary would fairly be
    // admitted twice over. An hour's window, started well clear of its end, keeps them in one.
    const windowMs = 3_600_000;
    const service = await startService(options, processes, {
      API_RATE_LIMIT: "20",
      API_RATE_LIMIT_WINDOW_SECONDS: String(windowMs / 1000),
      API_COST_BUDGET: "0",
    });
    try {
      const signIn = async () => {
        const form = new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password: PASSWORD }).toString();
        const answer = await send(service.base, "POST", TOKEN_PATH, { "content-type": "application/x-www-form-urlencoded" }, form);
        expect(answer.status).toBe(200);
        return (answer.body as unknown as { access_token: string }).access_token;
      };

      // Requests: 40 in turn, 20 allowed. Counted per process, two processes would admit 40.
      const rateToken = await signIn();
      const untilBoundary = windowMs - (Date.now() % windowMs);
      if (untilBoundary < 60_000) await sleep(untilBoundary + 1_000);
      let admitted = 0;
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const answer = await send(service.base, "GET", "/api/me", { authorization: `Bearer ${rateToken}` });
        statuses.push(answer.status);
        if (answer.status === 200) admitted++;
      }
      expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
      expect(admitted).toBeGreaterThanOrEqual(20);
      // Each process may admit a tenth of the limit more before its report reaches the other.
      expect(admitted).toBeLessThanOrEqual(20 + processes * 2);
      expect(statuses.slice(-10).every((status) => status === 429)).toBe(true);
    } finally {
      await service.stop();
    }

    // Cost: a second account, the request rate off.
    const costUser = await createAccount(options, "CONSUMER");
    // Each page costs more than a tenth of this bucket: the database decides each charge, exactly.
    const costService = await startService(options, processes, { API_RATE_LIMIT: "0", API_COST_BUDGET: "20000", API_COST_RESTORE_PER_SECOND: "1" });
    try {
      const form = new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username: costUser, password: PASSWORD }).toString();
      const token = ((await send(costService.base, "POST", TOKEN_PATH, { "content-type": "application/x-www-form-urlencoded" }, form)).body as unknown as { access_token: string }).access_token;
      // A page of the demo catalogue: every item answered, so each operation keeps most of its charge.
      const query = JSON.stringify({ query: `{ searchProducts(query: \"rating:>0\", first: 50) { nodes { id title { text } cityName countryCode } } }` });
      const answers: Answer[] = [];
      for (let i = 0; i < 60; i++) {
        const answer = await send(costService.base, "POST", "/graphql", { authorization: `Bearer ${token}`, "content-type": "application/json" }, query);
        answers.push(answer);
        if (answer.status === 429) break;
      }
      const admittedCosts = answers.filter((a) => a.status === 200).map((a) => a.body.extensions!.cost!.actualQueryCost!);
      const refused = answers.at(-1)!;
      expect(refused.status).toBe(429);
      expect(refused.body.errors![0].extensions.reason).toBe("COST_BUDGET");
      expect(admittedCosts.length).toBeGreaterThanOrEqual(2);
      // Both processes together kept within one bucket (each on its own would have let twice as much through).
      const spent = admittedCosts.reduce((sum, cost) => sum + cost, 0);
      expect(refused.body.extensions!.cost!.requestedQueryCost).toBeGreaterThan(2000);
      expect(spent).toBeLessThanOrEqual(20000 + 60);
      expect(spent + refused.body.extensions!.cost!.requestedQueryCost).toBeGreaterThan(20000 * 0.9);
    } finally {
      await costService.stop();
    }
  });
});
