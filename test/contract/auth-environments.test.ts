import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../drizzle/database.js";
import { accounts } from "../../drizzle/schema.js";
import { until } from "../support/child-process.js";
import { seedDemo } from "../../seed/demo.js";
import { getJson, graphql, openOwnTestDatabase, openTestDatabase, startStack, type Stack } from "../support/stack.js";

/**
 * Sandbox and production share nothing a token or an account can cross: each has its own signing
 * keys, `env` claim and accounts. Here both run on one database, the hardest case for that
 * separation (docs/spec-decisions.md, "An account belongs to one environment").
 */
describe("tokens and accounts are bound to the environment that made them", () => {
  let database: Database;
  let sandbox: Stack;
  let production: Stack;

  beforeAll(async () => {
    database = await openTestDatabase();
    // Few failures per username, so the throttling test reaches the limit in a few guesses.
    sandbox = await startStack({ database, env: { ENVIRONMENT: "sandbox", SIGN_IN_MAX_FAILURES_PER_ACCOUNT: "3" } });
    production = await startStack({ database, env: { ENVIRONMENT: "production", SIGN_IN_MAX_FAILURES_PER_ACCOUNT: "3" } });
  });
  afterAll(async () => {
    await sandbox?.close();
    await production?.close();
    await database?.close();
  });

  const grant = async (stack: Stack, fields: Record<string, string>) => {
    const response = await fetch(stack.tokenUrl, { method: "POST", body: new URLSearchParams({ client_id: "content-partner-api", ...fields }) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const passwordGrant = (stack: Stack, username: string, password: string) => grant(stack, { grant_type: "password", username, password });
  const refreshGrant = (stack: Stack, refreshToken: string) => grant(stack, { grant_type: "refresh_token", refresh_token: refreshToken });
  const unknownUser = { status: 400, body: { error: "invalid_grant", error_description: "Invalid user credentials" } };

  it("refuses a sandbox token in production and a production token in the sandbox", async () => {
    const sandboxAccount = await sandbox.createAccount("CONSUMER");
    const productionAccount = await production.createAccount("CONSUMER");
    const sandboxToken = (await sandbox.login(sandboxAccount.username, sandboxAccount.password)).access_token;
    const productionToken = (await production.login(productionAccount.username, productionAccount.password)).access_token;

    expect((await getJson(`${sandbox.url}/api/me`, sandboxToken)).body.environment).toBe("sandbox");
    expect((await getJson(`${production.url}/api/me`, productionToken)).body.environment).toBe("production");

    const crossRest = await getJson(`${production.url}/api/me`, sandboxToken);
    expect(crossRest.status).toBe(401);
    expect(crossRest.body.code).toBe("UNAUTHENTICATED");
    const crossGraph = await graphql(`${sandbox.url}/graphql`, productionToken, "{ me { username } }");
    expect(crossGraph.status).toBe(401);
    expect(crossGraph.body.errors?.[0].extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("signs an account in to its own environment only: the other answers as for an unknown user", async () => {
    for (const [home, other] of [
      [sandbox, production],
      [production, sandbox],
    ]) {
      const { username, password } = await home.createAccount("PLATFORM_CATALOG_MANAGEMENT");
      const signedIn = await passwordGrant(home, username, password);
      expect(signedIn.status).toBe(200);
      expect((await getJson(`${home.url}/api/me`, signedIn.body.access_token as string)).body).toMatchObject({ username, environment: home.config.environment });
      expect(await passwordGrant(other, username, password)).toEqual(unknownUser);
      // Whatever the case of the name: a username is looked up within the environment only.
      expect(await passwordGrant(other, username.toUpperCase(), password)).toEqual(unknownUser);
    }
  });

  it("keeps a username of each environment as two accounts, each with its own password", async () => {
    const username = `both-${randomUUID().slice(0, 8)}`;
    await sandbox.service.identity.accounts.createAccount({ username, role: "OPERATOR", password: "sandbox password 1" });
    await production.service.identity.accounts.createAccount({ username, role: "OPERATOR", password: "production password 1" });
    await expect(production.service.identity.accounts.createAccount({ username: username.toUpperCase(), role: "OPERATOR", password: "another password 1" })).rejects.toThrow(/production environment already has an account named/);

    const inSandbox = await passwordGrant(sandbox, username, "sandbox password 1");
    const inProduction = await passwordGrant(production, username, "production password 1");
    expect([inSandbox.status, inProduction.status]).toEqual([200, 200]);
    expect(await passwordGrant(sandbox, username, "production password 1")).toEqual(unknownUser);
    expect(await passwordGrant(production, username, "sandbox password 1")).toEqual(unknownUser);
    const sandboxMe = (await getJson(`${sandbox.url}/api/me`, inSandbox.body.access_token as string)).body;
    const productionMe = (await getJson(`${production.url}/api/me`, inProduction.body.access_token as string)).body;
    expect(sandboxMe.id).not.toBe(productionMe.id);
  });

  it("refreshes a session in the environment that began it, and refuses its refresh token in the other", async () => {
    for (const [home, other] of [
      [sandbox, production],
      [production, sandbox],
    ]) {
      const { username, password } = await home.createAccount("CONSUMER");
      const { refresh_token } = await home.login(username, password);
      const crossed = await refreshGrant(other, refresh_token);
      expect(crossed.status).toBe(400);
      expect(crossed.body).toMatchObject({ error: "invalid_grant", error_description: `Refresh token was issued by the ${home.config.environment} environment` });
      // Refused before it was spent: the environment that issued it still refreshes with it.
      const refreshed = await refreshGrant(home, refresh_token);
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.access_token).toEqual(expect.any(String));
    }
  });

  it("refuses to refresh a session once its account belongs to the other environment", async () => {
    const { username, password } = await sandbox.createAccount("CONSUMER");
    const { refresh_token } = await sandbox.login(username, password);
    // What the migration that introduced environments does to an account of a database production alone used.
    await database.db.update(accounts).set({ environment: "production" }).where(sql`lower(${accounts.username}) = lower(${username})`);
    expect(await refreshGrant(sandbox, refresh_token)).toEqual({ status: 400, body: { error: "invalid_grant", error_description: "The account belongs to the production environment" } });
    expect(await passwordGrant(sandbox, username, password)).toEqual(unknownUser);
    expect((await passwordGrant(production, username, password)).status).toBe(200);
  });

  it("moves an account to the other environment: its password goes with it, its sessions end", async () => {
    const { username, password } = await sandbox.createAccount("CONSUMER");
    const session = await sandbox.login(username, password);
    const moved = await production.service.identity.accounts.moveAccountHere(username);
    expect(moved).toMatchObject({ username, environment: "production" });

    expect((await refreshGrant(sandbox, session.refresh_token)).body).toMatchObject({ error: "invalid_grant" });
    await until("the sandbox refuses the moved account's access token", async () => ((await getJson(`${sandbox.url}/api/me`, session.access_token)).status === 401 ? true : undefined), 30_000);
    expect(await passwordGrant(sandbox, username, password)).toEqual(unknownUser);
    const signedIn = await passwordGrant(production, username, password);
    expect(signedIn.status).toBe(200);
    expect((await getJson(`${production.url}/api/me`, signedIn.body.access_token as string)).body).toMatchObject({ username, environment: "production" });

    // Only from the other environment, and never onto a name the environment already has.
    await expect(production.service.identity.accounts.moveAccountHere(username)).rejects.toThrow(`the sandbox environment has no account named ${username}`);
    const taken = await sandbox.createAccount("CONSUMER");
    await production.service.identity.accounts.createAccount({ username: taken.username, role: "OPERATOR", password: "production password 2" });
    await expect(production.service.identity.accounts.moveAccountHere(taken.username)).rejects.toThrow(`the production environment already has an account named ${taken.username}`);
    expect((await passwordGrant(sandbox, taken.username, taken.password)).status).toBe(200);
  });

  it("sets a password through a link only on the page of the link's environment", async () => {
    for (const [home, other] of [
      [sandbox, production],
      [production, sandbox],
    ]) {
      const username = `link-${randomUUID().slice(0, 8)}`;
      const { passwordSetupUrl } = await home.service.identity.accounts.createAccount({ username, role: "OPERATOR" });
      const link = new URL(passwordSetupUrl!);
      const token = link.searchParams.get("token")!;
      const page = (stack: Stack) => fetch(`${stack.url}${link.pathname}${link.search}`);
      const submit = (stack: Stack, password: string) => fetch(`${stack.url}${link.pathname}`, { method: "POST", body: new URLSearchParams({ token, password, confirmation: password }) });

      const shown = await page(other);
      expect(shown.status).toBe(404);
      expect(await shown.text()).toContain(`This link is for an account of the ${home.config.environment} environment`);
      const set = await submit(other, "chosen in the wrong place");
      expect(set.status).toBe(404);
      expect(await passwordGrant(home, username, "chosen in the wrong place")).toEqual(unknownUser);

      expect((await page(home)).status).toBe(200);
      expect((await submit(home, "chosen in the right place")).status).toBe(200);
      expect((await passwordGrant(home, username, "chosen in the right place")).status).toBe(200);
    }
  });

  it("counts failed sign-ins per environment: guesses in one do not delay the other's account of that name", async () => {
    const username = `guessed-${randomUUID().slice(0, 8)}`;
    await sandbox.service.identity.accounts.createAccount({ username, role: "OPERATOR", password: "sandbox password 2" });
    await production.service.identity.accounts.createAccount({ username, role: "OPERATOR", password: "production password 3" });
    const limit = sandbox.config.signIn.maxFailuresPerAccount;
    for (let i = 0; i < limit; i++) expect((await passwordGrant(sandbox, username, `wrong guess ${i}`)).status).toBe(400);
    expect((await passwordGrant(sandbox, username, "sandbox password 2")).status).toBe(429);
    expect((await passwordGrant(production, username, "production password 3")).status).toBe(200);
  });

  it("publishes different keys per environment", async () => {
    const sandboxKeys = (await getJson(`${sandbox.url}/auth/realms/activities/protocol/openid-connect/certs`)).body.keys.map((k: { kid: string }) => k.kid);
    const productionKeys = (await getJson(`${production.url}/auth/realms/activities/protocol/openid-connect/certs`)).body.keys.map((k: { kid: string }) => k.kid);
    expect(sandboxKeys.some((kid: string) => productionKeys.includes(kid))).toBe(false);
  });
});

describe("the sandbox's demo accounts on a database production shares", () => {
  it("sign in to the sandbox with their printed passwords, never to production", async () => {
    const own = await openOwnTestDatabase();
    const sandbox = await startStack({ database: own.database, env: { ENVIRONMENT: "sandbox" } });
    const production = await startStack({ database: own.database, env: { ENVIRONMENT: "production" } });
    try {
      const seeded = await seedDemo(own.database, sandbox.service.identity.accounts, "sandbox");
      const platform = seeded.find((account) => account.role === "PLATFORM_CATALOG_MANAGEMENT")!;
      expect(platform).toMatchObject({ username: "demo-platform", password: "sandbox-catalogue-2026" });
      for (const { username, password } of seeded) {
        const refused = await fetch(production.tokenUrl, { method: "POST", body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password }) });
        expect({ username, status: refused.status, body: await refused.json() }).toEqual({ username, status: 400, body: { error: "invalid_grant", error_description: "Invalid user credentials" } });
        expect((await sandbox.login(username, password)).access_token).toEqual(expect.any(String));
      }
      // Production's own seed, when asked for, makes production accounts of those names beside them.
      const productionSeeded = await seedDemo(own.database, production.service.identity.accounts, "production");
      expect(productionSeeded.map((account) => account.username).sort()).toEqual(["demo-consumer", "demo-partner", "demo-reseller"]);
      const partner = productionSeeded.find((account) => account.username === "demo-partner")!;
      expect((await getJson(`${production.url}/api/me`, (await production.login(partner.username, partner.password)).access_token)).body).toMatchObject({ environment: "production", organisation: { name: "Alpine Experiences AG" } });
      await expect(production.login("demo-partner", "sandbox-content-2026")).rejects.toThrow(/400/);
    } finally {
      await sandbox.close();
      await production.close();
      await own.database.close();
      await own.drop();
    }
  });
});

describe("signing keys survive a restart", () => {
  it("accepts, after a restart, a token issued before it", async () => {
    const database = await openTestDatabase();
    const env = { PUBLIC_URL: "https://sandbox.activities.test" };
    const before = await startStack({ database, env });
    const { username, password } = await before.createAccount("CONSUMER");
    const token = (await before.login(username, password)).access_token;
    await before.close();

    const after = await startStack({ database, env });
    try {
      const response = await getJson(`${after.url}/api/me`, token);
      expect(response.status).toBe(200);
      expect(response.body.username).toBe(username);
    } finally {
      await after.close();
      await database.close();
    }
  });
});

describe("the realm comes from configuration", () => {
  it("serves the identity paths under AUTH_REALM", async () => {
    const database = await openTestDatabase();
    const stack = await startStack({ database, env: { AUTH_REALM: "partners" } });
    try {
      expect(stack.tokenUrl).toBe(`${stack.url}/auth/realms/partners/protocol/openid-connect/token`);
      const discovery = await getJson(`${stack.url}/auth/realms/partners/.well-known/openid-configuration`);
      expect(discovery.body.issuer).toBe(`${stack.url}/auth/realms/partners`);
      const { username, password } = await stack.createAccount("OPERATOR");
      const token = (await stack.login(username, password)).access_token;
      expect((await getJson(`${stack.url}/api/me`, token)).status).toBe(200);
      expect((await getJson(`${stack.url}/auth/realms/activities/.well-known/openid-configuration`)).status).toBe(404);
    } finally {
      await stack.close();
      await database.close();
    }
  });
});
