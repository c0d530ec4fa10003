import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.js";
import { accountRepository } from "../../identity/account.repository.js";
import { builtServiceCommand } from "../support/built-service.js";
import { startProcess, stopAndWait, until } from "../support/child-process.js";
import { templateBooking } from "../support/reporting.js";
import { getJson, graphql, openOwnTestDatabase, startStack, type Stack } from "../support/stack.js";
import { wsClient, wsOutcome } from "../support/ws-client.js";
import type { Database } from "../../drizzle/database.js";

function stackWith(env: Record<string, string>) {
  const handle = {} as { stack: Stack; database: Database; drop: () => Promise<void> };
  beforeAll(async () => {
    const own = await openOwnTestDatabase();
    Object.assign(handle, { database: own.database, drop: own.drop });
    handle.stack = await startStack({ database: own.database, env: { WORKER_LOOPS: "false", ...env } });
  });
  afterAll(async () => {
    await handle.stack?.close();
    await handle.database?.close();
    await handle.drop?.();
  });
  return handle;
}

const introspection = "{ __schema { queryType { name } } }";

describe("production defaults", () => {
  it("turn the demo seed, introspection, suggestions, the GraphQL IDE and forwarded headers off; each can be asked for", () => {
    const production = loadConfig({ ENVIRONMENT: "production" });
    expect(production).toMatchObject({ seedDemo: false, graphql: { introspection: false, suggestions: false }, graphqlIde: false, trustProxy: false });
    const sandbox = loadConfig({});
    expect(sandbox).toMatchObject({ seedDemo: true, graphql: { introspection: true, suggestions: true }, graphqlIde: true, trustProxy: false });
    expect(loadConfig({ ENVIRONMENT: "production", SEED_DEMO: "true", GRAPHQL_INTROSPECTION: "true", GRAPHQL_IDE: "true", TRUST_PROXY: "10.0.0.0/8" })).toMatchObject({
      seedDemo: true,
      graphql: { introspection: true, suggestions: false },
      graphqlIde: true,
      trustProxy: "10.0.0.0/8",
    });
    expect(loadConfig({ GRAPHQL_IDE: "false" }).graphqlIde).toBe(false);
  });

  describe("a production service", () => {
    const t = stackWith({ ENVIRONMENT: "production", SEED_DEMO: "true" });

    it("seeds, when asked, no account that administers the platform, and no sandbox password", async () => {
      const seeded = t.stack.service.seeded;
      expect(seeded.map((a) => a.role).sort()).toEqual(["CONSUMER", "CONSUMER", "CONTENT_PARTNER"]);
      for (const account of seeded) expect(account.password).not.toMatch(/^sandbox-/);
      for (const username of ["demo-operator", "demo-platform"]) expect(await accountRepository.byUsername(t.database.db, "production", username)).toBeUndefined();
    });

    it("refuses introspection over HTTP and graphql-ws, and names no field a caller did not know", async () => {
      const token = await t.stack.tokenFor("CONSUMER");
      const http = await graphql(`${t.stack.url}/graphql`, token, introspection);
      expect(http.status).toBe(400);
      expect(http.body.errors?.[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
      const typo = await graphql(`${t.stack.url}/graphql`, token, "{ mee { id } }");
      expect(typo.body.errors?.[0].message).toBe('Cannot query field "mee" on type "Query".');

      const client = wsClient(t.stack, token);
      try {
        for (const query of [introspection, "{ mee { id } }"]) {
          const { errors } = await wsOutcome(client, query);
          expect(errors?.[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
          expect(errors?.[0].message).not.toMatch(/Did you mean/);
        }
      } finally {
        await client.dispose();
      }
    });

    it("serves no GraphQL IDE and no other page to a browser: /graphql answers as to any client", async () => {
      const page = await fetch(`${t.stack.url}/graphql`, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
      expect(page.status).toBe(401);
      expect(page.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await page.json()).toEqual({ errors: [{ message: expect.any(String), extensions: { code: "UNAUTHENTICATED" } }] });
      // Signed in, still no page: Apollo's landing page (scripts from its CDN) is off too.
      const token = await t.stack.tokenFor("CONSUMER");
      const signedIn = await fetch(`${t.stack.url}/graphql`, { headers: { accept: "text/html", authorization: `Bearer ${token}` } });
      expect(signedIn.headers.get("content-type")).not.toMatch(/html/);
      expect(await signedIn.text()).not.toMatch(/<html|cdn|embeddable/i);
      expect((await fetch(`${t.stack.url}/graphql/ide/ide.js`)).status).toBe(404);
    });
  });

  describe("a production service that asks for introspection", () => {
    const t = stackWith({ ENVIRONMENT: "production", GRAPHQL_INTROSPECTION: "true", GRAPHQL_SUGGESTIONS: "true" });

    it("answers it, and suggests fields", async () => {
      const token = await t.stack.tokenFor("CONSUMER");
      expect((await graphql(`${t.stack.url}/graphql`, token, introspection)).body.data).toEqual({ __schema: { queryType: { name: "Query" } } });
      expect((await graphql(`${t.stack.url}/graphql`, token, "{ mee { id } }")).body.errors?.[0].message).toMatch(/Did you mean "me"\?/);
    });
  });

  // The child runs on the embedded database whatever DATABASE_URL says, so the PostgreSQL run of
  // the suite would repeat it unchanged (about 16 s of a worker in CI).
  if (!process.env.DATABASE_URL) it("prints no demo account on a production start, and seeds nothing", async () => {
    // The production command: the compiled build.
    const running = startProcess({ ENVIRONMENT: "production", DATA_DIR: "memory", PORT: "0" }, [], await builtServiceCommand());
    await until("the start-up lines", async () => (running.output().includes("Health:") ? true : undefined));
    expect(await stopAndWait(running)).toBe(0);
    expect(running.output()).toContain("role all, production");
    expect(running.output()).not.toMatch(/Demo accounts|Demo catalogue|demo-|password/i);
  }, 120_000);
});

describe("answers carry no caller-steered links and no cacheable personal data", () => {
  const publicUrl = "https://api.activities.example";
  const t = stackWith({ PUBLIC_URL: publicUrl });

  it("builds paging links from PUBLIC_URL, whatever Host and X-Forwarded-* say", async () => {
    const { buyer } = await templateBooking(t.stack);
    const steer = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http", "x-forwarded-prefix": "/x" };
    const reports = await getJson(`${t.stack.url}/reporting/v1/bookings?page[limit]=1`, buyer.token, steer);
    expect(reports.status).toBe(200);
    for (const link of Object.values(reports.body.meta.links as Record<string, string>).filter(Boolean)) expect(link.startsWith(`${publicUrl}/reporting/v1/bookings?`)).toBe(true);
    const imports = await getJson(`${t.stack.url}/content/v0/import/activities/active?page[limit]=1`, buyer.token, steer);
    expect(imports.status).toBe(200);
    expect(imports.body.meta.links.self.startsWith(`${publicUrl}/content/v0/import/activities/active?`)).toBe(true);
  });

  it("sends security headers on every answer, and no-store on every answer of an API path", async () => {
    const { buyer, bookingId } = await templateBooking(t.stack);
    const answers = {
      booking: await fetch(`${t.stack.url}/booking-flow/v1/bookings/${bookingId}`, { headers: { authorization: `Bearer ${buyer.token}` } }),
      account: await fetch(`${t.stack.url}/api/me`, { headers: { authorization: `Bearer ${buyer.token}` } }),
      graphql: await fetch(`${t.stack.url}/graphql`, { method: "POST", headers: { authorization: `Bearer ${buyer.token}`, "content-type": "application/json" }, body: JSON.stringify({ query: "{ me { id } }" }) }),
      refused: await fetch(`${t.stack.url}/api/me`),
      token: await fetch(t.stack.tokenUrl, { method: "POST", body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username: "x", password: "y" }) }),
    };
    for (const [name, response] of Object.entries(answers)) {
      await response.arrayBuffer();
      expect(response.headers.get("x-content-type-options"), name).toBe("nosniff");
      expect(response.headers.get("cache-control"), name).toBe("no-store");
      expect(response.headers.get("x-frame-options"), name).toBe("SAMEORIGIN");
      expect(response.headers.get("referrer-policy"), name).toBe("no-referrer");
      expect(response.headers.get("strict-transport-security"), name).toMatch(/^max-age=\d+; includeSubDomains$/);
      expect(response.headers.get("cross-origin-resource-policy"), name).toBe("same-origin");
      expect(response.headers.get("x-powered-by"), name).toBeNull();
    }
    expect(answers.booking.status).toBe(200);
    expect(answers.account.headers.get("content-security-policy")).toBe("default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'");
    const health = await fetch(`${t.stack.url}/health/live`);
    expect(health.headers.get("x-content-type-options")).toBe("nosniff");
    const console = await fetch(`${t.stack.url}/api/content-partner/swagger-ui/index.html`);
    await console.arrayBuffer();
    expect(console.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
    expect(console.headers.get("content-security-policy")).not.toMatch(/upgrade-insecure-requests/);
  });
});
